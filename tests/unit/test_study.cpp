// Studies: the cases a study expands to, and a study run with its summary (a case whose variant
// is not a valid project is reported, not fatal).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/ProjectFile.hpp"
#include "solvers/Study.hpp"
#include "solvers/StudyFolder.hpp"
#include "solvers/StudySummary.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

namespace {
const char* kPendulum = R"({"format": "flexarm-project", "schema_version": 1, "name": "pendulum",
  "links": [{"name": "rod", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
  "joints": [{"name": "swing", "type": "revolute", "axis": [0, 1, 0], "q0": 0.3}],
  "variants": [{"name": "light", "set": {"links[0].mass": 0.5}},
               {"name": "broken", "set": {"links[0].length": -1}},
               {"name": "damped", "set": {"joints[0].damping": 2, "joints[0].q0": 0.5}}],
  "study": )";

Project parse(const std::string& study) {
  LoadedProject p = parseProjectText(std::string(kPendulum) + study + "}", ".");
  EXPECT_TRUE(p.project) << p.diagnostics.text();
  return p.project ? *p.project : Project{};
}

// The pendulum with the study of variants light, broken and damped, as a file in a fresh folder.
fs::path pendulumStudyFile(const std::string& folder) {
  const fs::path dir = fs::temp_directory_path() / folder;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "pendulum.flexarm.json";
  std::ofstream(file) << kPendulum << R"({"variants": ["light", "broken", "damped"]}})";
  return file;
}
}  // namespace

TEST(Study, GridExpandsToEveryCombinationLastPathFastest) {
  const Project p = parse(R"({"grid": {"coupling": ["zero", "high"], "joints[0].q0": [0.1, 0.2, 0.3]}})");
  const std::vector<StudyCase> cases = studyCases(p);
  ASSERT_EQ(cases.size(), 6u);
  EXPECT_EQ(cases[0].name, "coupling=zero,joints[0].q0=0.1");
  EXPECT_EQ(cases[1].name, "coupling=zero,joints[0].q0=0.2");
  EXPECT_EQ(cases[5].name, "coupling=high,joints[0].q0=0.3");
  EXPECT_EQ(cases[5].overrides, (std::vector<std::string>{"coupling=\"high\"", "joints[0].q0=0.3"}));
}

TEST(Study, VariantsInTheOrderTheStudyNamesThem) {
  const Project p = parse(R"({"variants": ["damped", "light"]})");
  const std::vector<StudyCase> cases = studyCases(p);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "damped");
  EXPECT_EQ(cases[0].overrides, (std::vector<std::string>{"joints[0].damping=2", "joints[0].q0=0.5"}));
  EXPECT_EQ(cases[1].name, "light");
}

TEST(Study, UnknownVariantOrBothFormsAreErrors) {
  LoadedProject p = parseProjectText(std::string(kPendulum) + R"({"variants": ["heavy"]}})", ".");
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("study.variants[0]: no variant is named \"heavy\""), std::string::npos)
      << p.diagnostics.text();
  p = parseProjectText(std::string(kPendulum) + R"({"variants": ["light"], "grid": {"coupling": ["zero"]}}})", ".");
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("exactly one of"), std::string::npos) << p.diagnostics.text();
}

TEST(Study, RunsEveryCaseWritesCsvsAndASummary) {
  const fs::path file = pendulumStudyFile("flexarm-study-test"), dir = file.parent_path();
  const Result<StudyOutcome> ran = runStudy(file, {}, 1.0, dir / "out", 2);
  ASSERT_TRUE(ran) << ran.error().text();
  const StudyOutcome& o = *ran;
  ASSERT_EQ(o.cases.size(), 3u);
  EXPECT_EQ(o.cases[0].results.status, RunStatus::Completed);
  EXPECT_NE(o.cases[1].loaded.error().text().find("links[0].length: must be >= 0, got -1"), std::string::npos)
      << o.cases[1].loaded.error().text();
  EXPECT_TRUE(fs::exists(dir / "out" / "light.csv"));
  EXPECT_TRUE(fs::exists(dir / "out" / "damped.csv"));
  EXPECT_FALSE(fs::exists(dir / "out" / "broken.csv"));
  // The damped variant starts at 0.5 rad and loses energy: its final angle differs from the light one's.
  EXPECT_NE(o.cases[0].results.column("q.swing").back(), o.cases[2].results.column("q.swing").back());
  EXPECT_DOUBLE_EQ(o.cases[2].results.column("q.swing").front(), 0.5);
  std::ifstream in(o.summary_csv);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string summary = ss.str();
  EXPECT_EQ(summary.rfind("case,overrides,status,end_time [s],diverged,diverged_at [s],wall_time "
                          "[s],message,peak_excursion.q.swing [rad],final.q.swing [rad]\n",
                          0),
            0u)
      << summary;
  EXPECT_NE(summary.find("\nlight,links[0].mass=0.5,completed,1,no,"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\nbroken,links[0].length=-1,invalid,"), std::string::npos) << summary;
  // The summary's metrics: the largest |q - q(0)| and the final q.
  const LoadedProject damped =
      parseProjectText(std::string(kPendulum) + R"({"variants": ["damped"]}})", ".", o.cases[2].study_case.overrides);
  ASSERT_TRUE(damped.project) << damped.diagnostics.text();
  const std::vector<ScalarMetric> metrics = scalarMetrics(damped.project->model, &o.cases[2].results);
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_EQ(metrics[0].name, "peak_excursion.q.swing [rad]");
  double excursion = 0.0;
  for (double q : o.cases[2].results.column("q.swing")) excursion = std::max(excursion, std::abs(q - 0.5));
  EXPECT_GT(excursion, 0.1);
  EXPECT_EQ(metrics[0].value, excursion);
  EXPECT_EQ(metrics[1].value, o.cases[2].results.column("q.swing").back());
  fs::remove_all(dir);
}

TEST(Study, AProjectWithoutAStudyIsAClearError) {
  const fs::path file = fs::temp_directory_path() / "flexarm-no-study.flexarm.json";
  std::ofstream(file) << R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "rod", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "swing", "type": "revolute", "axis": [0, 1, 0]}]})";
  const Result<StudyOutcome> o = runStudy(file, {}, 0.0, fs::temp_directory_path() / "flexarm-no-study");
  ASSERT_FALSE(o);
  EXPECT_NE(o.error().text().find("defines no study"), std::string::npos) << o.error().text();
  fs::remove(file);
}

