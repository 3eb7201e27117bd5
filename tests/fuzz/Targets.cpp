#include "fuzz/Targets.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "fuzz/FiniteProject.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "io/FlexibleLinkSpec.hpp"
#include "io/TableFile.hpp"
#include "io/UrdfImport.hpp"
#include "results/CsvReader.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Study.hpp"
#include "solvers/StudyFolder.hpp"

namespace fuzz {

using namespace flexarm;
namespace fs = std::filesystem;

namespace {

// A message a user reads: one line of reasonable length (echoed input is cut, issue 21).
constexpr std::size_t kMaxMessage = 2000;

std::string checkDiagnostics(const Diagnostics& diag) {
  for (const Diagnostic& d : diag.all()) {
    if (d.severity == Diagnostic::Severity::Error && d.message.empty()) return "an error without a message at " + d.path;
    const std::string text = d.text();
    if (text.size() > kMaxMessage)
      return "a diagnostic of " + std::to_string(text.size()) + " characters: " + text.substr(0, 160);
    if (text.find('\n') != std::string::npos) return "a diagnostic of more than one line: " + text.substr(0, 200);
  }
  return {};
}

// The equations at the initial state: finite accelerations, or a failure that says why. A model of
// more than 1500 coordinates (several links meshed with hundreds of spatial elements) is read and
// checked but not evaluated: building it and factorizing its dense mass matrix takes seconds, which the
// per-input time limit would report as a hang (the engine's cost on fine meshes is measured by the
// benchmarks, not here).
std::string evaluateOnce(const Project& project) {
  if (Coordinates::of(project.model).size() > 1500) return {};
  const MultibodySystem sys = MultibodySystem::fromModel(project.model, project.coupling);
  Eigen::VectorXd q, qd;
  sys.initialState(project.model, q, qd);
  for (Eigen::Index k = 0; k < q.size(); ++k)
    if (!std::isfinite(q(k)) || !std::isfinite(qd(k)))
      return "initial state not finite at " + sys.describeCoordinate(static_cast<int>(k));
  ForwardDynamics fd(sys);
  std::vector<double> y(static_cast<std::size_t>(fd.stateSize())), ydot(y.size());
  fd.initialState(q, qd, y.data());
  if (!fd.evaluate(ForwardDynamics::Request::accelerations(0.0, y.data(), ydot.data()))) {
    if (fd.error().empty()) return "the equations failed without saying why";
    return {};
  }
  for (std::size_t k = 0; k < ydot.size(); ++k)
    if (!std::isfinite(ydot[k])) return "the equations gave a non-finite derivative (state " + std::to_string(k) + ") and true";
  return {};
}

// The first line where two texts differ, both versions.
std::string firstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "no line differs";
    if (!ga || !gb || la != lb) return "line " + std::to_string(line) + " " + la.substr(0, 120) + " -> " + lb.substr(0, 120);
  }
}

}  // namespace

Targets::Targets(fs::path scratch, int evaluate_every) : scratch_(std::move(scratch)), evaluate_every_(evaluate_every) {}

// What every loader outcome must satisfy; `project` is the common oracle of the project and
// overrides targets.
static Outcome judge(const LoadedProject& loaded, const fs::path& base_dir, bool evaluate, long& evaluations) {
  Outcome out;
  if (std::string bad = checkDiagnostics(loaded.diagnostics); !bad.empty()) {
    out.finding = bad;
    return out;
  }
  if (!loaded.project) {
    if (!loaded.diagnostics.hasErrors()) out.finding = "refused without an error";
    return out;
  }
  out.accepted = true;
  const Project& p = *loaded.project;
  if (loaded.diagnostics.hasErrors()) {
    out.finding = "accepted with errors: " + loaded.diagnostics.text().substr(0, 300);
    return out;
  }
  if (std::string bad = firstNonFinite(p); !bad.empty()) {
    out.finding = "accepted with a number that is not finite: " + bad;
    return out;
  }
  // Canonical JSON: save -> load -> save gives the same bytes.
  const std::string saved = projectToText(p);
  const LoadedProject again = parseProjectText(saved, base_dir);
  if (!again.project) {
    out.finding = "the saved project is refused: " + again.diagnostics.text().substr(0, 500);
    return out;
  }
  if (const std::string resaved = projectToText(*again.project); resaved != saved) {
    out.finding = "save -> load -> save changes the project: " + firstDifference(saved, resaved);
    return out;
  }
  // The study's first cases (variants or grid points) as flexarm-cli study builds them.
  const std::vector<StudyCase> cases = studyCases(p);
  for (std::size_t k = 0; k < cases.size() && k < 3; ++k) {
    const Result<Project> c = caseProject(p, base_dir, cases[k]);
    if (!c) {
      if (c.error().message.empty()) out.finding = "study case " + cases[k].name + " refused without a message";
    } else if (std::string bad = firstNonFinite(*c); !bad.empty()) {
      out.finding = "study case " + cases[k].name + " accepted with a number that is not finite: " + bad;
    }
    if (!out.finding.empty()) return out;
  }
  if (evaluate) {
    ++evaluations;
    out.finding = evaluateOnce(p);
  }
  return out;
}

