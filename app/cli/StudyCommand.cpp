// flexarm-cli study PROJECT --out DIR: the project's study (variants or grid) in parallel, on this
// machine's cores or (--slurm) as a Slurm job array; study DIR --case K runs one case of a prepared
// study, --resume only the cases without a result, study --status DIR counts them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "SlurmStudy.hpp"
#include "StudyStatus.hpp"
#include "base/NumberFormat.hpp"
#include "base/ParallelFor.hpp"
#include "solvers/StudyFolder.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct StudyOptions {
  ProjectInput project;
  std::string out;
  std::optional<long> case_number;
  bool resume = false;
  std::string status_dir;
  bool slurm = false;
  SlurmOptions slurm_options;
  bool no_submit = false;
};

// The line a case's run prints.
std::string caseLine(const StudyCaseResult& c) {
  if (!c.loaded)
    return c.study_case.name + (c.write_failed ? ": its results could not be written: " : ": invalid: ") +
           c.loaded.error().text() + "\n";
  const Results& r = c.results;
  return c.study_case.name + ": " + runStatusName(r.status) + " at t = " + formatShort(r.end_time, 6) + " s, " +
         formatShort(r.stats.wall_time, 3) + " s wall" + (r.message.empty() ? "" : " (" + r.message + ")") + "\n";
}

// The prepared study the command works on: DIR given as PROJECT, or the project's study for --out
// (a new one, or with --resume the one already in --out when it is the same study).
std::optional<StudyFolder> studyToRun(const StudyOptions& o) {
  if (isStudyFolder(o.project.path)) {
    Result<StudyFolder> s = openStudyFolder(o.project.path);
    if (!s) {
      fail(s.error().text());
      return std::nullopt;
    }
    return std::move(*s);
  }
  // Everything that can be refused is refused before the cases run: the project with --set and
  // --t-end, and the output folder.
  if (!loadProject(o.project)) return std::nullopt;
  Result<StudyFolder> s = studyFolderFor(o.project.path, o.project.sets, o.project.t_end.value_or(0.0), o.out);
  if (!s) {
    fail(s.error().text());
    return std::nullopt;
  }
  if (o.resume && isStudyFolder(o.out)) {
    Result<StudyFolder> old = openStudyFolder(o.out);
    if (!old) {
      fail("--resume: " + old.error().text());
      return std::nullopt;
    }
    if (!sameStudy(*old, *s)) {
      fail("--resume: " + o.out +
           " holds a study of another project, other --set/--t-end values or other cases; run without --resume "
           "to start afresh there, or resume it with `flexarm-cli study " +
           o.out + " --resume`");
      return std::nullopt;
    }
    return std::move(*old);
  }
  if (!checkOutputFolder(o.out)) return std::nullopt;
  if (Status written = writeStudyFolder(*s); !written) {
    fail("--out: " + written.error().text());
    return std::nullopt;
  }
  if (Status cleared = clearCaseResults(*s); !cleared) {
    fail("--out: " + cleared.error().text());
    return std::nullopt;
  }
  forgetSubmissions(*s);
  return std::move(*s);
}

int runLocally(const StudyFolder& study, bool resume) {
  const std::vector<std::size_t> pending = pendingCases(study);
  if (resume) {
    std::cout << pending.size() << " of " << study.cases.size() << " cases without a result"
              << (pending.empty() ? "" : "; running them") << "\n";
    for (std::size_t k : pending)  // a result that was there but cannot be trusted: why the case runs again
      if (const std::string problem = caseResultProblem(study, k); !problem.empty())
        std::cout << "case " << k << " is not done: " << problem << "\n";
  }
  stopOnSignals();
  // Each case's results go to its files as it ends and are dropped here: only its line and whether its
  // result was recorded are kept, so a study of any size holds at most one run per worker in memory.
  struct Ended {
    std::string line;
    Status recorded;
  };
  std::vector<Ended> ended(pending.size());
  parallelFor(pending.size(), 0, [&](std::size_t j) {
    const FolderCaseRun run = runStudyFolderCase(study, pending[j], &cancelFlag());
    ended[j] = {caseLine(run.result), run.recorded};
  });
  for (const Ended& e : ended) {
    std::cout << e.line;
    if (!e.recorded) return fail(e.recorded.error().text());
  }
  const StudyCollection collected = collectStudyFolder(study);
  if (!collected.summary_written) return fail(collected.summary_written.error().text());
  std::cout << "summary: " << fs::absolute(collected.summary_csv).string() << "\n";
  return studyExitCode(collected.statuses);
}

