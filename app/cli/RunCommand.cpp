// flexarm-cli run PROJECT and flexarm-cli inverse PROJECT: simulate (or solve the inverse dynamics
// of) a project and write every result channel to CSV (--out - : standard output).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "VtkSeriesOutput.hpp"
#include "analysis/InverseDynamics.hpp"
#include "base/NumberFormat.hpp"
#include "results/CsvMetadata.hpp"
#include "results/CsvReader.hpp"
#include "results/RowCoordinates.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct RunOptions {
  ProjectInput project;
  std::string out;
  std::string vtk;  // run only: a folder for the ParaView series
  bool quiet = false;
  bool verify = false;             // run only: a second run at a tenth of the accuracy measures the error
  std::string start_from;          // run only: a results CSV whose state the run continues
  std::optional<double> start_at;  // its row's time (default: the last row)
};

// Makes the project continue the run in `o.start_from` from the row at `o.start_at` (or its last row).
Status continueRun(const RunOptions& o, Project& project, MultibodySystem& sys) {
  Result<Results> earlier = readCsvFile(o.start_from);
  if (!earlier) return errorAt("--start-from", earlier.error().text());
  Result<std::size_t> row = rowAtTime(*earlier, o.start_at);
  if (!row) return errorAt(o.start_at ? "--start-at" : "--start-from", o.start_from + ": " + row.error().text());
  if (Status continued = continueFromRow(project, sys, *earlier, *row); !continued)
    return errorAt("--start-from", o.start_from + ": " + continued.error().text());
  return {};
}

// "ee 3.1e-04, tip.beam 5.2e-04, joints 1.0e-04": each group's relative error (the estimate, or measured).
std::string errorList(const Results& r, bool measured) {
  std::string out;
  for (const ErrorEstimate& e : r.errors) {
    if (measured && e.measured < 0.0) continue;
    out += (out.empty() ? "" : ", ") + e.group + " " + formatShort(measured ? e.measured : e.relative, 2);
  }
  return out;
}

// What the run's error is: the estimate per output group against the accuracy asked for and, with
// --verify, the difference from a run at a tenth of the accuracy.
void reportErrors(const Results& r, std::ostream& report) {
  if (!r.method_choice.empty()) report << "method: " << r.method_choice << "\n";
  if (r.errors.empty()) {
    report << "error estimate: none (the method gives no local error estimate)\n";
    return;
  }
  report << "error estimate (a bound), as a fraction of each output's excursion: " << errorList(r, false);
  if (r.accuracy > 0.0) report << " (accuracy asked " << formatShort(r.accuracy, 3) << ", for the end effector)";
  report << "\n";
}

int exitCodeOf(const Results& results) {
  switch (results.status) {
    case RunStatus::Completed: return kExitOk;
    case RunStatus::Cancelled: return fail(results.message, kExitInterrupted);
    case RunStatus::Failed:
    case RunStatus::Diverged: return fail(results.message, kExitSolverFailure);
  }
  return kExitSolverFailure;
}

// "channel X at t = T" for the first value that is not a finite number, or empty.
std::string firstNonFinite(const Results& r) {
  for (std::size_t row = 0; row < r.rows(); ++row)
    for (std::size_t c = 0; c < r.channels().size(); ++c)
      if (!std::isfinite(r.value(row, c)))
        return "channel " + r.channels()[c].name + " at t = " + formatShort(r.value(row, 0), 6) + " s";
  return {};
}

