#include "solvers/Study.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "base/Files.hpp"
#include "base/ParallelFor.hpp"
#include "io/JsonReader.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/StudySummary.hpp"
#include "model/Names.hpp"

namespace flexarm {
namespace {

// A scalar of a column, NaN when the run has no such column (an empty summary cell).
double orNone(const std::vector<double>& x, double (*scalar)(const std::vector<double>&)) {
  return x.empty() ? std::nan("") : scalar(x);
}

// Peak of sqrt(v^2 + w^2) at a flexible link's tip over the run; NaN when the link has no tip channels.
double peakTip(const Results& r, const std::string& link) {
  const std::vector<double> v = r.column(names::linkTip(link, "v")), w = r.column(names::linkTip(link, "w"));
  if (v.empty()) return std::nan("");
  double peak = 0.0;
  for (std::size_t k = 0; k < v.size(); ++k) peak = std::max(peak, std::hypot(v[k], k < w.size() ? w[k] : 0.0));
  return peak;
}

}  // namespace

std::vector<ScalarMetric> scalarMetrics(const Model& m, const Results* r) {
  std::vector<ScalarMetric> out;
  const double none = std::nan("");
  for (const Link& l : m.links)
    if (l.flex) out.push_back({"peak_tip." + l.name + " [m]", r ? peakTip(*r, l.name) : none});
  for (const Joint& j : m.joints)
    if (j.flex)
      out.push_back({"peak_torsion." + j.name + (j.type == JointType::Revolute ? " [rad]" : " [m]"),
                     r ? orNone(r->column(names::jointTorsion(j.name)), peakAbs) : none});
  for (const Joint& j : m.joints)
    out.push_back({"peak_excursion." + names::jointCoordinate(j.name) + (j.type == JointType::Revolute ? " [rad]" : " [m]"),
                   r ? orNone(r->column(names::jointCoordinate(j.name)), peakExcursion) : none});
  for (const Joint& j : m.joints) {
    const std::vector<double> q = r ? r->column(names::jointCoordinate(j.name)) : std::vector<double>{};
    out.push_back({"final." + names::jointCoordinate(j.name) + (j.type == JointType::Revolute ? " [rad]" : " [m]"),
                   q.empty() ? none : q.back()});
  }
  return out;
}

Result<StudyCase> variantCase(const Project& project, const std::string& spec) {
  StudyCase c;
  if (spec.find('=') != std::string::npos) {  // overrides joined by ';'
    std::size_t start = 0;
    while (start <= spec.size()) {
      const std::size_t end = std::min(spec.find(';', start), spec.size());
      const std::string one = spec.substr(start, end - start);
      if (!one.empty()) {
        if (one.find('=') == std::string::npos) return error("\"" + one + "\" in variant \"" + spec + "\" is not path=value");
        c.overrides.push_back(one);
      }
      start = end + 1;
    }
    c.name = spec;
    return c;
  }
  for (const Variant& v : project.variants)
    if (v.name == spec) {
      c.name = spec;
      for (const auto& [path, value] : v.sets) c.overrides.push_back(path + "=" + value);
      return c;
    }
  std::string known;
  for (const Variant& v : project.variants) known += (known.empty() ? "" : ", ") + v.name;
  return error(
      "the project has no variant named \"" + spec + "\"" +
      (known.empty() ? std::string(" (it defines none; give overrides, e.g. coupling=zero)") : " (it defines: " + known + ")"));
}

std::vector<StudyCase> studyCases(const Project& project) {
  std::vector<StudyCase> cases;
  if (!project.study) return cases;
  const Study& st = project.study.value();
  if (!st.variants.empty()) {
    for (const std::string& name : st.variants)
      for (const Variant& v : project.variants)
        if (v.name == name) {
          StudyCase c{name, {}};
          for (const auto& [path, value] : v.sets) c.overrides.push_back(path + "=" + value);
          cases.push_back(c);
        }
    return cases;
  }
  std::vector<std::size_t> index(st.grid.size(), 0);
  while (true) {
    StudyCase c;
    for (std::size_t g = 0; g < st.grid.size(); ++g) {
      const std::string& value = st.grid[g].second[index[g]];
      c.overrides.push_back(st.grid[g].first + "=" + value);
      const Json v = Json::parse(value);  // strings appear in the name without their quotes
      c.name += (c.name.empty() ? "" : ",") + st.grid[g].first + "=" + (v.is_string() ? v.get<std::string>() : value);
    }
    cases.push_back(c);
    std::size_t g = st.grid.size();
    while (g > 0) {  // odometer: the last path varies fastest
      --g;
      if (++index[g] < st.grid[g].second.size()) break;
      index[g] = 0;
      if (g == 0) return cases;
    }
    if (st.grid.empty()) return cases;
  }
}

Result<StudyOutcome> runStudy(const std::filesystem::path& project_file, const std::vector<std::string>& overrides, double t_end,
                              const std::filesystem::path& out_dir, unsigned threads, const std::atomic<bool>* cancel) {
  return runCases(project_file, overrides, nullptr, t_end, out_dir, threads, cancel);
}

StudyCaseResult runStudyCase(const std::string& project_text, const std::filesystem::path& base_dir,
                             const std::vector<std::string>& overrides, const StudyCase& c, double t_end,
                             const std::filesystem::path& out_dir, const std::atomic<bool>* cancel) {
  StudyCaseResult r;
  r.study_case = c;
  std::vector<std::string> all = overrides;
  all.insert(all.end(), c.overrides.begin(), c.overrides.end());
  const LoadedProject p = parseProjectText(project_text, base_dir, all);
  if (!p.project) {
    r.loaded = error(p.diagnostics.text());
    return r;
  }
  Project project = *p.project;
  if (t_end > 0.0) project.simulation.t_end = t_end;
  if (const Status length = checkRunLength(project.simulation); !length) {  // the loader's limits hold for t_end too
    r.loaded = length;
    return r;
  }
  RunControl control;
  control.cancel = cancel;
  r.results = simulate(project, control);
  labelCaseResults(r.results, project.name, c.name);
  r.csv = (out_dir / (caseFileName(c.name) + ".csv")).string();
  r.loaded = writeCsvFile(r.results, r.csv);
  r.write_failed = !r.loaded;
  return r;
}

Result<StudyOutcome> runCases(const std::filesystem::path& project_file, const std::vector<std::string>& overrides,
                              const std::vector<StudyCase>* given, double t_end, const std::filesystem::path& out_dir,
                              unsigned threads, const std::atomic<bool>* cancel) {
  StudyOutcome out;
  std::ifstream in(project_file, std::ios::binary);
  if (!in) return error("cannot read \"" + project_file.string() + "\"");
  std::stringstream text;
  text << in.rdbuf();
  const LoadedProject base = parseProjectText(text.str(), project_file.parent_path(), overrides);
  if (!base.project) return errorAt(project_file.string(), "has errors:\n" + base.diagnostics.text());
  const std::vector<StudyCase> cases = given ? *given : studyCases(*base.project);
  if (cases.empty() && given) return error("no variants to run");
  if (cases.empty())
    return error(project_file.string() + " defines no study (add \"study\": {\"variants\": [...]} or {\"grid\": {...}})");
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return errorAt("cannot create \"" + out_dir.string() + "\"", ec.message());
  out.cases.resize(cases.size());
  parallelFor(cases.size(), threads, [&](std::size_t k) {
    out.cases[k] = runStudyCase(text.str(), project_file.parent_path(), overrides, cases[k], t_end, out_dir, cancel);
  });

  // Summary: one row per case; columns from the base project's links and joints.
  const Model& m = base.project->model;
  std::vector<std::string> rows;
  for (const StudyCaseResult& r : out.cases) rows.push_back(studySummaryRow(m, r));
  out.summary_csv = (out_dir / "summary.csv").string();
  out.summary_written = writeStudySummary(out.summary_csv, studySummaryHeader(m), rows);  // the old summary stays if this fails
  return out;
}

Result<Project> caseProject(const Project& base, const std::filesystem::path& base_dir, const StudyCase& c) {
  Json doc = projectToJson(base);
  Diagnostics diag;
  for (const std::string& o : c.overrides) applyOverride(doc, o, diag);
  std::optional<Project> p;
  if (!diag.hasErrors()) p = projectFromJson(doc, base_dir, diag);
  refuseUnknownKeysSetBy(c.overrides, diag);
  if (!p || diag.hasErrors()) return error(diag.text());
  return std::move(*p);
}

void labelCaseResults(Results& results, const std::string& project_name, const std::string& case_name) {
  results.project_name = project_name + " [" + case_name + "]";
  results.variant = case_name;
}

std::string caseFileName(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=') ? c : '_';
  return out.empty() ? "case" : out;
}

}  // namespace flexarm