int runOneCase(const StudyFolder& study, long number) {
  if (number < 1 || static_cast<std::size_t>(number) > study.cases.size())
    return fail("--case " + std::to_string(number) + ": the study has cases 1 to " + std::to_string(study.cases.size()));
  stopOnSignals();
  const FolderCaseRun run = runStudyFolderCase(study, static_cast<std::size_t>(number), &cancelFlag());
  std::cout << "case " << number << " of " << study.cases.size() << ", " << caseLine(run.result);
  if (!run.recorded) return fail(run.recorded.error().text());
  return studyExitCode({caseStatus(study, static_cast<std::size_t>(number))});
}

int submit(const StudyFolder& study, const StudyOptions& o) {
  std::vector<std::size_t> cases = pendingCases(study);
  if (o.resume) {  // not the cases a recorded job still has queued or running
    const SlurmCaseStates states = slurmCaseStates(study);
    for (const std::string& note : states.notes)  // sacct tells only why a task ended: not needed here
      if (note.rfind("squeue", 0) == 0) std::cerr << "flexarm-cli: " << note << "\n";
    const std::size_t before = cases.size();
    cases.erase(std::remove_if(cases.begin(), cases.end(), [&](std::size_t k) { return states.queue.count(k) > 0; }),
                cases.end());
    std::cout << before << " of " << study.cases.size() << " cases without a result";
    if (before != cases.size()) std::cout << ", " << before - cases.size() << " of them still queued or running";
    std::cout << "\n";
    if (cases.empty()) {
      std::cout << "nothing to submit\n";
      return kExitOk;
    }
  }
  SlurmOptions options = o.slurm_options;
  options.submit = !o.no_submit;
  return submitStudyCases(study, cases, options);
}

// Refuses combinations that say two things at once, naming the options.
bool checkCombination(const StudyOptions& o, const CLI::App& app) {
  auto given = [&app](const char* name) { return app.count(name) > 0; };
  if (!o.status_dir.empty()) {
    if (!o.project.path.empty()) {
      fail("--status DIR takes no PROJECT");
      return false;
    }
    for (const char* other : {"--out", "--case", "--resume", "--slurm", "--set", "--t-end"})
      if (given(other)) {
        fail(std::string("--status cannot be combined with ") + other);
        return false;
      }
    return true;
  }
  if (o.project.path.empty()) {
    fail("PROJECT is required (or --status DIR)");
    return false;
  }
  if (!o.slurm)
    for (const char* slurm_only : {"--array-max", "--partition", "--time", "--cpus-per-task", "--sbatch-arg", "--no-submit"})
      if (given(slurm_only)) {
        fail(std::string(slurm_only) + " needs --slurm");
        return false;
      }
  if (isStudyFolder(o.project.path)) {
    for (const char* frozen : {"--out", "--set", "--t-end"})
      if (given(frozen)) {
        fail(std::string(frozen) + ": " + o.project.path +
             " is a prepared study; its project, overrides and end time are frozen (give them when preparing it)");
        return false;
      }
    if (o.case_number && (o.resume || o.slurm)) {
      fail("--case runs one case here; it cannot be combined with --resume or --slurm");
      return false;
    }
    if (!o.case_number && !o.resume) {
      fail(o.project.path +
           " is a prepared study: give --case K to run one case, --resume [--slurm] to run the cases "
           "without a result, or see flexarm-cli study --status / study-collect");
      return false;
    }
    return true;
  }
  if (fs::is_directory(o.project.path)) {
    fail(o.project.path + " is a folder without a prepared study (no study.json)");
    return false;
  }
  if (o.case_number) {
    fail("--case K runs a case of a prepared study: flexarm-cli study DIR --case K");
    return false;
  }
  if (o.out.empty()) {
    fail("--out DIR is required");
    return false;
  }
  return true;
}

