#pragma once
// Problems found while reading a project: each names the JSON path it concerns.
#include <string>
#include <vector>

namespace flexarm {

struct Diagnostic {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string path;          // e.g. "links[1].mass"
  std::string message;       // e.g. "must be > 0, got -2"
  std::string text() const;  // "links[1].mass: must be > 0, got -2" (with "warning: " for warnings)
};

class Diagnostics {
 public:
  void error(const std::string& path, const std::string& message);
  void warning(const std::string& path, const std::string& message);
  bool hasErrors() const;
  // Makes every warning with message `was` at `path` or below it (path.key, path[i]) an error with
  // message `now`.
  void escalateWarningsUnder(const std::string& path, const std::string& was, const std::string& now);
  const std::vector<Diagnostic>& all() const { return items_; }
  std::string text() const;  // one line per diagnostic

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace flexarm
