// flexarm-cli compare PROJECT (--variant SPEC ... | --zero-vs-high) --out DIR: variants side by side.
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "Drawing.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "results/Comparison.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Study.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct CompareOptions {
  ProjectInput project;
  std::string out;
  std::vector<std::string> variants;
  std::vector<std::string> channels;
  FigureSizeOption size;
};

// The comparison's CSV, and with plotting built in, the report bundle around it.
int writeComparison(const CompareOptions& o, const Project& project, const std::vector<NamedRun>& runs) {
  const fs::path file = fs::path(o.out) / "compare.csv";
#ifdef FLEXARM_WITH_PLOTS
  // The report bundle writes compare.csv with its plots; runCases has written the variants' CSVs.
  std::string why;
  Drawing* drawing = loadDrawing(why);  // loaded already, before the runs
  if (!drawing) return fail(why);
  ReportRequest bundle;
  bundle.dir = o.out;
  bundle.project = &project;
  bundle.runs = runs;
  bundle.channels = o.channels;
  bundle.size = {o.size.width, o.size.height, o.size.dpi};
  bundle.command = commandLine();
  const std::string error = drawing->reportBundle(bundle);
  if (!error.empty()) return fail("report: " + error);
  std::cout << "comparison: " << fs::absolute(file).string() << "\n";
  std::cout << "report: " << fs::absolute(fs::path(o.out) / "summary.md").string() << "\n";
#else
  Results comparison = compareRuns(runs, o.channels);
  comparison.project_name = comparisonName(project.name, runs);
  if (const Status written = writeCsvFile(comparison, file); !written) return fail(written.error().text());
  std::cout << "comparison: " << fs::absolute(file).string() << "\n";
#endif
  return kExitOk;
}

int compare(const CompareOptions& o) {
  if (o.variants.size() < 2) return fail("compare needs two or more --variant (or --zero-vs-high)");
  const std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  std::vector<StudyCase> cases;
  for (const std::string& spec : o.variants) {
    Result<StudyCase> c = variantCase(*project, spec);
    if (!c) return fail("--variant " + excerpt(spec) + ": " + c.error().text());
    cases.push_back(std::move(*c));
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (cases[i].name == cases[j].name) return fail("variant " + inQuotes(cases[i].name) + " is given twice");
#ifdef FLEXARM_WITH_PLOTS
  // The drawing module is loaded before the runs: when it is missing, the user is told now, not after them.
  if (std::string why; !loadDrawing(why)) return fail(why);
#endif
  if (!checkOutputFolder(o.out)) return kExitBadInput;
  stopOnSignals();
  const Result<StudyOutcome> ran =
      runCases(o.project.path, o.project.sets, &cases, o.project.t_end.value_or(0.0), o.out, 0, &cancelFlag());
  if (!ran) return fail(ran.error().text());
  const StudyOutcome& outcome = *ran;
  std::vector<NamedRun> runs;
  int exit_code = kExitOk;
  for (const StudyCaseResult& c : outcome.cases) {
    if (!c.loaded) {
      std::cerr << "flexarm-cli: variant " << c.study_case.name
                << (c.write_failed ? ": its results could not be written: " : " is not a valid project:\n")
                << c.loaded.error().text() << (c.write_failed ? "\n" : "");
      return kExitBadInput;
    }
    const Results& r = c.results;
    std::cout << c.study_case.name << ": " << runStatusName(r.status) << " at t = " << formatShort(r.end_time, 6) << " s"
              << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    if (r.status == RunStatus::Cancelled) exit_code = kExitInterrupted;
    runs.push_back({c.study_case.name, &r});
  }
  for (const std::string& ch : o.channels)
    for (const NamedRun& r : runs)
      if (r.results->channelIndex(ch) < 0) return fail("--channels: variant " + r.name + " has no channel \"" + ch + "\"");
  const int written = writeComparison(o, *project, runs);
  return written != kExitOk ? written : exit_code;  // a diverged variant is a result of the comparison, not a failure
}

}  // namespace

Command compareCommand() {
  return {
      "compare",
      "PROJECT (--variant SPEC ... | --zero-vs-high) --out DIR [--channels NAME,NAME...] [--t-end T] [--set PATH=VALUE ...]",
      "Run two or more variants of the project concurrently and set them side by side.\n"
      "SPEC is a variant the project defines, or overrides joined by ';' (e.g.\n"
      "'coupling=zero;joints[0].drive.omega0=8'); --zero-vs-high compares coupling=zero with\n"
      "coupling=high. Writes DIR/<variant>.csv, DIR/summary.csv, and DIR/compare.csv: each\n"
      "channel (default: all) of every variant on one time grid, then each later variant\n"
      "minus the first; a variant that stopped early (diverged) has empty cells after.\n"
      "Also a report bundle in DIR: plots/<channel>.png|svg (variants overlaid) and\n"
      "plots/<channel>-difference.png|svg for the --channels (default: tip deflections and\n"
      "joint torsions), project.flexarm.json, and summary.md (settings, outcomes, metrics).",
      [](CLI::App& app) {
        auto o = std::make_shared<CompareOptions>();
        addProjectArguments(app, o->project, true);
        app.add_option("--out,-o", o->out, "the folder for the comparison")->type_name("DIR")->required()->check(nonEmptyPath());
        app.add_option_function<std::string>(
               "--variant",
               [o](const std::string& spec) {
                 if (spec.empty()) throw CLI::ValidationError("--variant needs a variant name or path=value[;path=value...]");
                 // The spec names the variant's columns in compare.csv: a newline would break its header.
                 if (hasControlCharacter(spec) || !isValidUtf8(spec))
                   throw CLI::ValidationError("--variant must be one line of UTF-8 text, got " + inQuotes(spec));
                 o->variants.push_back(spec);
               },
               "a variant the project defines, or path=value overrides joined by ';' (repeatable)")
            ->type_name("SPEC")
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
            ->allow_extra_args(false)
            ->trigger_on_parse();
        app.add_flag_callback(
               "--zero-vs-high",
               [o] {
                 o->variants.push_back("coupling=zero");
                 o->variants.push_back("coupling=high");
               },
               "compare coupling=zero with coupling=high")
            ->trigger_on_parse();
        app.add_option("--channels", o->channels, "channels to compare and plot, separated by commas")
            ->type_name("NAME,NAME...")
            ->delimiter(',')
            ->allow_extra_args(false);
        addFigureSizeOptions(app, o->size);
        return CommandAction([o] { return compare(*o); });
      }};
}

}  // namespace flexarm::cli