int study(const StudyOptions& o, const CLI::App& app) {
  if (!checkCombination(o, app)) return kExitBadInput;
  if (!o.status_dir.empty()) return printStudyStatus(o.status_dir);
  const std::optional<StudyFolder> s = studyToRun(o);
  if (!s) return kExitBadInput;
  if (o.case_number) return runOneCase(*s, *o.case_number);
  if (o.slurm) return submit(*s, o);
  return runLocally(*s, o.resume);
}

}  // namespace

Command studyCommand() {
  return {
      "study",
      "PROJECT --out DIR [--t-end T] [--set PATH=VALUE ...] [--resume] [--slurm [--array-max N] [--partition P]\n"
      "      [--time HH:MM:SS] [--cpus-per-task C] [--sbatch-arg ARG ...] [--no-submit]] | DIR --case K |\n"
      "      DIR --resume [--slurm ...] | --status DIR",
      "Run the project's study (its variants, or every point of its grid) in parallel on the\n"
      "machine's cores: DIR/<case>.csv (and its description, <case>.meta.json) for each case\n"
      "and DIR/summary.csv (status, divergence and when, wall time, peak tip deflections,\n"
      "final joint values). With --slurm, write a Slurm job array for the cases into DIR and\n"
      "submit it (flexarm-cli study-collect DIR writes summary.csv); --resume runs or submits\n"
      "only the cases without a result.",
      [](CLI::App& app) {
        auto o = std::make_shared<StudyOptions>();
        app.add_option("PROJECT", o->project.path,
                       "the project file (.flexarm.json), or the folder of a prepared study (with --case or --resume)");
        addSetOption(app, o->project.sets);
        addEndTimeOption(app, o->project.t_end);
        addAccuracyOption(app, o->project.sets);
        app.add_option("--out,-o", o->out, "the folder for the cases' CSVs and summary.csv")
            ->type_name("DIR")
            ->check(nonEmptyPath());
        app.add_option("--case", o->case_number, "run case K (1 ... N) of the prepared study DIR: its CSV and results/K.result")
            ->type_name("K")
            ->check(integerBetween(1, 100000000));
        app.add_flag("--resume", o->resume, "run (with --slurm: submit) only the cases without a result");
        app.add_option("--status", o->status_dir, "count the done, failed, diverged and pending cases of the study in DIR")
            ->type_name("DIR")
            ->check(nonEmptyPath());
        app.add_flag("--slurm", o->slurm, "write a Slurm job array for the cases into DIR and submit it with sbatch");
        app.add_option("--array-max", o->slurm_options.array_max,
                       "at most N array tasks (default: the cluster's MaxArraySize - 1); more cases run in chunks")
            ->type_name("N")
            ->check(integerBetween(1, 10000000));
        app.add_option("--partition", o->slurm_options.partition, "the Slurm partition (default: the cluster's)")
            ->type_name("P")
            ->check(nonEmptyPath());
        app.add_option_function<std::string>(
               "--time",
               [o](const std::string& text) {
                 static const std::regex slurm_time(R"(^(\d+-)?\d+(:\d+){0,2}$)");
                 if (!std::regex_match(text, slurm_time))
                   throw CLI::ValidationError("--time must be a Slurm time limit (HH:MM:SS, MM or D-HH:MM:SS), got \"" + text +
                                              "\"");
                 o->slurm_options.time = text;
               },
               "the time limit of each array task (HH:MM:SS)")
            ->type_name("HH:MM:SS");
        app.add_option("--cpus-per-task", o->slurm_options.cpus_per_task, "CPUs per array task (default 1: a case runs on one)")
            ->type_name("C")
            ->check(integerBetween(1, 100000));
        app.add_option("--sbatch-arg", o->slurm_options.sbatch_args,
                       "one more #SBATCH line for the job script, e.g. --sbatch-arg=--mem=2G (repeatable)")
            ->type_name("ARG")
            ->allow_extra_args(false);
        app.add_flag("--no-submit", o->no_submit, "write the job script without submitting it");
        return CommandAction([o, &app] { return study(*o, app); });
      }};
}

}  // namespace flexarm::cli