int execute(const RunOptions& o, bool inverse) {
  std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  const bool to_stdout = o.out == "-";
  const fs::path out = o.out.empty() ? fs::path(fs::path(o.project.path).stem().string() + ".csv") : fs::path(o.out);
  if (inverse) {
    if (const Status followable = checkInverseDynamics(*project); !followable)
      return fail(o.project.path + ": " + followable.error().text());
  }
  // Before the run, not after it: the CSV and its sidecar (the CSV alone on standard output).
  if (!to_stdout && (!checkOutputFile(out.string()) || !checkOutputFile(csvMetadataFile(out).string()))) return kExitBadInput;
  if (!o.vtk.empty() && !checkVtkFolder(o.vtk, "--vtk")) return kExitBadInput;
  stopOnSignals();
  ProgressBar bar(!o.quiet && isatty(STDERR_FILENO));
  RunControl control;
  control.cancel = &cancelFlag();
  control.progress = [&](double t, double t_end) { bar.update(t, t_end); };
  control.label = project->name;
  // One discretized system for the run and its check.
  MultibodySystem sys = MultibodySystem::fromModel(project->model, project->coupling);
  if (!o.start_from.empty())
    if (const Status continued = continueRun(o, *project, sys); !continued) return fail(continued.error().text(), kExitBadInput);
  Results results = inverse ? inverseDynamics(*project, control) : simulate(sys, project->simulation, control);
  bar.done();
  if (o.verify && !inverse && results.status == RunStatus::Completed) {
    ProgressBar check_bar(!o.quiet && isatty(STDERR_FILENO));
    control.progress = [&](double t, double t_end) { check_bar.update(t, t_end); };
    const Results tighter = verifyErrors(sys, project->simulation, results, control);
    check_bar.done();
    if (tighter.status != RunStatus::Completed)
      std::cerr << "flexarm-cli: --verify: the run at a tenth of the accuracy " << runStatusName(tighter.status) << ": "
                << tighter.message << "\n";
  }

  // With the CSV on standard output, the report goes to standard error.
  std::ostream& report = to_stdout ? std::cerr : std::cout;
  if (to_stdout) {
    writeCsv(results, std::cout);
    std::cout.flush();
    if (!std::cout) return fail("cannot write the results to standard output");
  } else if (const Status written = writeCsvFile(results, out); !written) {
    return fail(written.error().text());
  }
  const SolverStats& st = results.stats;
  report << (inverse ? "inverse dynamics " : "run ") << runStatusName(results.status)
         << ": t = " << formatShort(results.end_time, 6) << " s, " << st.steps << " steps, " << st.rhs_evaluations
         << " RHS evaluations, " << st.jacobian_evaluations << " Jacobian evaluations, " << st.nonlinear_iterations
         << " Newton iterations, " << st.error_test_failures << " error-test failures, " << st.nonlinear_convergence_failures
         << " convergence failures, " << formatShort(st.wall_time, 3) << " s wall time";
  const double simulated = results.end_time - project->simulation.t_start;
  if (st.wall_time > 0.0 && simulated > 0.0) report << " (" << formatShort(simulated / st.wall_time, 3) << " x real time)";
  report << "\n";
  if (!inverse) {
    reportErrors(results, report);
    if (o.verify && !errorList(results, true).empty())
      report << "verify: measured against a run at accuracy " << formatShort(0.1 * results.accuracy, 3) << ": "
             << errorList(results, true) << "\n";
  }
  report << "results: " << results.rows() << " rows x " << results.channels().size() << " channels written to "
         << (to_stdout ? std::string("standard output") : fs::absolute(out).string());
  if (!to_stdout) report << ", the run's description and units to " << fs::absolute(csvMetadataFile(out)).string();
  report << "\n";
  if (const std::string bad = firstNonFinite(results); !bad.empty() && results.status == RunStatus::Completed)
    return fail("the results are not finite: " + bad, kExitSolverFailure);  // never a NaN with exit 0
  // The series of what was computed, also of a run that diverged or was stopped (its rows so far).
  if (!o.vtk.empty() && results.rows() > 0)
    if (const int written = writeVtkSeries(*project, project->coupling, results, o.vtk, "--vtk", report); written != kExitOk)
      return written;
  return exitCodeOf(results);
}

Command runLike(const std::string& name, const std::string& summary, bool inverse) {
  const std::string synopsis = inverse ? "PROJECT [--out FILE.csv|-] [--t-end T] [--accuracy A] [--set PATH=VALUE ...] [--quiet]"
                                       : "PROJECT [--out FILE.csv|-] [--vtk DIR] [--t-end T] [--accuracy A] [--verify] "
                                         "[--start-from RESULT.csv [--start-at T]]\n"
                                         "        [--set PATH=VALUE ...] [--quiet]";
  return {name, synopsis, summary, [inverse](CLI::App& app) {
            auto o = std::make_shared<RunOptions>();
            addProjectArguments(app, o->project, true);
            app.add_option("--out,-o", o->out,
                           "where to write the CSV results (the header row first) and, beside them,\n"
                           "the run's description and units (FILE.meta.json for FILE.csv);\n"
                           "- writes the CSV alone to standard output (the report to standard error)\n"
                           "(default: PROJECT's name with .csv, in the current directory)")
                ->type_name("FILE")
                ->check(nonEmptyPath());
            app.add_flag("--quiet,-q", o->quiet, "no progress bar");
            if (!inverse)
              app.add_flag("--verify", o->verify,
                           "check the error estimate: run again at a tenth of the accuracy and print the\n"
                           "measured difference of each output next to its estimate (also in the .meta.json)");
            if (!inverse) {
              CLI::Option* from =
                  app.add_option("--start-from", o->start_from,
                                 "continue the run that wrote RESULT.csv: its state at its last row (or at --start-at)\n"
                                 "becomes the initial state, and the run starts at that row's time (the laws read\n"
                                 "the absolute time); RESULT.csv must be a run of the same model")
                      ->type_name("RESULT.csv")
                      ->check(nonEmptyPath());
              app.add_option_function<std::string>(
                     "--start-at",
                     [o](const std::string& text) {
                       const std::optional<double> x = parseNumber(text);
                       if (!x || !(*x >= 0.0))
                         throw CLI::ValidationError("--start-at must be a time in seconds, at least 0, got \"" + text + "\"");
                       o->start_at = *x;
                     },
                     "with --start-from: the time of the row to continue from (default: the last row)")
                  ->type_name("T")
                  ->needs(from);
            }
            if (!inverse)
              app.add_option("--vtk", o->vtk,
                             "also write the run as a ParaView series into DIR (created when missing):\n"
                             "one arm_NNNN.vtp per output time and arm.pvd (see export-vtk)")
                  ->type_name("DIR")
                  ->check(nonEmptyPath());
            return CommandAction([o, inverse] { return execute(*o, inverse); });
          }};
}

}  // namespace

Command runCommand() {
  return runLike("run",
                 "Simulate the project and write every result channel to a CSV file\n"
                 "(default: PROJECT's name with .csv, in the current directory).",
                 false);
}

Command inverseCommand() {
  return runLike("inverse",
                 "Inverse dynamics: along the project's end-effector path (\"inverse_dynamics\": rigid\n"
                 "inverse kinematics and dynamics, the flexible arm driven forward by the rigid efforts,\n"
                 "the flexible inverse dynamics along the rigid trajectories), or along the joints'\n"
                 "prescribed trajectories. Writes joint values, efforts, deviations and tip deflections.",
                 true);
}

}  // namespace flexarm::cli
