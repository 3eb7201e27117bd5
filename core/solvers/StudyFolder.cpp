#include "solvers/StudyFolder.hpp"

#include <system_error>

#include "base/Checksum.hpp"
#include "base/Files.hpp"
#include "base/Text.hpp"
#include "io/JsonReader.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/StudySummary.hpp"

namespace fs = std::filesystem;

namespace flexarm {
namespace {

constexpr const char* kManifest = "study.json";
constexpr const char* kFrozenProject = "project.flexarm.json";
constexpr const char* kFormat = "flexarm-study";

// The base project of a study: the frozen text with the study's overrides.
Result<Project> baseProject(const std::string& text, const fs::path& base_dir, const std::vector<std::string>& overrides,
                            const std::string& name) {
  const LoadedProject p = parseProjectText(text, base_dir, overrides);
  if (!p.project) return errorAt(name, "has errors:\n" + p.diagnostics.text());
  return *p.project;
}

Json manifestJson(const StudyFolder& s) {
  Json cases = Json::array();
  for (std::size_t k = 0; k < s.cases.size(); ++k)
    cases.push_back({{"number", k + 1},
                     {"name", s.cases[k].name},
                     {"overrides", s.cases[k].overrides},
                     {"csv", caseFileName(s.cases[k].name) + ".csv"}});
  return Json{{"format", kFormat},
              {"version", 1},
              {"source", s.source.string()},
              {"base_dir", s.base_dir.string()},
              {"project", kFrozenProject},
              {"overrides", s.overrides},
              {"t_end", s.t_end},
              {"cases", cases}};
}

// A list of strings at `key` of r (the overrides); an error names the item that is not one.
bool readStrings(JsonObjectReader& r, const std::string& key, std::vector<std::string>& out) {
  const Json* list = r.array(key, Need::Required);
  if (!list) return false;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) {
      r.diagnostics().error(r.pathOf(key) + "[" + std::to_string(i) + "]", "must be a string, got " + describeJson((*list)[i]));
      return false;
    }
    out.push_back((*list)[i].get<std::string>());
  }
  return true;
}

// The manifest read back, each field checked for its type: an error names the field ("cases[2].name:
// must be a string, got number 3") and, when there are several, the first.
Result<StudyFolder> fromManifest(const fs::path& dir, const std::string& text) {
  StudyFolder s;
  s.dir = dir;
  const Result<Json> doc = parseJsonText(text);
  if (!doc) return doc.error();
  Diagnostics diag;
  JsonObjectReader root(&*doc, "", diag);
  std::string format, source, base_dir;
  if (!root.valid()) return error(diag.text());  // "must be an object, got ..."
  if ((!root.string("format", format, Need::Optional) || format != kFormat))
    return error("is not a FlexArm study (\"format\" is not \"flexarm-study\")");
  root.raw("version", Need::Optional);
  root.raw("project", Need::Optional);
  if (root.string("source", source, Need::Required)) s.source = source;
  if (root.string("base_dir", base_dir, Need::Required)) s.base_dir = base_dir;
  readStrings(root, "overrides", s.overrides);
  root.number("t_end", s.t_end, Need::Required, Range::NonNegative);
  if (const Json* cases = root.array("cases", Need::Required)) {
    for (std::size_t k = 0; k < cases->size(); ++k) {
      JsonObjectReader c(&(*cases)[k], "cases[" + std::to_string(k) + "]", diag);
      StudyCase sc;
      c.raw("number", Need::Optional);
      c.raw("csv", Need::Optional);
      c.string("name", sc.name, Need::Required);
      readStrings(c, "overrides", sc.overrides);
      s.cases.push_back(sc);
    }
  }
  for (const Diagnostic& d : diag.all())
    if (d.severity == Diagnostic::Severity::Error) return errorAt(d.path, d.message);
  if (s.cases.empty()) return error("lists no cases");
  return s;
}

// study.json is a file anyone can edit: what it adds to the frozen project (the end time, the cases)
// must pass the loader's limits as the project's own values do, and the cases must be the frozen
// project's study (a case list of other overrides would run what nobody checked).
Status checkManifest(const StudyFolder& s) {
  if (s.t_end > 0.0) {
    SimulationSettings simulation = s.base.simulation;
    simulation.t_end = s.t_end;
    if (const Status length = checkRunLength(simulation); !length) return errorAt("t_end", length.error().message);
  }
  const std::vector<StudyCase> expected = studyCases(s.base);
  if (expected.size() != s.cases.size())
    return errorAt("cases", "lists " + std::to_string(s.cases.size()) + " cases, the study of the frozen project has " +
                                std::to_string(expected.size()));
  for (std::size_t k = 0; k < expected.size(); ++k)
    if (expected[k].name != s.cases[k].name || expected[k].overrides != s.cases[k].overrides)
      return errorAt("cases[" + std::to_string(k) + "]", inQuotes(s.cases[k].name) + " is not case " + std::to_string(k + 1) +
                                                             " of the frozen project's study (" + inQuotes(expected[k].name) +
                                                             ")");
  return {};
}

