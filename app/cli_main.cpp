// flexarm-cli: the FlexArm engine without a window.
//   flexarm-cli check PROJECT [--set path=value ...]
//   flexarm-cli run PROJECT [--out FILE.csv] [--t-end T] [--set path=value ...] [--quiet]
//   flexarm-cli inverse PROJECT [--out FILE.csv] [--t-end T] [--set path=value ...] [--quiet]
//   flexarm-cli study PROJECT --out DIR [--t-end T] [--set path=value ...]
//   flexarm-cli compare PROJECT (--variant SPEC ... | --zero-vs-high) --out DIR [--channels A,B] [--t-end T]
//   flexarm-cli plot RESULTS.csv --channels A,B --out FILE.png|pdf|svg [--size WxH] [--dpi N] [--title T]
//   flexarm-cli validate --out FILE.md [--quick] [--projects DIR] [--work DIR]
//   flexarm-cli new TEMPLATE|EXAMPLE --out FILE.flexarm.json [--name NAME] [--set path=value ...]
// Exit codes: 0 success, 2 bad input, 3 solver failure or divergence (results so far are written),
// 130 interrupted (results so far are written).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "Version.hpp"
#include "analysis/InverseDynamics.hpp"
#include "analysis/Linearization.hpp"
#include "analysis/Validation.hpp"
#include "io/Overrides.hpp"
#include "io/ProjectTemplates.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectFile.hpp"
#include "results/Comparison.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"
#include "results/CsvReader.hpp"
#ifdef FLEXARM_WITH_PLOTS
#include "ui/PlotExport.hpp"
#include "ui/ReportBundle.hpp"
#include "ui/ValidationPlots.hpp"
#endif

namespace fs = std::filesystem;
using namespace flexarm;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitSolverFailure = 3;
constexpr int kExitInterrupted = 130;

std::atomic<bool> g_cancel{false};
void onSignal(int) { g_cancel.store(true); }

