#include "results/CsvWriter.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "Version.hpp"
#include "base/Files.hpp"

namespace flexarm {

namespace {

// A comment's text on its one line: a newline in a name must not start a line of its own.
std::string oneLine(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return s;
}

}  // namespace

void writeCsv(const Results& r, std::ostream& out) {
  out << "# FlexArm " << kVersion << "\n";
  out << "# project: " << oneLine(r.project_name) << "\n";
  if (!r.variant.empty()) out << "# variant: " << oneLine(r.variant) << "\n";
  out << "# solver: " << oneLine(r.solver_description) << "\n";
  char end_time[32];  // shortest text that reads back to the same double
  *std::to_chars(end_time, end_time + sizeof end_time - 1, r.end_time).ptr = '\0';
  out << "# status: " << runStatusName(r.status) << " at t = " << end_time << " s";
  if (!r.message.empty()) out << " (" << oneLine(r.message) << ")";
  out << "\n";
  const SolverStats& s = r.stats;
  out << "# stats: steps=" << s.steps << " rhs_evaluations=" << s.rhs_evaluations
      << " jacobian_evaluations=" << s.jacobian_evaluations << " wall_time_s=" << s.wall_time << "\n";
  out << "# units: ";
  for (std::size_t c = 0; c < r.channels().size(); ++c) out << (c ? "," : "") << r.channels()[c].unit;
  out << "\n";
  for (std::size_t c = 0; c < r.channels().size(); ++c) out << (c ? "," : "") << r.channels()[c].name;
  out << "\n";
  char buf[32];
  for (std::size_t row = 0; row < r.rows(); ++row) {
    for (std::size_t c = 0; c < r.channels().size(); ++c) {
      if (c) out << ',';
      if (std::isnan(r.value(row, c))) continue;  // no value (a compared run had ended): an empty cell
      // to_chars, not printf: the C locale may use ',' for the decimal point (see NumberFormat.cpp)
      out.write(buf, std::to_chars(buf, buf + sizeof buf, r.value(row, c), std::chars_format::general, 17).ptr - buf);
    }
    out << '\n';
  }
}

Status writeCsvFile(const Results& results, const std::filesystem::path& file) {
  return writeFileAtomically(file, [&results](std::ostream& out) { writeCsv(results, out); });
}

}  // namespace flexarm
