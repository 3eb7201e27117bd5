// flexarm-cli validate --out FILE.md: every seed paper's example, run and set against the paper.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "Drawing.hpp"
#include "validation/SeedValidation.hpp"
#include "base/Files.hpp"
#include "base/NumberFormat.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct ValidateOptions {
  std::string out;
  bool quick = false;
  std::string projects_dir = "projects";
  std::string work_dir;
  std::vector<std::string> stray;  // a PROJECT given by mistake
};

// One line per paper: how many rows agree and differ, or why it could not be run.
void printVerdicts(const PaperValidation& p) {
  int agree = 0, differ = 0;
  for (const ValidationRow& r : p.rows) {
    agree += r.verdict == Verdict::Agree;
    differ += r.verdict == Verdict::Differ;
  }
  std::cout << "seed " << p.seed << ": ";
  if (!p.error.empty())
    std::cout << "could not be run: " << p.error << "\n";
  else
    std::cout << agree << " agree, " << differ << " differ, " << formatShort(p.wall_time, 3) << " s\n";
  std::cout.flush();
}

int validate(const ValidateOptions& a) {
  if (!a.stray.empty()) return fail("validate takes no PROJECT (it runs the shipped ones: --projects DIR)");
  if (!fs::is_directory(a.projects_dir)) return fail(a.projects_dir + " is not a directory of projects (give --projects DIR)");
#ifdef FLEXARM_WITH_PLOTS
  // The report's figures are drawn by the drawing module: loaded before the runs, so that a missing one is told now.
  std::string module_error;
  Drawing* drawing = loadDrawing(module_error);
  if (!drawing) return fail(module_error);
#endif
  stopOnSignals();
  ValidationOptions o;
  o.projects_dir = a.projects_dir;
  o.work_dir = a.work_dir.empty() ? fs::temp_directory_path() / "flexarm-validation" : fs::path(a.work_dir);
  o.quick = a.quick;
  o.cancel = &cancelFlag();
  std::vector<PaperValidation> papers;
  using Fn = PaperValidation (*)(const ValidationOptions&);
  int exit_code = kExitOk;
  for (Fn f : {Fn(validateSpinUpBeam), Fn(validateCanadarmDrop), Fn(validateRigidFlexibleArm), Fn(validateInverseDynamics),
               Fn(validateSlidingBeam), Fn(validateSpatialRrr)}) {
    papers.push_back(f(o));
    printVerdicts(papers.back());
    if (!papers.back().error.empty()) exit_code = kExitSolverFailure;
    if (cancelFlag()) return kExitInterrupted;
  }
#ifdef FLEXARM_WITH_PLOTS
  // The report's figures, beside it in validation/.
  const fs::path report_dir = fs::absolute(a.out).parent_path();
  for (PaperValidation& p : papers)
    for (ValidationPlot& plot : p.plots) {
      const std::string why = drawing->validationFigure(plot, report_dir, {1000, 520, 110});
      if (!why.empty()) std::cerr << "flexarm-cli: figure " << plot.stem << " not drawn: " << why << "\n";
    }
#endif
  if (const Status written = writeFileAtomically(a.out, validationMarkdown(papers, o, commandLine())); !written)
    return fail(written.error().text());
  std::cout << "report: " << fs::absolute(a.out).string() << "\n";
  return exit_code;
}

}  // namespace

Command validateCommand() {
  return {"validate", "--out FILE.md [--quick] [--projects DIR] [--work DIR]",
          "Run every seed paper's example from the shipped projects (DIR, default ./projects) and\n"
          "write the validation report: one table per paper, the paper's value or claim next to\n"
          "FlexArm's, with the verdict computed from the runs (agree / differ and why). --quick\n"
          "shortens the studies (the test form). The runs' CSVs go below --work DIR (default: a\n"
          "folder in the system's temporary directory). docs/validation.md is made this way.",
          [](CLI::App& app) {
            auto o = std::make_shared<ValidateOptions>();
            app.add_option("--out,-o", o->out, "the report (Markdown); its figures go beside it")
                ->type_name("FILE.md")
                ->required()
                ->check(nonEmptyPath());
            app.add_flag("--quick", o->quick, "shortened studies (the test form)");
            app.add_option("--projects", o->projects_dir, "the folder of the shipped projects (default ./projects)")
                ->type_name("DIR");
            app.add_option("--work", o->work_dir, "where the runs' CSVs go (default: the system's temporary folder)")
                ->type_name("DIR");
            app.add_option("PROJECT", o->stray)->group("");  // refused with a message in validate()
            return CommandAction([o] { return validate(*o); });
          }};
}

}  // namespace flexarm::cli