const char* kUsage =
    "FlexArm command line: dynamics of flexible robot manipulators\n"
    "\n"
    "usage:\n"
    "  flexarm-cli check PROJECT [--set PATH=VALUE ...]\n"
    "      Validate a project file and print a summary (bodies, degrees of freedom, drives).\n"
    "  flexarm-cli run PROJECT [--out FILE.csv] [--t-end T] [--set PATH=VALUE ...] [--quiet]\n"
    "      Simulate the project and write every result channel to a CSV file\n"
    "      (default: PROJECT's name with .csv, in the current directory).\n"
    "  flexarm-cli modes PROJECT [--lock-joints] [--spin OMEGA] [--count N] [--set PATH=VALUE ...]\n"
    "      Natural frequencies and mode shapes of the arm linearized about its initial\n"
    "      configuration (elastic coordinates at their static equilibrium), with every joint\n"
    "      held (--lock-joints), or about a steady spin of joint 1 at OMEGA rad/s (--spin).\n"
    "  flexarm-cli inverse PROJECT [--out FILE.csv] [--t-end T] [--set PATH=VALUE ...] [--quiet]\n"
    "      Inverse dynamics: along the project's end-effector path (\"inverse_dynamics\": rigid\n"
    "      inverse kinematics and dynamics, the flexible arm driven forward by the rigid efforts,\n"
    "      the flexible inverse dynamics along the rigid trajectories), or along the joints'\n"
    "      prescribed trajectories. Writes joint values, efforts, deviations and tip deflections.\n"
    "  flexarm-cli study PROJECT --out DIR [--t-end T] [--set PATH=VALUE ...]\n"
    "      Run the project's study (its variants, or every point of its grid) in parallel on the\n"
    "      machine's cores: DIR/<case>.csv for each case and DIR/summary.csv (status, divergence\n"
    "      and when, wall time, peak tip deflections, final joint values).\n"
    "  flexarm-cli compare PROJECT (--variant SPEC ... | --zero-vs-high) --out DIR\n"
    "                    [--channels NAME,NAME...] [--t-end T] [--set PATH=VALUE ...]\n"
    "      Run two or more variants of the project concurrently and set them side by side.\n"
    "      SPEC is a variant the project defines, or overrides joined by ';' (e.g.\n"
    "      'coupling=zero;joints[0].drive.omega0=8'); --zero-vs-high compares coupling=zero with\n"
    "      coupling=high. Writes DIR/<variant>.csv, DIR/summary.csv, and DIR/compare.csv: each\n"
    "      channel (default: all) of every variant on one time grid, then each later variant\n"
    "      minus the first; a variant that stopped early (diverged) has empty cells after.\n"
    "      Also a report bundle in DIR: plots/<channel>.png|svg (variants overlaid) and\n"
    "      plots/<channel>-difference.png|svg for the --channels (default: tip deflections and\n"
    "      joint torsions), project.flexarm.json, and summary.md (settings, outcomes, metrics).\n"
    "  flexarm-cli plot RESULTS.csv --channels NAME,NAME... --out FILE.png|pdf|svg\n"
    "                   [--size WIDTHxHEIGHT] [--dpi N] [--title TEXT]\n"
    "      Plot channels of a results CSV (from run, study or compare) against time, without a\n"
    "      display. In a compare.csv, NAME selects that channel of every variant and\n"
    "      'NAME[B - A]' a difference. --size in pixels (default 1200x700; PDF and SVG: points),\n"
    "      --dpi is written into PNG files (default 150).\n"
    "  flexarm-cli validate --out FILE.md [--quick] [--projects DIR] [--work DIR]\n"
    "      Run every seed paper's example from the shipped projects (DIR, default ./projects) and\n"
    "      write the validation report: one table per paper, the paper's value or claim next to\n"
    "      FlexArm's, with the verdict computed from the runs (agree / differ and why). --quick\n"
    "      shortens the studies (the test form). The runs' CSVs go below --work DIR (default: a\n"
    "      folder in the system's temporary directory). docs/validation.md is made this way.\n"
    "  flexarm-cli new TEMPLATE|EXAMPLE.flexarm.json --out FILE.flexarm.json [--name NAME]\n"
    "                  [--set PATH=VALUE ...]\n"
    "      Start a project from a template (single-flexible-link, planar-two-link) or a copy of\n"
    "      an example project, with the --set values applied and checked; the workbench's\n"
    "      File > New offers the same. Without TEMPLATE: the templates and their parameters.\n"
    "  flexarm-cli --help | --version\n"
    "\n"
    "options:\n"
    "  --out FILE       where to write the CSV results\n"
    "  --t-end T        end time of the simulation in seconds (overrides simulation.t_end)\n"
    "  --set PATH=VALUE override any field of the project by its JSON path before it is read,\n"
    "                   e.g. --set joints[0].drive.omega0=8 --set links[1].mass=2.5\n"
    "                   --set gravity=[0,0,0]; VALUE is JSON, or a plain word for a string\n"
    "  --quiet          no progress bar\n"
    "\n"
    "exit codes: 0 success, 2 bad input, 3 solver failure or divergence (results computed so far\n"
    "are still written), 130 interrupted by Ctrl-C (results so far written)\n";

struct Args {
  std::string command;
  std::string project;
  std::string out;
  std::vector<std::string> sets;
  bool has_t_end = false;
  double t_end = 0.0;
  bool quiet = false;
  bool lock_joints = false;
  std::optional<double> spin;
  int count = 10;
  bool quick = false;
  std::vector<std::string> variants;
  std::vector<std::string> channels;
  std::string projects_dir = "projects";
  int width = 1200, height = 700;
  double dpi = 150;
  std::string title;
  std::string work_dir;
  std::string name;
};

int badUsage(const std::string& why) {
  std::cerr << "flexarm-cli: " << why << "\n(run 'flexarm-cli --help' for usage)\n";
  return kExitBadInput;
}

