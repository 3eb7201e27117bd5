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

std::string Diagnostics::text() const {
  std::string out;
  for (const auto& d : items_) out += d.text() + "\n";
  return out;
}

}  // namespace flexarm
