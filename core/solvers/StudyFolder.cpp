#include "solvers/StudyFolder.hpp"

#include <system_error>

#include "base/Files.hpp"
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

// The manifest read back; nlohmann's exceptions (a missing key, a wrong type) become the error.
Result<StudyFolder> fromManifest(const fs::path& dir, const std::string& text) {
  StudyFolder s;
  s.dir = dir;
  try {
    const Json doc = Json::parse(text);
    if (doc.value("format", std::string()) != kFormat)
      return error("is not a FlexArm study (\"format\" is not \"flexarm-study\")");
    s.source = doc.at("source").get<std::string>();
    s.base_dir = doc.at("base_dir").get<std::string>();
    s.overrides = doc.at("overrides").get<std::vector<std::string>>();
    s.t_end = doc.at("t_end").get<double>();
    for (const Json& c : doc.at("cases"))
      s.cases.push_back({c.at("name").get<std::string>(), c.at("overrides").get<std::vector<std::string>>()});
  } catch (const std::exception& e) {
    return error(e.what());
  }
  if (s.cases.empty()) return error("lists no cases");
  return s;
}

// A result file holds its row on one line: a newline in a quoted field (a multi-line message) is
// written as \n, a backslash as \\.
std::string oneLine(const std::string& row) {
  std::string line;
  for (char c : row) line += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
  return line + "\n";
}

// The row of case K's result file; empty without one.
std::string resultRow(const StudyFolder& s, std::size_t number) {
  const Result<std::string> text = readRegularFile(caseResultFile(s, number), std::size_t{1} << 20);
  if (!text) return {};
  std::string row;
  for (std::size_t i = 0; i < text->size() && (*text)[i] != '\n'; ++i) {
    if ((*text)[i] == '\\' && i + 1 < text->size()) {
      row += (*text)[++i] == 'n' ? '\n' : (*text)[i];
      continue;
    }
    row += (*text)[i];
  }
  return row;
}

}  // namespace

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
  const std::string status = studySummaryRowStatus(resultRow(s, number));
  return status.empty() ? "missing" : status;  // an unreadable line counts as no result: the case runs again
}

bool isPendingStatus(const std::string& status) { return status == "missing" || status == "cancelled"; }

std::vector<std::size_t> pendingCases(const StudyFolder& s) {
  std::vector<std::size_t> pending;
  for (std::size_t k = 1; k <= s.cases.size(); ++k)
    if (isPendingStatus(caseStatus(s, k))) pending.push_back(k);
  return pending;
}

FolderCaseRun runStudyFolderCase(const StudyFolder& s, std::size_t number, const std::atomic<bool>* cancel) {
  FolderCaseRun run;
  run.result = runStudyCase(s.project_text, s.base_dir, s.overrides, s.cases.at(number - 1), s.t_end, s.dir, cancel);
  run.recorded = writeFileAtomically(caseResultFile(s, number), oneLine(studySummaryRow(s.base.model, run.result)));
  return run;
}

StudyCollection collectStudyFolder(const StudyFolder& s) {
  StudyCollection out;
  std::vector<std::string> rows;
  for (std::size_t k = 1; k <= s.cases.size(); ++k) {
    const std::string status = caseStatus(s, k);
    out.statuses.push_back(status);
    rows.push_back(status == "missing" ? studySummaryMissingRow(s.base.model, s.cases[k - 1], k) : resultRow(s, k));
  }
  out.summary_csv = (s.dir / "summary.csv").string();
  out.summary_written = writeStudySummary(out.summary_csv, studySummaryHeader(s.base.model), rows);
  return out;
}

}  // namespace flexarm
