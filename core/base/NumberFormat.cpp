#include "base/NumberFormat.hpp"

#include <cstdio>
#include <cstdlib>

namespace flexarm {

std::string formatNumber(double x) {
  char buf[64];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string formatShort(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

}  // namespace flexarm