TEST(StudySummary, TheStatusIsTheThirdFieldAfterQuotedOnes) {
  EXPECT_EQ(studySummaryRowStatus("light,links[0].mass=0.5,completed,1,no,,0.01,"), "completed");
  EXPECT_EQ(studySummaryRowStatus("\"a,b\",\"x=\"\"q,r\"\"; y=1\",diverged,2,yes,2,0.1,\"why, then\""), "diverged");
  EXPECT_EQ(studySummaryRowStatus("\"never closed,completed,1"), "");
  EXPECT_EQ(studySummaryRowStatus("only,two"), "");
  EXPECT_EQ(studySummaryRowStatus(""), "");
}

TEST(StudyFolder, CasesRunOneByOneFromTheFrozenCopyGiveTheLocalSummary) {
  const fs::path file = pendulumStudyFile("flexarm-study-folder-test"), dir = file.parent_path();
  const Result<StudyOutcome> local = runStudy(file, {}, 1.0, dir / "local", 2);
  ASSERT_TRUE(local) << local.error().text();

  Result<StudyFolder> prepared = studyFolderFor(file, {}, 1.0, dir / "folder");
  ASSERT_TRUE(prepared) << prepared.error().text();
  ASSERT_TRUE(writeStudyFolder(*prepared));
  // Edits of the source after the study was prepared change nothing: the cases run the frozen copy.
  std::ofstream(file) << kPendulum << R"({"variants": ["light"]}})";
  Result<StudyFolder> study = openStudyFolder(dir / "folder");
  ASSERT_TRUE(study) << study.error().text();
  ASSERT_EQ(study->cases.size(), 3u);
  EXPECT_TRUE(sameStudy(*study, *prepared));
  EXPECT_EQ(pendingCases(*study), (std::vector<std::size_t>{1, 2, 3}));

  // In any order, one at a time; until every case has run, the summary names the missing ones.
  const FolderCaseRun third = runStudyFolderCase(*study, 3);
  ASSERT_TRUE(third.recorded) << third.recorded.error().text();
  EXPECT_EQ(third.result.results.status, RunStatus::Completed);
  EXPECT_EQ(caseStatus(*study, 3), "completed");
  ASSERT_TRUE(runStudyFolderCase(*study, 2).recorded);
  EXPECT_EQ(caseStatus(*study, 2), "invalid");
  EXPECT_EQ(pendingCases(*study), (std::vector<std::size_t>{1}));
  StudyCollection collected = collectStudyFolder(*study);
  ASSERT_TRUE(collected.summary_written);
  EXPECT_EQ(collected.statuses, (std::vector<std::string>{"missing", "invalid", "completed"}));
  ASSERT_TRUE(runStudyFolderCase(*study, 1).recorded);
  collected = collectStudyFolder(*study);
  EXPECT_EQ(collected.statuses, (std::vector<std::string>{"completed", "invalid", "completed"}));

  // The rows of both summaries, the wall time of each run aside (the 7th field). A quoted field may
  // hold commas and newlines (the invalid case's message).
  auto withoutWallTime = [](const fs::path& summary) {
    std::ifstream in(summary);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> rows(1);
    int field = 0;
    bool quoted = false;
    for (char c : text.str()) {
      if (c == '"') quoted = !quoted;
      if (!quoted && c == '\n') {
        rows.emplace_back();
        field = 0;
        continue;
      }
      if (!quoted && c == ',') ++field;
      if (field != 6 || c == ',') rows.back() += c;
    }
    return rows;
  };
  const std::vector<std::string> a = withoutWallTime(local->summary_csv), b = withoutWallTime(collected.summary_csv);
  ASSERT_EQ(a.size(), 5u);  // the header, 3 rows, the empty string after the last newline
  ASSERT_EQ(a, b);
  // The invalid case's message has a newline: its result file still holds one line.
  EXPECT_NE(a[2].find('\n'), std::string::npos) << a[2];
  std::ifstream result(dir / "folder" / "results" / "2.result");
  std::stringstream content;
  content << result.rdbuf();
  const std::string line = content.str();
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  EXPECT_NE(b[3].find("damped,joints[0].damping=2; joints[0].q0=0.5,completed,1,no,,"), std::string::npos) << b[3];
  fs::remove_all(dir);
}

TEST(StudyFolder, AFolderWithoutAStudyOrWithABrokenOneIsNamed) {
  const fs::path dir = fs::temp_directory_path() / "flexarm-study-folder-broken";
  fs::remove_all(dir);
  fs::create_directories(dir);
  Result<StudyFolder> s = openStudyFolder(dir);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().text().find("is not a prepared study"), std::string::npos) << s.error().text();
  std::ofstream(dir / "study.json") << R"({"format": "flexarm-study", "source": "x", "base_dir": ".", "overrides": [],
    "t_end": 0, "cases": [{"name": "a"}]})";
  s = openStudyFolder(dir);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().text().find("study.json: "), std::string::npos) << s.error().text();
  EXPECT_NE(s.error().text().find("overrides"), std::string::npos) << s.error().text();
  fs::remove_all(dir);
}
