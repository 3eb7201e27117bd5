#pragma once
// Files for the unit tests: a fresh scratch folder of a test's own, and a file's whole content.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flexarm::test {

// An empty folder <tmp>/flexarm-<suite>-<name>-<pid>, created anew.
inline std::filesystem::path scratchFolder(const std::string& suite, const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("flexarm-" + suite + "-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string readAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace flexarm::test
