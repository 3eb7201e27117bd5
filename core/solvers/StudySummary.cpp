#include "solvers/StudySummary.hpp"

#include <cmath>
#include <sstream>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"

namespace flexarm {
namespace {

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The case and its overrides: the first two fields of every row.
std::string caseFields(const StudyCase& c) {
  std::string sets;
  for (const std::string& o : c.overrides) sets += (sets.empty() ? "" : "; ") + o;
  return csvField(c.name) + "," + csvField(sets) + ",";
}

// A row without a run: status and message, every other field empty.
std::string rowWithoutRun(const Model& m, const StudyCase& c, const std::string& status, const std::string& message) {
  std::string row = caseFields(c) + status + ",,,,," + csvField(message);
  for (std::size_t k = 0; k < scalarMetrics(m, nullptr).size(); ++k) row += ",";
  return row;
}

}  // namespace

std::string studySummaryHeader(const Model& m) {
  std::string header = "case,overrides,status,end_time [s],diverged,diverged_at [s],wall_time [s],message";
  for (const ScalarMetric& metric : scalarMetrics(m, nullptr)) header += "," + metric.name;
  return header;
}

std::string studySummaryRow(const Model& m, const StudyCaseResult& r) {
  if (!r.loaded) return rowWithoutRun(m, r.study_case, "invalid", r.loaded.error().text());
  const Results& res = r.results;
  const bool diverged = res.status == RunStatus::Diverged;
  std::ostringstream row;
  row << caseFields(r.study_case) << runStatusName(res.status) << "," << formatNumber(res.end_time) << ","
      << (diverged ? "yes" : "no") << "," << (diverged ? formatNumber(res.end_time) : std::string()) << ","
      << formatShort(res.stats.wall_time, 3) << "," << csvField(res.message);
  for (const ScalarMetric& metric : scalarMetrics(m, &res))
    row << "," << (std::isnan(metric.value) ? std::string() : formatNumber(metric.value));
  return row.str();
}

std::string studySummaryMissingRow(const Model& m, const StudyCase& c, std::size_t number) {
  return rowWithoutRun(m, c, "missing", "case " + std::to_string(number) + " has no result");
}

std::string studySummaryRowStatus(const std::string& row) {
  // Skips the two fields before the status; a quoted field may hold commas and doubled quotes.
  std::size_t i = 0;
  for (int field = 0; field < 2; ++field) {
    if (i < row.size() && row[i] == '"') {
      for (++i; i < row.size(); ++i)
        if (row[i] == '"' && (i + 1 >= row.size() || row[i + 1] != '"'))
          break;
        else if (row[i] == '"')
          ++i;
      ++i;
    } else {
      i = row.find(',', i);
    }
    if (i == std::string::npos || i >= row.size() || row[i] != ',') return {};
    ++i;
  }
  const std::size_t end = row.find(',', i);
  return end == std::string::npos ? std::string() : row.substr(i, end - i);
}

Status writeStudySummary(const std::filesystem::path& file, const std::string& header, const std::vector<std::string>& rows) {
  std::string text = header + "\n";
  for (const std::string& row : rows) text += row + "\n";
  return writeFileAtomically(file, text);
}

}  // namespace flexarm
