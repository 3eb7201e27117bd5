#include "results/CsvWriter.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "Version.hpp"

namespace flexarm {

void writeCsv(const Results& r, std::ostream& out) {
  out << "# FlexArm " << kVersion << "\n";
  out << "# project: " << r.project_name << "\n";
  if (!r.variant.empty()) out << "# variant: " << r.variant << "\n";
  out << "# solver: " << r.solver_description << "\n";
  char end_time[32];  // shortest text that reads back to the same double
  *std::to_chars(end_time, end_time + sizeof end_time - 1, r.end_time).ptr = '\0';
  out << "# status: " << runStatusName(r.status) << " at t = " << end_time << " s";
  if (!r.message.empty()) out << " (" << r.message << ")";
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
      std::snprintf(buf, sizeof buf, "%.17g", r.value(row, c));
      out << buf;
    }
    out << '\n';
  }
}

Status writeCsvFile(const Results& results, const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return error("cannot write \"" + file.string() + "\"");
  writeCsv(results, out);
  out.flush();
  if (!out) return error("writing \"" + file.string() + "\" failed");
  return {};
}

}  // namespace flexarm
