// flexarm-cli study PROJECT --out DIR: the project's study (variants or grid) in parallel.
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "base/NumberFormat.hpp"
#include "solvers/Study.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct StudyOptions {
  ProjectInput project;
  std::string out;
};

int study(const StudyOptions& o) {
  // Everything that can be refused is refused before the cases run: the project with --set and
  // --t-end, and the output folder.
  if (!loadProject(o.project)) return kExitBadInput;
  if (!checkOutputFolder(o.out)) return kExitBadInput;
  stopOnSignals();
  const Result<StudyOutcome> ran =
      runStudy(o.project.path, o.project.sets, o.project.t_end.value_or(0.0), o.out, 0, &cancelFlag());
  if (!ran) return fail(ran.error().text());
  const StudyOutcome& outcome = *ran;
  int exit_code = kExitOk;
  for (const StudyCaseResult& c : outcome.cases) {
    if (!c.loaded) {
      std::cout << c.study_case.name << ": invalid: " << c.loaded.error().text() << "\n";
      exit_code = kExitBadInput;
      continue;
    }
    const Results& r = c.results;
    std::cout << c.study_case.name << ": " << runStatusName(r.status) << " at t = " << formatShort(r.end_time, 6) << " s, "
              << formatShort(r.stats.wall_time, 3) << " s wall" << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    if (r.status == RunStatus::Cancelled) exit_code = kExitInterrupted;
    if (r.status == RunStatus::Failed && exit_code == kExitOk) exit_code = kExitSolverFailure;
  }
  if (!outcome.summary_written) return fail(outcome.summary_written.error().text());
  std::cout << "summary: " << fs::absolute(outcome.summary_csv).string() << "\n";
  return exit_code;
}

}  // namespace

Command studyCommand() {
  return {"study", "PROJECT --out DIR [--t-end T] [--set PATH=VALUE ...]",
          "Run the project's study (its variants, or every point of its grid) in parallel on the\n"
          "machine's cores: DIR/<case>.csv for each case and DIR/summary.csv (status, divergence\n"
          "and when, wall time, peak tip deflections, final joint values).",
          [](CLI::App& app) {
            auto o = std::make_shared<StudyOptions>();
            addProjectArguments(app, o->project, true);
            app.add_option("--out,-o", o->out, "the folder for the cases' CSVs and summary.csv")
                ->type_name("DIR")
                ->required()
                ->check(nonEmptyPath());
            return CommandAction([o] { return study(*o); });
          }};
}

}  // namespace flexarm::cli
