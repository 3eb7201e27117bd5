#include "io/TableFile.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>

namespace flexarm {

Result<Table> readTableFile(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return error("cannot open table file \"" + file.string() + "\"");
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
    const char* p = line.c_str();
    char* end = nullptr;
    const double a = std::strtod(p, &end);
    const bool ok_a = end != p;
    p = end;
    const double b = std::strtod(p, &end);
    const bool ok_b = end != p;
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