Outcome Targets::project(const std::string& text) {
  const LoadedProject loaded = parseProjectText(text, scratch_);
  const bool evaluate = evaluate_every_ > 0 && loaded.project && (accepted_projects_++ % evaluate_every_) == 0;
  return judge(loaded, scratch_, evaluate, evaluations_);
}

Outcome Targets::overrides(const std::string& project_text, const std::vector<std::string>& assignments) {
  for (const std::string& a : assignments) {  // the path checks on their own, as the editor calls them
    const std::size_t eq = a.find('=');
    const std::string path = a.substr(0, eq);
    (void)checkOverridePath(path);
    (void)valueAtPath(Json::object(), path);
  }
  const LoadedProject loaded = parseProjectText(project_text, scratch_, assignments);
  const bool evaluate = evaluate_every_ > 0 && loaded.project && (accepted_projects_++ % evaluate_every_) == 0;
  return judge(loaded, scratch_, evaluate, evaluations_);
}

std::string Targets::projectWithTableFile(const std::string& project_text, const std::string& file) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(project_text);
  doc["joints"][0]["drive"] = {{"type", "effort"}, {"law", "table"}, {"interpolation", "cubic"}, {"file", file}};
  return doc.dump(2);
}

Outcome Targets::table(const std::string& text) {
  Outcome out;
  const fs::path file = scratch_ / kFuzzTable;
  {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const Result<Table> t = readTableFile(file);
  if (!t) {
    if (t.error().message.empty()) out.finding = "a table refused without a message";
    if (t.error().text().size() > kMaxMessage)
      out.finding = "a table error of " + std::to_string(t.error().text().size()) + " characters";
    return out;
  }
  out.accepted = true;
  if (t->t.size() != t->value.size())
    return {true, "a table with " + std::to_string(t->t.size()) + " times and " + std::to_string(t->value.size()) + " values"};
  for (std::size_t i = 0; i < t->t.size(); ++i)
    if (!std::isfinite(t->t[i]) || !std::isfinite(t->value[i]))
      return {true, "a table accepted with a non-finite value, point " + std::to_string(i)};
  return out;
}

namespace {

bool sameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

std::string compareResults(const Results& a, const Results& b) {
  if (a.channels().size() != b.channels().size()) return "channel count";
  for (std::size_t c = 0; c < a.channels().size(); ++c) {
    if (a.channels()[c].name != b.channels()[c].name) return "channel name " + std::to_string(c);
    if (a.channels()[c].unit != b.channels()[c].unit) return "unit of channel " + std::to_string(c);
  }
  if (a.rows() != b.rows()) return "row count";
  for (std::size_t r = 0; r < a.rows(); ++r)
    for (std::size_t c = 0; c < a.channels().size(); ++c)
      if (!sameValue(a.value(r, c), b.value(r, c))) return "value at row " + std::to_string(r) + ", column " + std::to_string(c);
  if (a.status != b.status) return "status";
  if (!sameValue(a.end_time, b.end_time)) return "end time";
  // The writer puts each comment on its one line: control characters become spaces.
  std::string one_line = a.message;
  for (char& ch : one_line)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) ch = ' ';
  if (one_line != b.message) return "message \"" + a.message.substr(0, 120) + "\" -> \"" + b.message.substr(0, 120) + "\"";
  return {};
}

}  // namespace

