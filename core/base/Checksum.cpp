#include "base/Checksum.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>
#include <vector>

namespace flexarm {

std::uint64_t fnv1a64(const char* bytes, std::size_t size, std::uint64_t hash) {
  constexpr std::uint64_t kPrime = 1099511628211ull;
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(bytes[i]);
    hash *= kPrime;
  }
  return hash;
}

Result<std::string> fileChecksum(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return error("no such file");
  if (!std::filesystem::is_regular_file(file, ec)) return error("not a regular file");
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) return error(std::string("cannot be read: ") + std::strerror(errno ? errno : EIO));
  std::vector<char> buffer(std::size_t{1} << 16);
  std::uint64_t hash = kFnv1aOffset, size = 0;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    hash = fnv1a64(buffer.data(), got, hash);
    size += got;
  }
  if (in.bad()) return error("reading it failed");
  char text[64];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx:%llu", static_cast<unsigned long long>(hash),
                static_cast<unsigned long long>(size));
  return std::string(text);
}

}  // namespace flexarm
