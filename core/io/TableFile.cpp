#include "io/TableFile.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "base/Files.hpp"
#include "base/Text.hpp"

namespace flexarm {

namespace {

// A whole token as a number; std::from_chars, not strtod, which follows the C locale (a Qt
// application sets it from the environment: under de_DE strtod would stop at the '.').
bool parseNumber(const std::string& token, double& x) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+') ++first;
  const std::from_chars_result r = std::from_chars(first, last, x);
  return first != last && r.ec == std::errc() && r.ptr == last;
}

}  // namespace

Result<Table> readTableFile(const std::filesystem::path& file) {
  const Result<std::string> text = readRegularFile(file);
  if (!text) return error("cannot open table file " + inQuotes(file.string(), 200) + ": " + text.error().message);
  std::istringstream in(*text);
  Table table;
  std::string line;
  int line_no = 0;
  bool first_data_line = true;
  while (std::getline(in, line)) {
    ++line_no;
    const std::size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
    std::istringstream tokens(line);
    std::string ta, tb;
    tokens >> ta >> tb;
    double a = 0.0, b = 0.0;
    const bool ok_a = parseNumber(ta, a), ok_b = parseNumber(tb, b);
    if (!ok_a || !ok_b) {
      if (first_data_line) {  // a header line
        first_data_line = false;
        continue;
      }
      return errorAt(file.filename().string() + " line " + std::to_string(line_no), "expected two numbers \"t, value\"");
    }
    first_data_line = false;
    if (!std::isfinite(a) || !std::isfinite(b)) {
      return errorAt(file.filename().string() + " line " + std::to_string(line_no), "values must be finite");
    }
    table.t.push_back(a);
    table.value.push_back(b);
  }
  return table;
}

}  // namespace flexarm
