#pragma once
// Studies: the project's variants (or every combination of a grid of values) run in parallel,
// one CSV of results per case and a summary CSV of scalar metrics.
#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "results/Results.hpp"
#include "base/Result.hpp"

namespace flexarm {

// A scalar summary of a run, named as in summary.csv ("peak_tip.<link> [m]", "peak_torsion.<joint> [rad]",
// "peak_excursion.q.<joint> [rad]" = max |q - q(0)|, "final.q.<joint> [rad]"). NaN when the run has no data.
struct ScalarMetric {
  std::string name;
  double value;
};

// The metrics of a run of model m, in summary column order; r = nullptr gives the names only.
std::vector<ScalarMetric> scalarMetrics(const Model& m, const Results* r);

struct StudyCase {
  std::string name;                    // the variant's name, or "path=value,path=value" for a grid point
  std::vector<std::string> overrides;  // "path=value", applied to the project file's JSON
};

// The cases of project.study in order (grid: the last path varies fastest). Empty without a study.
std::vector<StudyCase> studyCases(const Project& project);

struct StudyCaseResult {
  StudyCase study_case;
  Status loaded;              // or why the variant does not make a valid project (then no run) or its CSV was not written
  bool write_failed = false;  // `loaded` failed because the CSV could not be written (a full disk), not the project
  Results results;
  std::string csv;  // file written
};

struct StudyOutcome {
  std::vector<StudyCaseResult> cases;
  std::string summary_csv;
  Status summary_written;  // or why summary.csv could not be written (the cases' CSVs are there)
};

// Runs the study of the project file on `threads` worker threads (0: the machine's cores), after
// applying `overrides` (and `t_end` when > 0) to every case. Writes DIR/<case>.csv (with its sidecar
// DIR/<case>.meta.json) and DIR/summary.csv.
// An error when the study cannot start (no study, unreadable file, ...).
Result<StudyOutcome> runStudy(const std::filesystem::path& project_file, const std::vector<std::string>& overrides, double t_end,
                              const std::filesystem::path& out_dir, unsigned threads = 0,
                              const std::atomic<bool>* cancel = nullptr);

// Runs one case: the project text with `overrides` and then the case's own applied (relative file
// names resolved against base_dir), t_end when > 0, the results labelled and written to
// out_dir/<caseFileName(name)>.csv. `loaded` says why there is no run or no CSV.
StudyCaseResult runStudyCase(const std::string& project_text, const std::filesystem::path& base_dir,
                             const std::vector<std::string>& overrides, const StudyCase& c, double t_end,
                             const std::filesystem::path& out_dir, const std::atomic<bool>* cancel = nullptr);

// Runs the given cases (not the project's study) in the same way: compare mode's variants.
Result<StudyOutcome> runCases(const std::filesystem::path& project_file, const std::vector<std::string>& overrides,
                              const std::vector<StudyCase>* cases, double t_end, const std::filesystem::path& out_dir,
                              unsigned threads = 0, const std::atomic<bool>* cancel = nullptr);

// Labels the results of a case's run as studies and comparisons write them: project "<name> [<case>]",
// variant "<case>".
void labelCaseResults(Results& results, const std::string& project_name, const std::string& case_name);

// The file name (without extension) of a case's results: its name with characters other than
// letters, digits, '-', '.', '=' replaced by '_'.
std::string caseFileName(const std::string& name);

// The project of one case built from a project in memory (the workbench's, possibly unsaved): the
// case's overrides applied to its canonical JSON. The loader's messages when invalid.
Result<Project> caseProject(const Project& base, const std::filesystem::path& base_dir, const StudyCase& c);

// A variant named on a command line: a variant of the project ("zero-order"), or overrides joined
// by ';' ("coupling=zero;joints[0].drive.omega0=8", named by them), or why it is not one.
Result<StudyCase> variantCase(const Project& project, const std::string& spec);

}  // namespace flexarm
