#pragma once
// What the flexarm-cli commands share: exit codes, Ctrl-C, the PROJECT argument with --set and
// --t-end, loading a project with its diagnostics printed, figure sizes, the progress bar.
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/Project.hpp"

namespace flexarm::cli {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitSolverFailure = 3;
constexpr int kExitInterrupted = 130;

// A number read in full ("2.5x" and "" are not numbers), finite.
std::optional<double> parseNumber(const std::string& text);

// Prints "flexarm-cli: what" on standard error and returns code.
int fail(const std::string& what, int code = kExitBadInput);

// Set by SIGINT and SIGTERM once stopOnSignals() has been called; runs poll it and stop.
std::atomic<bool>& cancelFlag();
void stopOnSignals();
// For the analyses that write nothing until they finish (modes, linearize, campbell): stopOnSignals(),
// and when the work has not stopped 0.3 s after the signal (it can be inside a step that does not poll,
// as the discretization of a fine mesh), the process ends itself: "interrupted", exit 130.
void stopAnalysisOnSignals();

// The command line as the user can repeat it (for reports), without --work (a machine-specific
// folder); main() records it.
void recordCommandLine(int argc, char** argv);
const std::string& commandLine();

// A project named on the command line, with the overrides applied before it is read.
struct ProjectInput {
  std::string path;
  std::vector<std::string> sets;
  std::optional<double> t_end;
};

// PROJECT (required) and --set PATH=VALUE (repeatable); with_t_end adds --t-end T and --accuracy A.
void addProjectArguments(CLI::App& app, ProjectInput& in, bool with_t_end,
                         const std::string& what = "the project file (.flexarm.json)");
void addSetOption(CLI::App& app, std::vector<std::string>& sets);
void addEndTimeOption(CLI::App& app, std::optional<double>& t_end);
// --accuracy A: the override simulation.accuracy=A, added to `sets`.
void addAccuracyOption(CLI::App& app, std::vector<std::string>& sets);

// Loads the project, printing every diagnostic; empty on errors (they have been printed).
std::optional<Project> loadProject(const ProjectInput& in);

// --out for a file or folder: an empty name is refused (it is not "the default").
CLI::Validator nonEmptyPath();

// Fails (exit 2, naming --out) when `file` cannot be written, before anything long is run.
bool checkOutputFile(const std::string& file);
// The same for a folder: created when missing, and refused when it cannot be written to.
bool checkOutputFolder(const std::string& dir);

// Accepts whole numbers from lo to hi only ("2.5" is refused, not rounded).
CLI::Validator integerBetween(long lo, long hi);

// Size of exported figures: pixels for PNG (points for PDF and SVG) and the DPI written into PNG.
struct FigureSizeOption {
  int width = 1200, height = 700;
  double dpi = 150;
};
void addFigureSizeOptions(CLI::App& app, FigureSizeOption& size);

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}
  void update(double t, double t_end);
  void done();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace flexarm::cli
