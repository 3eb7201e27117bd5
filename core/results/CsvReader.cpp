#include "results/CsvReader.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

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
      else if (commentValue(line, "status", value)) {
        r.status = statusFromName(value);
        const std::size_t at = value.find(" at t = ");
        if (at != std::string::npos) r.end_time = std::strtod(value.c_str() + at + 8, nullptr);
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
      char* end = nullptr;
      row[c] = std::strtod(cells[c].c_str(), &end);
      if (end == cells[c].c_str() || *end != '\0') {
        return errorAt("line " + std::to_string(line_no) + ", column " + names[c], "\"" + cells[c] + "\" is not a number");
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
  std::ifstream in(file, std::ios::binary);
  if (!in) return error("cannot read \"" + file.string() + "\"");
  Result<Results> r = readCsv(in);
  if (!r) {
    const Error& e = r.error();
    return errorAt(file.filename().string() + (e.where.empty() ? "" : ": " + e.where), e.message);
  }
  return r;
}

}  // namespace flexarm