// A result file holds its row on one line: a newline in a quoted field (a multi-line message) is
// written as \n, a backslash as \\.
std::string oneLine(const std::string& row) {
  std::string line;
  for (char c : row) line += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  return line + "\n";
}

// A result file's lines: the row (unescaped), then "csv <checksum>" for a case that wrote its CSV.
constexpr const char* kChecksumLine = "csv ";

// Case K's result as read back and verified: its row, or why it cannot be trusted (the case is then
// not done). Without a result file both are empty.
struct CaseRecord {
  std::string row;
  std::string problem;
};

CaseRecord readCaseRecord(const StudyFolder& s, std::size_t number) {
  const fs::path file = caseResultFile(s, number);
  const std::string name = "results/" + file.filename().string();
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  const Result<std::string> text = readRegularFile(file, std::size_t{1} << 20);
  if (!text) return {{}, name + " " + text.error().text()};
  std::string row;
  std::size_t i = 0;
  for (; i < text->size() && (*text)[i] != '\n'; ++i) {
    if ((*text)[i] == '\\' && i + 1 < text->size()) {
      row += (*text)[++i] == 'n' ? '\n' : (*text)[i];
      continue;
    }
    row += (*text)[i];
  }
  if (i >= text->size()) return {{}, name + " ends before its line does (truncated)"};
  const StudyCase& c = s.cases[number - 1];
  if (std::string why = studySummaryRowProblem(s.base.model, c, row); !why.empty()) return {{}, name + ": " + why};
  const std::string status = studySummaryRowStatus(row);
  if (status == "invalid" || status == "unwritten") return {row, {}};  // no run, or no CSV: nothing to check
  // A run wrote its CSV before its result: the CSV must be the one the result recorded.
  const std::string rest = text->substr(i + 1);
  const std::size_t end = rest.find('\n');
  if (rest.rfind(kChecksumLine, 0) != 0 || end == std::string::npos)
    return {{}, name + " records no checksum of its CSV (truncated, or written by an older FlexArm)"};
  const std::string recorded = rest.substr(std::string(kChecksumLine).size(), end - std::string(kChecksumLine).size());
  const std::string csv = caseFileName(c.name) + ".csv";
  const Result<std::string> actual = fileChecksum(s.dir / csv);
  if (!actual) return {{}, "its CSV " + inQuotes(csv) + ": " + actual.error().text()};
  if (*actual != recorded)
    return {{}, "its CSV " + inQuotes(csv) + " is not the one its result recorded (changed, truncated or replaced)"};
  return {row, {}};
}

}  // namespace

std::string caseResultProblem(const StudyFolder& study, std::size_t number) { return readCaseRecord(study, number).problem; }

Result<StudyFolder> studyFolderFor(const fs::path& project_file, const std::vector<std::string>& overrides, double t_end,
                                   const fs::path& dir) {
  const Result<std::string> text = readRegularFile(project_file);
  if (!text) return errorAt(project_file.string(), text.error().text());
  StudyFolder s;
  s.dir = dir;
  std::error_code ec;
  s.source = fs::absolute(project_file, ec);
  s.base_dir = s.source.parent_path();
  s.project_text = *text;
  s.overrides = overrides;
  s.t_end = t_end;
  Result<Project> base = baseProject(s.project_text, s.base_dir, overrides, project_file.string());
  if (!base) return base.error();
  s.base = std::move(*base);
  s.cases = studyCases(s.base);
  if (s.cases.empty())
    return error(project_file.string() + " defines no study (add \"study\": {\"variants\": [...]} or {\"grid\": {...}})");
  return s;
}

Status writeStudyFolder(const StudyFolder& s) {
  std::error_code ec;
  fs::create_directories(s.dir / "results", ec);
  if (ec) return errorAt("cannot create \"" + (s.dir / "results").string() + "\"", ec.message());
  if (Status frozen = writeFileAtomically(s.dir / kFrozenProject, s.project_text); !frozen) return frozen;
  return writeFileAtomically(s.dir / kManifest, manifestJson(s).dump(2) + "\n");
}