// Returns -1 when parsing succeeded, else the exit code.
int parseArgs(int argc, char** argv, Args& a) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitBadInput;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& s = args[i];
    auto value = [&](std::string& out) -> bool {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    if (s == "--help" || s == "-h" || s == "help") {
      std::cout << kUsage;
      return kExitOk;
    } else if (s == "--version") {
      std::cout << "flexarm-cli " << kVersion << "\n";
      return kExitOk;
    } else if (s == "--out" || s == "-o") {
      if (!value(a.out)) return badUsage(s + " needs a file name");
    } else if (s == "--set") {
      std::string v;
      if (!value(v)) return badUsage("--set needs PATH=VALUE");
      a.sets.push_back(v);
    } else if (s.rfind("--set=", 0) == 0) {
      a.sets.push_back(s.substr(6));
    } else if (s == "--t-end") {
      std::string v;
      if (!value(v)) return badUsage("--t-end needs a time in seconds");
      char* end = nullptr;
      a.t_end = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(a.t_end > 0.0) || !std::isfinite(a.t_end))
        return badUsage("--t-end must be a positive number of seconds, got \"" + v + "\"");
      a.has_t_end = true;
    } else if (s == "--variant") {
      std::string v;
      if (!value(v) || v.empty()) return badUsage("--variant needs a variant name or path=value[;path=value...]");
      a.variants.push_back(v);
    } else if (s == "--zero-vs-high") {
      a.variants.push_back("coupling=zero");
      a.variants.push_back("coupling=high");
    } else if (s == "--channels") {
      std::string v;
      if (!value(v)) return badUsage("--channels needs channel names separated by commas");
      std::size_t start = 0;
      while (start <= v.size()) {
        const std::size_t end = std::min(v.find(',', start), v.size());
        if (end > start) a.channels.push_back(v.substr(start, end - start));
        start = end + 1;
      }
    } else if (s == "--size") {
      std::string v;
      if (!value(v)) return badUsage("--size needs WIDTHxHEIGHT in pixels, e.g. 1200x700");
      int w = 0, h = 0;
      char extra = 0;
      if (std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w < 16 || h < 16 || w > 20000 || h > 20000)
        return badUsage("--size must be WIDTHxHEIGHT in pixels between 16 and 20000, got \"" + v + "\"");
      a.width = w;
      a.height = h;
    } else if (s == "--dpi") {
      std::string v;
      if (!value(v)) return badUsage("--dpi needs a number");
      char* end = nullptr;
      a.dpi = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(a.dpi >= 10 && a.dpi <= 2400))
        return badUsage("--dpi must be a number between 10 and 2400, got \"" + v + "\"");
    } else if (s == "--title") {
      if (!value(a.title)) return badUsage("--title needs a text");
    } else if (s == "--name") {
      if (!value(a.name) || a.name.empty()) return badUsage("--name needs a project name");
    } else if (s == "--quick") {
      a.quick = true;
    } else if (s == "--projects" || s == "--work") {
      if (!value(s == "--projects" ? a.projects_dir : a.work_dir)) return badUsage(s + " needs a directory");
    } else if (s == "--lock-joints") {
      a.lock_joints = true;
    } else if (s == "--spin" || s == "--count") {
      std::string v;
      if (!value(v)) return badUsage(s + " needs a number");
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !std::isfinite(x)) return badUsage(s + " needs a number, got \"" + v + "\"");
      if (s == "--spin") {
        a.spin = x;
      } else {
        if (x < 1) return badUsage("--count must be >= 1");
        a.count = static_cast<int>(x);
      }
    } else if (s == "--quiet" || s == "-q") {
      a.quiet = true;
    } else if (!s.empty() && s[0] == '-') {
      return badUsage("unknown option " + s);
    } else if (a.command.empty()) {
      a.command = s;
    } else if (a.project.empty()) {
      a.project = s;
    } else {
      return badUsage("unexpected argument \"" + s + "\"");
    }
  }
  if (a.command != "check" && a.command != "run" && a.command != "modes" && a.command != "inverse" && a.command != "study" &&
      a.command != "validate" && a.command != "compare" && a.command != "plot" && a.command != "new")
    return badUsage("unknown command \"" + a.command + "\"");
  if (a.command == "validate") {
    if (!a.project.empty()) return badUsage("validate takes no PROJECT (it runs the shipped ones: --projects DIR)");
    if (a.out.empty()) return badUsage("validate needs --out FILE.md");
    return -1;
  }
  if (a.command == "plot") {
    if (a.project.empty()) return badUsage("plot needs a RESULTS.csv file");
    if (a.out.empty()) return badUsage("plot needs --out FILE.png|pdf|svg");
    if (a.channels.empty()) return badUsage("plot needs --channels NAME,NAME...");
    return -1;
  }
  if (a.command == "new") {
    if (!a.project.empty() && a.out.empty()) return badUsage("new needs --out FILE.flexarm.json");
    return -1;
  }
  if (a.project.empty()) return badUsage(a.command + " needs a PROJECT file");
  return -1;
}

