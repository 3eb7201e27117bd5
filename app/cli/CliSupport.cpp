#include "CliSupport.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "base/Files.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "io/ProjectFile.hpp"

namespace flexarm::cli {

namespace {

std::atomic<bool> g_cancel{false};
void onSignal(int) { g_cancel.store(true); }
std::string g_command_line = "flexarm-cli";

}  // namespace

int fail(const std::string& what, int code) {
  std::cerr << "flexarm-cli: " << what << "\n";
  return code;
}

// A number read in full ("2.5x" and "" are not numbers), finite.
std::optional<double> parseNumber(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(x)) return std::nullopt;
  return x;
}

std::atomic<bool>& cancelFlag() { return g_cancel; }

void stopOnSignals() {
  std::signal(SIGINT, onSignal);
  std::signal(SIGTERM, onSignal);
}

void stopAnalysisOnSignals() {
  stopOnSignals();
  std::thread([] {
    while (!g_cancel.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::fputs("flexarm-cli: interrupted\n", stderr);
    std::_Exit(kExitInterrupted);  // nothing written yet: the analysis writes its files when it ends
  }).detach();
}

void recordCommandLine(int argc, char** argv) {
  g_command_line = "flexarm-cli";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--work")
      ++i;
    else if (arg.rfind("--work=", 0) != 0)
      g_command_line += " " + arg;
  }
}

const std::string& commandLine() { return g_command_line; }

void addSetOption(CLI::App& app, std::vector<std::string>& sets) {
  app.add_option("--set", sets,
                 "override a field of the project by its JSON path before it is read, e.g.\n"
                 "--set joints[0].drive.omega0=8 --set gravity=[0,0,0]; VALUE is JSON, or a plain word for a string")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);
}

void addEndTimeOption(CLI::App& app, std::optional<double>& t_end) {
  app.add_option_function<std::string>(
         "--t-end",
         [&t_end](const std::string& text) {
           const std::optional<double> x = parseNumber(text);
           if (!x || !(*x > 0.0))
             throw CLI::ValidationError("--t-end must be a positive number of seconds, got \"" + text + "\"");
           t_end = *x;
         },
         "end time of the simulation in seconds (overrides simulation.t_end)")
      ->type_name("T");
}

void addAccuracyOption(CLI::App& app, std::vector<std::string>& sets) {
  app.add_option_function<std::string>(
         "--accuracy",
         [&sets](const std::string& text) {
           const std::optional<double> x = parseNumber(text);
           if (!x || !(*x > 0.0))
             throw CLI::ValidationError(
                 "--accuracy must be a positive fraction (1e-3: 0.1 % of each output's excursion), got \"" + text + "\"");
           sets.push_back("simulation.accuracy=" + formatNumber(*x));
         },
         "the accuracy to reach: each output's error as a fraction of its excursion\n"
         "(overrides simulation.accuracy, default 1e-3 = 0.1 %; the method and its tolerances follow it)")
      ->type_name("A");
}

void addProjectArguments(CLI::App& app, ProjectInput& in, bool with_t_end, const std::string& what) {
  app.add_option("PROJECT", in.path, what)->required();
  addSetOption(app, in.sets);
  if (with_t_end) {
    addEndTimeOption(app, in.t_end);
    addAccuracyOption(app, in.sets);
  }
}

std::optional<Project> loadProject(const ProjectInput& in) {
  LoadedProject loaded = loadProjectFile(in.path, in.sets);
  for (const Diagnostic& d : loaded.diagnostics.all()) std::cerr << in.path << ": " << d.text() << "\n";
  if (!loaded.project) {
    fail(in.path + " has errors; nothing was run");
    return std::nullopt;
  }
  if (in.t_end) {  // the loader's limits hold for --t-end too
    loaded.project->simulation.t_end = *in.t_end;
    if (const Status length = checkRunLength(loaded.project->simulation); !length) {
      fail("--t-end " + formatNumber(*in.t_end) + ": " + length.error().text());
      return std::nullopt;
    }
  }
  return loaded.project;
}

CLI::Validator nonEmptyPath() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? std::string("needs a name, got an empty one") : std::string();
      },
      "");
}

bool checkOutputFile(const std::string& file) {
  if (const Status writable = checkWritable(file); !writable) {
    fail("--out: " + writable.error().text());
    return false;
  }
  return true;
}

bool checkOutputFolder(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    fail("--out: cannot create the folder " + inQuotes(dir, 200) + (ec ? ": " + ec.message() : std::string()));
    return false;
  }
  return checkOutputFile((std::filesystem::path(dir) / "summary.csv").string());
}

CLI::Validator integerBetween(long lo, long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long x = std::strtol(text.c_str(), &end, 10);
        if (end == text.c_str() || *end != '\0' || errno == ERANGE || x < lo || x > hi)
          return "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" + text + "\"";
        return std::string();
      },
      "INTEGER in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

void addFigureSizeOptions(CLI::App& app, FigureSizeOption& size) {
  app.add_option_function<std::string>(
         "--size",
         [&size](const std::string& text) {
           int w = 0, h = 0;
           char extra = 0;
           if (std::sscanf(text.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w < 16 || h < 16 || w > 20000 || h > 20000)
             throw CLI::ValidationError("--size must be WIDTHxHEIGHT in pixels between 16 and 20000, got \"" + text + "\"");
           size.width = w;
           size.height = h;
         },
         "figure size in pixels (PDF and SVG: points), default 1200x700")
      ->type_name("WIDTHxHEIGHT");
  app.add_option("--dpi", size.dpi, "resolution written into PNG files (default 150)")->check(CLI::Range(10.0, 2400.0));
}

void ProgressBar::update(double t, double t_end) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100) && t < t_end) return;
  last_ = now;
  const double frac = t_end > 0 ? std::min(1.0, t / t_end) : 1.0;
  const int width = 40, filled = static_cast<int>(frac * width);
  std::fprintf(stderr, "\r[%.*s%*s] %3d%%  t = %.3f / %.3f s", filled, "########################################", width - filled,
               "", static_cast<int>(frac * 100.0), t, t_end);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::done() {
  if (drawn_) std::fprintf(stderr, "\n");
}

}  // namespace flexarm::cli
