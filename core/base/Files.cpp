#include "base/Files.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>

#include "base/Text.hpp"

namespace flexarm {

namespace fs = std::filesystem;

Result<std::string> readRegularFile(const fs::path& file, std::size_t max_bytes) {
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) return error("no such file");
  if (!fs::is_regular_file(st))
    return error(fs::is_directory(st) ? "is a folder, not a file" : "not a regular file (a pipe or device cannot be read)");
  std::ifstream in(file, std::ios::binary);
  if (!in) return error("cannot be opened for reading");
  std::string text;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) return error("larger than " + std::to_string(max_bytes >> 20) + " MiB, the most FlexArm reads");
  }
  if (in.bad()) return error("cannot be read");
  return text;
}

namespace {

// A name no other writer uses at the same time: this process's id and a counter.
std::string uniqueSuffix() {
  static std::atomic<unsigned> counter{0};
  return ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
}

// ": <the system's reason>" for the last failed call (errno), or nothing when it left none.
std::string systemReason() {
  const int e = errno;
  return e ? std::string(": ") + std::strerror(e) : std::string();
}

// Renames the written temporary file over `file`, or removes it.
Status replaceWith(const fs::path& tmp, const fs::path& file, const std::string& name) {
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return error("cannot replace " + name + ": " + ec.message());
  }
  return {};
}

}  // namespace

Status writeFileAtomically(const fs::path& file, const std::function<void(std::ostream&)>& write) {
  const fs::path tmp = file.string() + uniqueSuffix();
  const std::string name = inQuotes(file.string());
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return error("cannot write " + name + systemReason());
    try {
      write(out);
      out.flush();
    } catch (const std::exception& e) {
      out.close();
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return error("cannot write " + name + ": " + e.what());
    }
    if (out) out.close();  // the last buffered bytes reach the disk here, or fail to
    if (!out) {
      const std::string why = systemReason();  // a full disk: "No space left on device"
      out.close();
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return error("writing " + name + " failed" + why);
    }
  }
  return replaceWith(tmp, file, name);
}

Status writeFileThrough(const fs::path& file, const std::function<std::string(const fs::path&)>& write) {
  const std::string name = inQuotes(file.string());
  if (file.filename().empty()) return error("cannot write " + name + ": no file name");
  if (Status ok = checkWritable(file); !ok) return ok;
  // A hidden name beside the file, with its extension: ".plot.tmp-123-4.png" for "plot.png".
  const fs::path tmp = file.parent_path() / ("." + file.stem().string() + uniqueSuffix() + file.extension().string());
  std::string why;
  try {
    why = write(tmp);
  } catch (const std::exception& e) {
    why = e.what();
  }
  std::error_code ec;
  if (why.empty() && !(fs::is_regular_file(tmp, ec) && fs::file_size(tmp, ec) > 0)) why = "nothing was written";
  if (!why.empty()) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return error("cannot write " + name + ": " + why);
  }
  return replaceWith(tmp, file, name);
}

Status writeFileAtomically(const fs::path& file, const std::string& content) {
  return writeFileAtomically(file, [&content](std::ostream& out) { out << content; });
}

Status checkWritable(const fs::path& file) {
  const std::string name = inQuotes(file.string());
  if (file.empty()) return error("an empty file name");
  std::error_code ec;
  if (fs::is_directory(file, ec)) return error("cannot write " + name + ": it is a folder");
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    return error("cannot write " + name + ": the folder " + inQuotes(dir.string()) + " does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    return error("cannot write " + name + ": the folder " + inQuotes(dir.string()) + " is not writable");
  if (fs::exists(file, ec) && ::access(file.c_str(), W_OK) != 0) {
    // Replaced by a rename, the file itself needs no write permission; a read-only file is
    // nevertheless the user's sign that it should stay.
    return error("cannot write " + name + ": the file is read-only");
  }
  return {};
}

}  // namespace flexarm