// Loads the project, printing every diagnostic; empty optional on errors.
std::optional<Project> load(const Args& a) {
  LoadedProject loaded = loadProjectFile(a.project, a.sets);
  for (const Diagnostic& d : loaded.diagnostics.all()) std::cerr << a.project << ": " << d.text() << "\n";
  if (!loaded.project) {
    std::cerr << "flexarm-cli: " << a.project << " has errors; nothing was run\n";
    return std::nullopt;
  }
  if (a.has_t_end) loaded.project->simulation.t_end = a.t_end;
  return loaded.project;
}

int check(const Args& a) {
  auto project = load(a);
  if (!project) return kExitBadInput;
  const Model& m = project->model;
  const MultibodySystem sys = MultibodySystem::fromModel(m, project->coupling);
  int prescribed = 0;
  double total_mass = 0.0;
  for (const Link& l : m.links) total_mass += l.mass;
  for (const Joint& j : m.joints) total_mass += j.mass;
  for (const Payload& p : m.payloads) total_mass += p.mass;
  for (const Joint& j : m.joints) prescribed += j.drive.kind == JointDrive::Kind::Prescribed ? 1 : 0;
  std::cout << "project: " << project->name << "\n";
  std::cout << "bodies: " << m.links.size() << " links, " << m.payloads.size() << " payloads, total mass "
            << formatNumber(total_mass) << " kg\n";
  int motors = 0, elastic = 0;
  for (const Body& b : sys.bodies) {
    motors += b.hasFlexibleJoint() ? 1 : 0;
    elastic += b.e_count;
  }
  std::cout << "degrees of freedom: " << sys.nq << " (" << sys.nq - prescribed << " free, " << prescribed
            << " prescribed; " << m.joints.size() << " joint, " << motors << " motor, " << elastic << " elastic)\n";
  std::cout << "coupling: " << couplingName(project->coupling) << "\n";
  std::cout << "gravity: [" << formatNumber(m.gravity.x()) << ", " << formatNumber(m.gravity.y()) << ", "
            << formatNumber(m.gravity.z()) << "] m/s^2\n";
  std::cout << "joints:\n";
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    std::cout << "  " << j.name << ": " << jointTypeName(j.type) << (j.flex ? " (flexible)" : "") << " -> link "
              << m.links[i].name;
    if (m.links[i].flex) {
      const Body& b = sys.bodies[i];
      std::cout << " (flexible, " << b.e_count << " elastic coordinates, first clamped-free frequency "
                << formatNumber(b.flexible->frequencies.size() ? b.flexible->frequencies(0) / (2 * 3.14159265358979323846) : 0.0)
                << " Hz)";
    }
    std::cout << ", drive " << driveKindName(j.drive.kind);
    if (j.drive.kind != JointDrive::Kind::Free) std::cout << " (" << lawName(j.drive.law.law) << ")";
    std::cout << "\n";
  }
  const SimulationSettings& s = project->simulation;
  std::cout << "simulation: t_end " << formatNumber(s.t_end) << " s, " << describeSolver(s) << "\n";
  std::cout << "ok\n";
  return kExitOk;
}

