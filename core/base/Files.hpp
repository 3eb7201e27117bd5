#pragma once
// Reading and writing whole files the way every part of FlexArm does: only regular files are read
// (a FIFO would block forever, /dev/zero never ends) and never more than a limit; a file is written
// to a temporary file beside it and renamed over the old one, so that a failure half-way (a full
// disk, an exception while formatting) leaves the old file as it was.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "base/Result.hpp"

namespace flexarm {

// The largest project, table or results file read (64 MiB).
constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;

// The content of a regular file of at most max_bytes; otherwise why not ("not a regular file",
// "no such file", "larger than ..."), without the file's name (the caller names it).
Result<std::string> readRegularFile(const std::filesystem::path& file, std::size_t max_bytes = kMaxInputFileBytes);

// Writes `file` through a temporary file in the same folder and a rename. `write` fills the stream;
// an exception it throws is turned into an error, and the old file stays untouched. Errors name the file.
Status writeFileAtomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);
Status writeFileAtomically(const std::filesystem::path& file, const std::string& content);

// The same for a writer that makes the file itself (an image or plot library given a file name):
// `write` writes the temporary path it is given, which is in the same folder and keeps the file's
// extension (formats are told by it), and returns an empty string or why it failed; then the
// temporary file is renamed over `file`. On failure the old file stays untouched and no temporary
// file is left. Errors name the file.
Status writeFileThrough(const std::filesystem::path& file, const std::function<std::string(const std::filesystem::path&)>& write);

// Whether a file can be created or replaced at `file` (its folder exists and is writable, and it is
// not a folder itself): checked before a long run rather than after. Errors name the file.
Status checkWritable(const std::filesystem::path& file);

}  // namespace flexarm
