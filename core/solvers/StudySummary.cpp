#include "solvers/StudySummary.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"

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
  if (!r.loaded)
    return r.write_failed
               ? rowWithoutRun(m, r.study_case, "unwritten", "its results could not be written: " + r.loaded.error().text())
               : rowWithoutRun(m, r.study_case, "invalid", r.loaded.error().text());
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

std::string studySummaryMissingRow(const Model& m, const StudyCase& c, std::size_t number, const std::string& problem) {
  const std::string which = "case " + std::to_string(number);
  return rowWithoutRun(m, c, "missing", problem.empty() ? which + " has no result" : which + " has no valid result: " + problem);
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

std::string studySummaryRowProblem(const Model& m, const StudyCase& c, const std::string& row) {
  if (row.rfind(caseFields(c), 0) != 0) return "it is the row of another case";
  const std::string status = studySummaryRowStatus(row);
  bool known = false;
  for (const char* s : {"completed", "diverged", "failed", "cancelled", "invalid", "unwritten"}) known |= status == s;
  if (!known) return status.empty() ? "it is not a row of the summary" : "its status " + inQuotes(status) + " is none of a run's";
  // The fields, with quoted commas and doubled quotes; a cell that is not a number where a number goes.
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (quoted && row[i] == '"' && i + 1 < row.size() && row[i + 1] == '"')
      fields.back() += row[++i];
    else if (row[i] == '"')
      quoted = !quoted;
    else if (row[i] == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += row[i];
  }
  const std::size_t expected = 8 + scalarMetrics(m, nullptr).size();
  if (quoted || fields.size() != expected)
    return "it has " + std::to_string(fields.size()) + " fields, the summary " + std::to_string(expected) +
           " (truncated or corrupt)";
  for (std::size_t k = 3; k < fields.size(); ++k) {
    if (k == 4 || k == 7 || fields[k].empty()) continue;  // diverged (yes/no) and the message are words
    double x = 0.0;  // from_chars, not strtod: the C locale may use ',' for the decimal point
    const char* end = fields[k].data() + fields[k].size();
    const std::from_chars_result read = std::from_chars(fields[k].data(), end, x);
    if (read.ec != std::errc() || read.ptr != end || !std::isfinite(x))
      return "field " + std::to_string(k + 1) + " is " + inQuotes(fields[k]) + ", not a finite number";
  }
  return {};
}

Status writeStudySummary(const std::filesystem::path& file, const std::string& header, const std::vector<std::string>& rows) {
  std::string text = header + "\n";
  for (const std::string& row : rows) text += row + "\n";
  return writeFileAtomically(file, text);
}

}  // namespace flexarm