int modes(const Args& a) {
  auto project = load(a);
  if (!project) return kExitBadInput;
  LinearizationOptions options;
  options.lock_joints = a.lock_joints;
  options.spin_rate = a.spin;
  const LinearizationResult r = linearize(*project, options);
  if (!r.message.empty()) {
    std::cerr << "flexarm-cli: " << r.message << "\n";
    return kExitSolverFailure;
  }
  std::cout << "project: " << project->name << " (" << couplingName(project->coupling) << "-order coupling)\n";
  std::cout << "linearized about "
            << (a.spin ? "a steady spin of joint 1 at " + formatNumber(*a.spin) + " rad/s"
                       : std::string("the initial configuration"))
            << (a.lock_joints ? ", joints held" : "") << "\n";
  if (r.joint_residual > 1e-6)
    std::cout << "note: the configuration is not an equilibrium of the free joints (unbalanced generalized force "
              << formatNumber(r.joint_residual) << "); the modes are those of the instantaneous linearization\n";
  if (r.rigid_body_modes > 0) std::cout << "rigid-body modes (zero frequency): " << r.rigid_body_modes << "\n";
  std::printf("%4s %14s %14s %10s  %s\n", "mode", "frequency [Hz]", "omega [rad/s]", "damping", "largest components");
  const int shown = std::min<int>(a.count, static_cast<int>(r.modes.size()));
  for (int k = 0; k < shown; ++k) {
    const LinearMode& m = r.modes[k];
    std::vector<int> order(m.shape.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int x, int y) { return std::abs(m.shape(x)) > std::abs(m.shape(y)); });
    std::string comps;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, order.size()); ++i)
      comps += (i ? ", " : "") + r.coordinate_names[order[i]] + " " + formatNumber(std::round(m.shape(order[i]) * 1000) / 1000);
    if (m.unstable) {
      std::printf("%4d %14s %14.6g %10s  %s\n", k + 1, "UNSTABLE", m.omega, "", comps.c_str());
      std::printf("     growth rate %.6g 1/s (the linearized motion diverges)\n", m.growth_rate);
    } else {
      std::printf("%4d %14.6g %14.6g %10.4g  %s\n", k + 1, m.frequency_hz, m.omega, m.damping_ratio, comps.c_str());
    }
  }
  return kExitOk;
}

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void update(double t, double t_end) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && t < t_end) return;
    last_ = now;
    const double frac = t_end > 0 ? std::min(1.0, t / t_end) : 1.0;
    const int width = 40, filled = static_cast<int>(frac * width);
    std::fprintf(stderr, "\r[%.*s%*s] %3d%%  t = %.3f / %.3f s", filled, "########################################",
                 width - filled, "", static_cast<int>(frac * 100.0), t, t_end);
    std::fflush(stderr);
    drawn_ = true;
  }
  void done() {
    if (drawn_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

int study(const Args& a) {
  if (a.out.empty()) return badUsage("study needs --out DIR");
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  const StudyOutcome o = runStudy(a.project, a.sets, a.has_t_end ? a.t_end : 0.0, a.out, 0, &g_cancel);
  if (!o.error.empty() && o.cases.empty()) {
    std::cerr << "flexarm-cli: " << o.error << "\n";
    return kExitBadInput;
  }
  int exit_code = kExitOk;
  for (const StudyCaseResult& c : o.cases) {
    if (!c.load_error.empty()) {
      std::cout << c.study_case.name << ": invalid: " << c.load_error << "\n";
      exit_code = kExitBadInput;
      continue;
    }
    const Results& r = c.results;
    std::cout << c.study_case.name << ": " << runStatusName(r.status) << " at t = " << formatShort(r.end_time, 6) << " s, "
              << formatShort(r.stats.wall_time, 3) << " s wall" << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    if (r.status == RunStatus::Cancelled) exit_code = kExitInterrupted;
    if (r.status == RunStatus::Failed && exit_code == kExitOk) exit_code = kExitSolverFailure;
  }
  if (!o.error.empty()) {
    std::cerr << "flexarm-cli: " << o.error << "\n";
    return kExitBadInput;
  }
  std::cout << "summary: " << fs::absolute(o.summary_csv).string() << "\n";
  return exit_code;
}

int compare(const Args& a, const std::string& command_line) {
  if (a.out.empty()) return badUsage("compare needs --out DIR");
  if (a.variants.size() < 2) return badUsage("compare needs two or more --variant (or --zero-vs-high)");
  auto project = load(a);
  if (!project) return kExitBadInput;
  std::vector<StudyCase> cases;
  for (const std::string& spec : a.variants) {
    std::string why;
    cases.push_back(variantCase(*project, spec, why));
    if (!why.empty()) {
      std::cerr << "flexarm-cli: --variant " << spec << ": " << why << "\n";
      return kExitBadInput;
    }
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (cases[i].name == cases[j].name) return badUsage("variant \"" + cases[i].name + "\" is given twice");
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  const StudyOutcome o = runCases(a.project, a.sets, &cases, a.has_t_end ? a.t_end : 0.0, a.out, 0, &g_cancel);
  if (!o.error.empty() && o.cases.empty()) {
    std::cerr << "flexarm-cli: " << o.error << "\n";
    return kExitBadInput;
  }
  std::vector<NamedRun> runs;
  int exit_code = kExitOk;
  for (const StudyCaseResult& c : o.cases) {
    if (!c.load_error.empty()) {
      std::cerr << "flexarm-cli: variant " << c.study_case.name << " is not a valid project:\n" << c.load_error;
      return kExitBadInput;
    }
    const Results& r = c.results;
    std::cout << c.study_case.name << ": " << runStatusName(r.status) << " at t = " << formatShort(r.end_time, 6) << " s"
              << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    if (r.status == RunStatus::Cancelled) exit_code = kExitInterrupted;
    runs.push_back({c.study_case.name, &r});
  }
  for (const std::string& ch : a.channels)
    for (const NamedRun& r : runs)
      if (r.results->channelIndex(ch) < 0) {
        std::cerr << "flexarm-cli: --channels: variant " << r.name << " has no channel \"" << ch << "\"\n";
        return kExitBadInput;
      }
  const fs::path file = fs::path(a.out) / "compare.csv";
#ifdef FLEXARM_WITH_PLOTS
  // The report bundle writes compare.csv with its plots; runCases has written the variants' CSVs.
  ensureQtApplication();
  BundleRequest bundle;
  bundle.dir = a.out;
  bundle.project = &*project;
  bundle.runs = runs;
  bundle.channels = a.channels;
  bundle.plot_channels = a.channels;
  bundle.size = {a.width, a.height, a.dpi};
  bundle.command = command_line;
  bundle.run_csvs_written = true;
  const BundleOutcome b = writeReportBundle(bundle);
  if (!b.error.empty()) {
    std::cerr << "flexarm-cli: report: " << b.error << "\n";
    return kExitBadInput;
  }
  std::cout << "comparison: " << fs::absolute(file).string() << "\n";
  std::cout << "report: " << fs::absolute(fs::path(a.out) / "summary.md").string() << "\n";
#else
  (void)command_line;
  Results comparison = compareRuns(runs, a.channels);
  comparison.project_name = comparisonName(project->name, runs);
  const std::string why = writeCsvFile(comparison, file);
  if (!why.empty()) {
    std::cerr << "flexarm-cli: " << why << "\n";
    return kExitBadInput;
  }
  std::cout << "comparison: " << fs::absolute(file).string() << "\n";
#endif
  return exit_code;  // a diverged variant is a result of the comparison, not a failure
}

int newProject(const Args& a) {
  if (a.project.empty()) {
    std::cout << "templates (flexarm-cli new TEMPLATE --out FILE.flexarm.json [--set PATH=VALUE ...]):\n";
    for (const ProjectTemplate& t : projectTemplates()) {
      if (t.parameters.empty()) continue;  // the empty base is the editor's (a project needs a link)
      std::cout << "\n  " << t.id << ": " << t.title << "\n      " << t.description << "\n";
      for (const TemplateParameter& p : t.parameters) {
        std::cout << "      ";
        for (std::size_t k = 0; k < p.paths.size(); ++k) std::cout << (k ? ", " : "") << p.paths[k];
        std::cout << "  " << p.label << (p.unit.empty() || p.unit == "-" ? "" : " [" + p.unit + "]");
        if (const Json* v = valueAtPath(t.doc, p.paths.front())) std::cout << " (default " << v->dump() << ")";
        if (!p.choices.empty()) {
          std::cout << ", one of:";
          for (const std::string& c : p.choices) std::cout << " " << c;
        }
        std::cout << "\n";
      }
    }
    return kExitOk;
  }
  Diagnostics diag;
  std::optional<Json> doc;
  if (const ProjectTemplate* t = findTemplate(a.project)) {
    if (t->parameters.empty())
      return badUsage("the \"" + t->id + "\" template has no links, which a project file needs: build it in the workbench");
    doc = instantiateTemplate(*t, a.name, a.sets, diag);
  } else if (fs::exists(a.project)) {
    doc = projectFromExample(a.project, diag);
    if (doc) {
      if (!a.name.empty()) (*doc)["name"] = a.name;
      for (const std::string& s : a.sets) applyOverride(*doc, s, diag);
    }
  } else {
    std::string names;
    for (const ProjectTemplate& t : projectTemplates())
      if (!t.parameters.empty()) names += (names.empty() ? "" : ", ") + t.id;
    return badUsage("\"" + a.project + "\" is neither a template (" + names + ") nor a project file");
  }
  const fs::path out = a.out;
  if (doc && !diag.hasErrors()) projectFromJson(*doc, fs::absolute(out).parent_path(), diag);
  for (const Diagnostic& d : diag.all()) std::cerr << a.project << ": " << d.text() << "\n";
  if (!doc || diag.hasErrors()) {
    std::cerr << "flexarm-cli: nothing was written\n";
    return kExitBadInput;
  }
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  file << doc->dump(2) << "\n";
  file.flush();
  if (!file) {
    std::cerr << "flexarm-cli: cannot write \"" << out.string() << "\"\n";
    return kExitBadInput;
  }
  std::cout << "project: " << fs::absolute(out).string() << "\n";
  return kExitOk;
}

int plot(const Args& a) {
  std::string why;
  const std::optional<Results> r = readCsvFile(a.project, why);
  if (!r) {
    std::cerr << "flexarm-cli: " << why << "\n";
    return kExitBadInput;
  }
#ifdef FLEXARM_WITH_PLOTS
  ensureQtApplication();
  std::optional<Figure> figure = figureOf(*r, a.channels, why);
  if (!figure) {
    std::cerr << "flexarm-cli: " << a.project << ": " << why << "\n";
    return kExitBadInput;
  }
  if (!a.title.empty()) figure->title = QString::fromStdString(a.title);
  why = exportFigure(*figure, QString::fromStdString(a.out), {a.width, a.height, a.dpi});
  if (!why.empty()) {
    std::cerr << "flexarm-cli: " << why << "\n";
    return kExitBadInput;
  }
  std::cout << "plot of " << figure->series.size() << " curves written to " << fs::absolute(a.out).string() << "\n";
  return kExitOk;
#else
  std::cerr << "flexarm-cli: this build has no plotting (configure with -DFLEXARM_BUILD_UI=ON)\n";
  return kExitBadInput;
#endif
}

int validate(const Args& a, const std::string& command) {
  if (!fs::is_directory(a.projects_dir)) {
    std::cerr << "flexarm-cli: " << a.projects_dir << " is not a directory of projects (give --projects DIR)\n";
    return kExitBadInput;
  }
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  ValidationOptions o;
  o.projects_dir = a.projects_dir;
  o.work_dir = a.work_dir.empty() ? fs::temp_directory_path() / "flexarm-validation" : fs::path(a.work_dir);
  o.quick = a.quick;
  o.cancel = &g_cancel;
  std::vector<PaperValidation> papers;
  using Fn = PaperValidation (*)(const ValidationOptions&);
  int exit_code = kExitOk;
  for (Fn f : {Fn(validateSpinUpBeam), Fn(validateCanadarmDrop), Fn(validateRigidFlexibleArm), Fn(validateInverseDynamics),
               Fn(validateSlidingBeam), Fn(validateSpatialRrr)}) {
    papers.push_back(f(o));
    const PaperValidation& p = papers.back();
    int agree = 0, differ = 0;
    for (const ValidationRow& r : p.rows) {
      agree += r.verdict == Verdict::Agree;
      differ += r.verdict == Verdict::Differ;
    }
    std::cout << "seed " << p.seed << ": ";
    if (!p.error.empty()) {
      std::cout << "could not be run: " << p.error << "\n";
      exit_code = kExitSolverFailure;
    } else {
      std::cout << agree << " agree, " << differ << " differ, " << formatShort(p.wall_time, 3) << " s\n";
    }
    std::cout.flush();
    if (g_cancel) return kExitInterrupted;
  }
#ifdef FLEXARM_WITH_PLOTS
  // The report's figures, beside it in validation/.
  ensureQtApplication();
  const fs::path report_dir = fs::absolute(a.out).parent_path();
  for (PaperValidation& p : papers)
    for (ValidationPlot& plot : p.plots) {
      const std::string why = drawValidationPlot(plot, report_dir, {1000, 520, 110});
      if (!why.empty()) std::cerr << "flexarm-cli: figure " << plot.stem << " not drawn: " << why << "\n";
    }
#endif
  std::ofstream out(a.out, std::ios::binary | std::ios::trunc);
  out << validationMarkdown(papers, o, command);
  if (!out) {
    std::cerr << "flexarm-cli: cannot write \"" << a.out << "\"\n";
    return kExitBadInput;
  }
  std::cout << "report: " << fs::absolute(a.out).string() << "\n";
  return exit_code;
}

int run(const Args& a) {
  auto project = load(a);
  if (!project) return kExitBadInput;
  const fs::path out = a.out.empty() ? fs::path(fs::path(a.project).stem().string() + ".csv") : fs::path(a.out);

  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
  const bool inverse = a.command == "inverse";
  if (inverse) {
    const std::string problem = checkInverseDynamics(*project);
    if (!problem.empty()) {
      std::cerr << "flexarm-cli: " << a.project << ": " << problem << "\n";
      return kExitBadInput;
    }
  }
  ProgressBar bar(!a.quiet && isatty(STDERR_FILENO));
  RunControl control;
  control.cancel = &g_cancel;
  control.progress = [&](double t, double t_end) { bar.update(t, t_end); };
  const Results results = inverse ? inverseDynamics(*project, control) : simulate(*project, control);
  bar.done();

  const std::string write_error = writeCsvFile(results, out);
  if (!write_error.empty()) {
    std::cerr << "flexarm-cli: " << write_error << "\n";
    return kExitBadInput;
  }
  const SolverStats& st = results.stats;
  std::cout << (inverse ? "inverse dynamics " : "run ") << runStatusName(results.status) << ": t = " << formatShort(results.end_time, 6) << " s, "
            << st.steps << " steps, " << st.rhs_evaluations << " RHS evaluations, " << st.jacobian_evaluations
            << " Jacobian evaluations, " << st.nonlinear_iterations << " Newton iterations, " << st.error_test_failures
            << " error-test failures, " << st.nonlinear_convergence_failures << " convergence failures, "
            << formatShort(st.wall_time, 3) << " s wall time";
  if (st.wall_time > 0.0 && results.end_time > 0.0)
    std::cout << " (" << formatShort(results.end_time / st.wall_time, 3) << " x real time)";
  std::cout << "\n";
  std::cout << "results: " << results.rows() << " rows x " << results.channels().size() << " channels written to "
            << fs::absolute(out).string() << "\n";
  switch (results.status) {
    case RunStatus::Completed: return kExitOk;
    case RunStatus::Cancelled:
      std::cerr << "flexarm-cli: " << results.message << "\n";
      return kExitInterrupted;
    case RunStatus::Failed:
    case RunStatus::Diverged:
      std::cerr << "flexarm-cli: " << results.message << "\n";
      return kExitSolverFailure;
  }
  return kExitSolverFailure;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Args a;
    const int parsed = parseArgs(argc, argv, a);
    if (parsed >= 0) return parsed;
    if (a.command == "check") return check(a);
    if (a.command == "modes") return modes(a);
    if (a.command == "study") return study(a);
    // The command to repeat, for reports: without --work (a machine-specific folder).
    std::string command = "flexarm-cli";
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--work") ++i;
      else command += " " + arg;
    }
    if (a.command == "compare") return compare(a, command);
    if (a.command == "plot") return plot(a);
    if (a.command == "new") return newProject(a);
    if (a.command == "validate") return validate(a, command);
    return run(a);
  } catch (const std::exception& e) {
    std::cerr << "flexarm-cli: internal error: " << e.what() << "\n";
    return kExitSolverFailure;
  }
}
