#pragma once
// A report bundle: one folder with everything a report needs from a run or a comparison:
//   project.flexarm.json   the project as run (canonical JSON)
//   <variant>.csv          each run's channels (results.csv for a single run)
//   compare.csv            with two or more runs: each channel per run on one grid, then B - A
//   plots/<channel>.png|svg           the channel of every run overlaid
//   plots/<channel>-difference.png|svg  each later run minus the first
//   summary.md             run settings, outcomes, scalar metrics, and the plots
// Used by the workbench (File > Export report bundle, compare mode) and `flexarm-cli compare`.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "results/Comparison.hpp"
#include "ui/plots/PlotExport.hpp"

namespace flexarm {

struct MultibodySystem;

struct BundleRequest {
  std::filesystem::path dir;
  const Project* project = nullptr;               // the base project (copied; its model names the metrics)
  std::shared_ptr<const MultibodySystem> system;  // the base project's discretized system (null: built here)
  std::vector<NamedRun> runs;                     // one or more; names are the variants ("" for a single run)
  std::vector<std::string> channels;              // compare.csv columns (empty: every common channel)
  std::vector<std::string> plot_channels;         // plotted (empty: the default plot channels)
  ExportSize size;
  std::string command;            // how the bundle was made, quoted in the summary
  bool run_csvs_written = false;  // the caller already wrote each run's CSV into dir (as
                                  // caseFileName(name).csv, e.g. runCases): not written again
};

struct BundleOutcome {
  std::string error;               // empty on success
  std::vector<std::string> files;  // written, relative to dir
};

// Needs a QApplication (the workbench's, or ensureQtApplication()).
BundleOutcome writeReportBundle(const BundleRequest& request);

}  // namespace flexarm
