#include "base/NumberFormat.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace flexarm {

// std::to_chars and std::from_chars, not printf and strtod: they ignore the C locale, which a Qt
// application sets from the environment (under LC_ALL=de_DE.UTF-8 printf would write "0,5").

std::string formatNumber(double x) {
  char buf[64];
  char* end = buf;
  for (int precision = 6; precision <= 17; ++precision) {
    end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, precision).ptr;
    double back = 0.0;
    if (std::from_chars(buf, end, back).ec == std::errc() && back == x) break;
  }
  return std::string(buf, end);
}

std::string formatShort(double x, int digits) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits).ptr);
}

std::optional<double> parseNumber(const std::string& text) {
  const char* first = text.data();
  const char* last = first + text.size();
  while (first != last && (*first == ' ' || *first == '\t')) ++first;
  if (first != last && *first == '+') ++first;
  double v = 0.0;
  const std::from_chars_result r = std::from_chars(first, last, v, std::chars_format::general);
  if (first == last || r.ec != std::errc() || r.ptr != last || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace flexarm