Result<StudyFolder> openStudyFolder(const fs::path& dir) {
  const fs::path manifest = dir / kManifest;
  if (!isStudyFolder(dir))
    return errorAt(dir.string(), "is not a prepared study (no " + std::string(kManifest) +
                                     "; `flexarm-cli study PROJECT --out DIR --slurm` prepares one)");
  const Result<std::string> text = readRegularFile(manifest);
  if (!text) return errorAt(manifest.string(), text.error().text());
  Result<StudyFolder> s = fromManifest(dir, *text);
  if (!s) return errorAt(manifest.string(), s.error().text());
  const Result<std::string> project = readRegularFile(dir / kFrozenProject);
  if (!project) return errorAt((dir / kFrozenProject).string(), project.error().text());
  s->project_text = *project;
  Result<Project> base = baseProject(s->project_text, s->base_dir, s->overrides, (dir / kFrozenProject).string());
  if (!base) return base.error();
  s->base = std::move(*base);
  if (const Status checked = checkManifest(*s); !checked) return errorAt(manifest.string(), checked.error().text());
  return s;
}

bool isStudyFolder(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kManifest, ec);
}

bool sameStudy(const StudyFolder& a, const StudyFolder& b) {
  if (a.project_text != b.project_text || a.overrides != b.overrides || a.t_end != b.t_end || a.cases.size() != b.cases.size())
    return false;
  for (std::size_t k = 0; k < a.cases.size(); ++k)
    if (a.cases[k].name != b.cases[k].name || a.cases[k].overrides != b.cases[k].overrides) return false;
  return true;
}

Status clearCaseResults(const StudyFolder& s) {
  for (std::size_t k = 1; k <= s.cases.size(); ++k) {
    std::error_code ec;
    fs::remove(caseResultFile(s, k), ec);
    if (ec) return errorAt(caseResultFile(s, k).string(), "cannot remove the old result: " + ec.message());
  }
  return {};
}

fs::path caseResultFile(const StudyFolder& s, std::size_t number) {
  return s.dir / "results" / (std::to_string(number) + ".result");
}

std::string caseStatus(const StudyFolder& s, std::size_t number) {
  const std::string status = studySummaryRowStatus(readCaseRecord(s, number).row);
  return status.empty() ? "missing" : status;  // a result that cannot be trusted counts as none: the case runs again
}

bool isPendingStatus(const std::string& status) { return status == "missing" || status == "cancelled" || status == "unwritten"; }

std::vector<std::size_t> pendingCases(const StudyFolder& s) {
  std::vector<std::size_t> pending;
  for (std::size_t k = 1; k <= s.cases.size(); ++k)
    if (isPendingStatus(caseStatus(s, k))) pending.push_back(k);
  return pending;
}

FolderCaseRun runStudyFolderCase(const StudyFolder& s, std::size_t number, const std::atomic<bool>* cancel) {
  FolderCaseRun run;
  run.result = runStudyCase(s.project_text, s.base_dir, s.overrides, s.cases.at(number - 1), s.t_end, s.dir, cancel);
  std::string record = oneLine(studySummaryRow(s.base.model, run.result));
  if (run.result.loaded) {  // the CSV was written: its checksum, so that a later change of it is seen
    const Result<std::string> checksum = fileChecksum(run.result.csv);
    if (!checksum) {
      run.recorded = errorAt(run.result.csv, checksum.error().text());
      return run;
    }
    record += kChecksumLine + *checksum + "\n";
  }
  run.recorded = writeFileAtomically(caseResultFile(s, number), record);
  return run;
}

StudyCollection collectStudyFolder(const StudyFolder& s) {
  StudyCollection out;
  std::vector<std::string> rows;
  for (std::size_t k = 1; k <= s.cases.size(); ++k) {
    const CaseRecord record = readCaseRecord(s, k);
    const std::string status = studySummaryRowStatus(record.row);
    out.statuses.push_back(status.empty() ? "missing" : status);
    out.problems.push_back(record.problem);
    rows.push_back(status.empty() ? studySummaryMissingRow(s.base.model, s.cases[k - 1], k, record.problem) : record.row);
  }
  out.summary_csv = (s.dir / "summary.csv").string();
  out.summary_written = writeStudySummary(out.summary_csv, studySummaryHeader(s.base.model), rows);
  return out;
}

}  // namespace flexarm
