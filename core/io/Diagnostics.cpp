#include "io/Diagnostics.hpp"

namespace flexarm {

std::string Diagnostic::text() const {
  std::string out = severity == Severity::Warning ? "warning: " : "error: ";
  if (!path.empty()) out += path + ": ";
  return out + message;
}

void Diagnostics::error(const std::string& path, const std::string& message) {
  items_.push_back({Diagnostic::Severity::Error, path, message});
}

void Diagnostics::warning(const std::string& path, const std::string& message) {
  items_.push_back({Diagnostic::Severity::Warning, path, message});
}

bool Diagnostics::hasErrors() const {
  for (const auto& d : items_)
    if (d.severity == Diagnostic::Severity::Error) return true;
  return false;
}

void Diagnostics::escalateWarningsUnder(const std::string& path, const std::string& was, const std::string& now) {
  for (Diagnostic& d : items_) {
    if (d.severity != Diagnostic::Severity::Warning || d.message != was) continue;
    const bool under = d.path == path || (d.path.size() > path.size() && d.path.compare(0, path.size(), path) == 0 &&
                                          (d.path[path.size()] == '.' || d.path[path.size()] == '['));
    if (!under) continue;
    d.severity = Diagnostic::Severity::Error;
    d.message = now;
  }
}

std::string Diagnostics::text() const {
  std::string out;
  for (const auto& d : items_) out += d.text() + "\n";
  return out;
}

}  // namespace flexarm
