#include "results/CsvReader.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "base/Files.hpp"
#include "base/Text.hpp"
#include "results/CsvMetadata.hpp"

namespace flexarm {
namespace {

std::vector<std::string> splitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream ss(line);
  while (std::getline(ss, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

// "# key: value" -> value when the comment has that key.
bool commentValue(const std::string& line, const char* key, std::string& value) {
  const std::string prefix = std::string("# ") + key + ":";
  if (line.rfind(prefix, 0) != 0) return false;
  value = trimmed(line.substr(prefix.size()));
  return true;
}

RunStatus statusFromName(const std::string& s) {
  for (RunStatus st : {RunStatus::Completed, RunStatus::Failed, RunStatus::Cancelled, RunStatus::Diverged})
    if (s.rfind(runStatusName(st), 0) == 0) return st;
  return RunStatus::Completed;
}

// A decimal number as FlexArm writes it ("-1.5e-07"), read in full and finite: "nan", "inf", "0x10",
// "1,5" and a cell cut by a NUL byte are not numbers. std::from_chars ignores the C locale.
bool parseCell(const std::string& cell, double& x) {
  const char* first = cell.data();
  const char* last = first + cell.size();
  if (first != last && *first == '+') ++first;
  if (first == last || !(std::isdigit(static_cast<unsigned char>(*first)) || *first == '-' || *first == '.')) return false;
  if (cell.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  const std::from_chars_result r = std::from_chars(first, last, x, std::chars_format::general);
  return r.ec == std::errc() && r.ptr == last && std::isfinite(x);
}

// "# stats: steps=812 rhs_evaluations=2130 jacobian_evaluations=40 wall_time_s=0.42" (the earlier layout).
void readStatsComment(const std::string& value, SolverStats& s) {
  std::istringstream fields(value);
  std::string field;
  while (fields >> field) {
    const std::size_t eq = field.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = field.substr(0, eq);
    double x = 0.0;
    if (!parseCell(field.substr(eq + 1), x) || x < 0.0) continue;
    if (key == "steps")
      s.steps = static_cast<long>(x);
    else if (key == "rhs_evaluations")
      s.rhs_evaluations = static_cast<long>(x);
    else if (key == "jacobian_evaluations")
      s.jacobian_evaluations = static_cast<long>(x);
    else if (key == "wall_time_s")
      s.wall_time = x;
  }
}

}  // namespace

Result<Results> readCsv(std::istream& in) {
  Results r;
  std::vector<std::string> units, names;
  std::string line, value;
  long line_no = 0;
  std::vector<double> row;
  while (std::getline(in, line)) {
    ++line_no;
    line = trimmed(line);
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (commentValue(line, "project", value))
        r.project_name = value;
      else if (commentValue(line, "variant", value))
        r.variant = value;
      else if (commentValue(line, "solver", value))
        r.solver_description = value;
      else if (commentValue(line, "units", value))
        units = splitCells(value);
      else if (commentValue(line, "stats", value))
        readStatsComment(value, r.stats);
      else if (commentValue(line, "status", value)) {
        r.status = statusFromName(value);
        const std::size_t at = value.find(" at t = ");
        if (at != std::string::npos) {
          const std::string rest = value.substr(at + 8);
          double t = 0.0;
          if (parseCell(rest.substr(0, rest.find(' ')), t)) r.end_time = t;
        }
        const std::size_t open = value.find(" (");
        if (open != std::string::npos && value.back() == ')') r.message = value.substr(open + 2, value.size() - open - 3);
      }
      continue;
    }
    if (names.empty()) {
      names = splitCells(line);
      if (names.empty() || names.front() != "t") {
        return errorAt("line " + std::to_string(line_no), "the header must start with the channel \"t\"");
      }
      std::vector<Channel> channels;
      for (std::size_t c = 0; c < names.size(); ++c) channels.push_back({names[c], c < units.size() ? units[c] : ""});
      r.setChannels(std::move(channels));
      continue;
    }
    const std::vector<std::string> cells = splitCells(line);
    if (cells.size() != names.size()) {
      return errorAt("line " + std::to_string(line_no),
                     std::to_string(cells.size()) + " cells, the header has " + std::to_string(names.size()));
    }
    row.assign(names.size(), std::nan(""));
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].empty()) continue;  // no value
      if (!parseCell(cells[c], row[c])) {
        return errorAt("line " + std::to_string(line_no) + ", column " + excerpt(names[c]),
                       inQuotes(cells[c]) + " is not a number");
      }
    }
    if (std::isnan(row[0])) {
      return errorAt("line " + std::to_string(line_no), "no time");
    }
    r.appendRow(row.data());
  }
  if (names.empty()) return error("no header row of channel names");
  return r;
}

Result<Results> readCsvFile(const std::filesystem::path& file) {
  const Result<std::string> text = readRegularFile(file);
  if (!text) return error("cannot read " + inQuotes(file.string(), 200) + ": " + text.error().message);
  std::istringstream in(*text);
  Result<Results> r = readCsv(in);
  if (!r) {
    const Error& e = r.error();
    return errorAt(file.filename().string() + (e.where.empty() ? "" : ": " + e.where), e.message);
  }
  const std::filesystem::path sidecar = csvMetadataFile(file);
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(sidecar, ec))) return r;  // an earlier CSV, or one from elsewhere
  const Result<std::string> meta = readRegularFile(sidecar);
  if (!meta) return errorAt(sidecar.filename().string(), "cannot read the results' description: " + meta.error().message);
  if (Status applied = readCsvMetadata(*meta, *r); !applied) {
    const Error& e = applied.error();
    return errorAt(sidecar.filename().string() + (e.where.empty() ? "" : ": " + e.where), e.message);
  }
  return r;
}

}  // namespace flexarm
