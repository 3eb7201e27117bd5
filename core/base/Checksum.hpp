#pragma once
// A file's fingerprint: FNV-1a, 64 bits, over its bytes. Not cryptographic: it tells a file that was
// changed, truncated or replaced by another from the one that was written (a study's case CSV against
// what its result recorded), which is all it is asked.
#include <cstdint>
#include <filesystem>
#include <string>

#include "base/Result.hpp"

namespace flexarm {

// The FNV-1a 64 hash of `bytes` continued from `hash` (start with kFnv1aOffset).
constexpr std::uint64_t kFnv1aOffset = 14695981039346656037ull;
std::uint64_t fnv1a64(const char* bytes, std::size_t size, std::uint64_t hash = kFnv1aOffset);

// The checksum of a file as written into a record: "fnv1a64:<16 hex digits>:<size in bytes>"; an error
// (without the file's name) when it cannot be read.
Result<std::string> fileChecksum(const std::filesystem::path& file);

}  // namespace flexarm