Outcome Targets::csv(const std::string& text) {
  Outcome out;
  std::istringstream in(text);
  const Result<Results> r = readCsv(in);
  if (!r) {
    if (r.error().message.empty()) out.finding = "a CSV refused without a message";
    if (r.error().text().size() > kMaxMessage)
      out.finding = "a CSV error of " + std::to_string(r.error().text().size()) + " characters";
    return out;
  }
  out.accepted = true;
  for (std::size_t row = 0; row < r->rows(); ++row) {
    if (!std::isfinite(r->value(row, 0))) return {true, "row " + std::to_string(row) + " accepted without a finite time"};
    for (std::size_t c = 1; c < r->channels().size(); ++c)
      if (std::isinf(r->value(row, c))) return {true, "an infinite value accepted at row " + std::to_string(row)};
  }
  std::ostringstream written;
  writeCsv(*r, written);
  std::istringstream back(written.str());
  const Result<Results> again = readCsv(back);
  if (!again) return {true, "what readCsv accepted is written as a CSV it refuses: " + again.error().text().substr(0, 300)};
  if (std::string diff = compareResults(*r, *again); !diff.empty()) return {true, "write -> read changes the " + diff};
  return out;
}

}  // namespace fuzz

namespace fuzz {

namespace {

// The first number of an imported document that is not finite, by its JSON path.
std::string firstNonFiniteJson(const Json& j, const std::string& at) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return at.empty() ? "the document" : at;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (std::string bad = firstNonFiniteJson(it.value(), at.empty() ? it.key() : at + "." + it.key()); !bad.empty()) return bad;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (std::string bad = firstNonFiniteJson(j[i], at + "[" + std::to_string(i) + "]"); !bad.empty()) return bad;
  }
  return {};
}

// A refusal's message: there is one, and no line of it is longer than a user reads.
std::string checkMessage(const std::string& what, const std::string& text) {
  if (text.empty()) return what + " refused without a message";
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.size() > kMaxMessage) return what + " refused with a line of " + std::to_string(line.size()) + " characters";
  return {};
}

}  // namespace

Outcome Targets::urdf(const std::string& text) {
  Outcome out;
  Diagnostics diag;
  const std::optional<UrdfRobot> robot = UrdfRobot::parse(text, diag);
  if (std::string bad = checkDiagnostics(diag); !bad.empty()) return {false, bad};
  if (!robot) {
    if (!diag.hasErrors()) out.finding = "a URDF refused without an error";
    return out;
  }
  if (diag.hasErrors()) return {false, "a URDF read with errors: " + diag.text().substr(0, 300)};
  (void)robot->name();
  (void)robot->root();
  (void)robot->branchingLink();
  const std::vector<std::string> leaves = robot->leaves();
  std::vector<std::string> tips{""};
  if (!leaves.empty()) tips.push_back(leaves.front());
  if (leaves.size() > 1) tips.push_back(leaves.back());
  const bool flexible = (accepted_robots_++ % 2) == 1;
  for (std::size_t k = 0; k < tips.size(); ++k) {
    const std::string& tip = tips[k];
    const std::string which = tip.empty() ? "the chain found" : "the chain to " + inQuotes(tip);
    Diagnostics d;
    const std::optional<std::vector<UrdfChainLink>> chain = robot->chain(tip, d);
    if (std::string bad = checkDiagnostics(d); !bad.empty()) return {out.accepted, which + ": " + bad};
    if (!chain && !d.hasErrors()) return {out.accepted, which + " refused without an error"};
    UrdfImportOptions options;
    options.tip = tip;
    if (flexible && chain && !chain->empty()) {
      // The spec of the import's tests with this link's name (which may hold '=' or ',').
      Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec("link=section=tube:0.08:0.072,material=aluminium,basis=modes:1");
      if (!spec) return {out.accepted, "the fuzz program's flexible-link spec is refused: " + spec.error().text()};
      spec->link = chain->front().link;
      options.flexible.push_back(*spec);
    }
    Diagnostics di;
    const std::optional<Json> doc = robot->toProject(options, di);
    if (std::string bad = checkDiagnostics(di); !bad.empty()) return {out.accepted, which + ": " + bad};
    if (!doc) {
      if (!di.hasErrors()) return {out.accepted, which + ": the import refused without an error"};
      continue;
    }
    if (di.hasErrors()) return {out.accepted, which + ": imported with errors: " + di.text().substr(0, 300)};
    if (k == 0) out.accepted = true;
    if (std::string bad = firstNonFiniteJson(*doc, ""); !bad.empty())
      return {out.accepted, which + ": imported with a number that is not finite at " + bad};
    const LoadedProject loaded = parseProjectText(doc->dump(2), scratch_);
    if (!loaded.project)
      return {out.accepted,
              which + ": the imported project is refused by the loader: " + loaded.diagnostics.text().substr(0, 300)};
    const bool evaluate = evaluate_every_ > 0 && (accepted_projects_++ % evaluate_every_) == 0;
    Outcome judged = judge(loaded, scratch_, evaluate, evaluations_);
    if (!judged.finding.empty()) return {out.accepted, which + ": " + judged.finding};
  }
  return out;
}

std::string Targets::prepareStudy(const fs::path& project_file, const std::vector<std::string>& overrides, double t_end) {
  const std::string name = project_file.filename().string();
  auto known = std::find_if(study_dirs_.begin(), study_dirs_.end(), [&name](const auto& d) { return d.first == name; });
  const fs::path dir = known != study_dirs_.end() ? known->second : scratch_ / ("study-" + std::to_string(study_dirs_.size()));
  const Result<StudyFolder> s = studyFolderFor(project_file, overrides, t_end, dir);
  if (!s || !writeStudyFolder(*s)) return {};
  if (known == study_dirs_.end()) study_dirs_.emplace_back(name, dir);
  std::ifstream in(dir / "study.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Outcome Targets::study(const std::string& manifest) {
  Outcome out;
  if (study_dirs_.empty()) return {false, "no study folder was prepared"};
  // The folder of the project whose file name the manifest holds (its "source"), else the first.
  fs::path dir = study_dirs_.front().second;
  for (const auto& [name, folder] : study_dirs_)
    if (manifest.find(name) != std::string::npos) {
      dir = folder;
      break;
    }
  {
    std::ofstream f(dir / "study.json", std::ios::binary | std::ios::trunc);
    f.write(manifest.data(), static_cast<std::streamsize>(manifest.size()));
  }
  const Result<StudyFolder> s = openStudyFolder(dir);
  if (!s) {
    out.finding = checkMessage("a study.json", s.error().text());
    return out;
  }
  out.accepted = true;
  if (!std::isfinite(s->t_end) || s->t_end < 0.0) return {true, "a study accepted with t_end " + std::to_string(s->t_end)};
  const std::vector<StudyCase> expected = studyCases(s->base);
  bool same = expected.size() == s->cases.size();
  for (std::size_t k = 0; same && k < expected.size(); ++k)
    same = expected[k].name == s->cases[k].name && expected[k].overrides == s->cases[k].overrides;
  if (!same) return {true, "a study accepted whose cases are not the frozen project's study"};
  if (std::string bad = firstNonFinite(s->base); !bad.empty())
    return {true, "a study accepted whose base project has a number that is not finite: " + bad};
  // The first cases and the last, built as runStudyCase builds a case's project before it runs.
  std::vector<std::size_t> numbers;
  for (std::size_t k = 0; k < s->cases.size() && k < 2; ++k) numbers.push_back(k);
  if (s->cases.size() > 2) numbers.push_back(s->cases.size() - 1);
  for (std::size_t k : numbers) {
    const StudyCase& c = s->cases[k];
    std::vector<std::string> all = s->overrides;
    all.insert(all.end(), c.overrides.begin(), c.overrides.end());
    const LoadedProject p = parseProjectText(s->project_text, s->base_dir, all);
    if (std::string bad = checkDiagnostics(p.diagnostics); !bad.empty()) return {true, "case " + c.name + ": " + bad};
    if (!p.project) {
      if (!p.diagnostics.hasErrors()) return {true, "case " + c.name + " refused without an error"};
      continue;  // the case runs as "invalid", with the loader's messages
    }
    Project project = *p.project;
    if (s->t_end > 0.0) project.simulation.t_end = s->t_end;
    if (const Status length = checkRunLength(project.simulation); !length) {
      if (std::string bad = checkMessage("case " + c.name, length.error().text()); !bad.empty()) return {true, bad};
      continue;
    }
    if (std::string bad = firstNonFinite(project); !bad.empty())
      return {true, "case " + c.name + " built with a number that is not finite: " + bad};
    if (evaluate_every_ > 0 && (accepted_projects_++ % evaluate_every_) == 0) {
      ++evaluations_;
      if (std::string bad = evaluateOnce(project); !bad.empty()) return {true, "case " + c.name + ": " + bad};
    }
  }
  // No case has a result yet: every one is pending, none has a problem.
  if (pendingCases(*s).size() != s->cases.size()) return {true, "a fresh study folder has cases that are not pending"};
  return out;
}

}  // namespace fuzz
