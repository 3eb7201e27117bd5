#pragma once
// A run's results as a ParaView time series: one VTK XML poly data file (.vtp) per output row with the
// deformed arm at that time (ArmSnapshot.hpp), and a collection file (.pvd) listing them with their
// times, which ParaView opens as one data set with a time axis. Used by `flexarm-cli run --vtk`,
// `flexarm-cli export-vtk` and the workbench's File > Export > ParaView series.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

#include "base/Result.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "results/Results.hpp"

namespace flexarm {

struct SeriesOptions {
  int samples = 41;          // points along each link's centreline (>= 2)
  std::string base = "arm";  // <base>.pvd and <base>_0000.vtp, <base>_0001.vtp, ...
  // Called before each file with (files written, files in all); false cancels (the files so far stay).
  std::function<bool(std::size_t, std::size_t)> progress;
};

struct SeriesOutcome {
  std::string error;  // empty on success; a cancelled export is not an error
  bool cancelled = false;
  std::size_t frames = 0;     // .vtp files written
  std::filesystem::path pvd;  // the collection, when it was written
};

// Whether `results` were computed from `sys`: every generalized coordinate has its channel (q.<joint>,
// qm.<joint>, e.<link>.<k>) with a value in every row, and the end effector (ee.x|y|z) and each flexible
// link's tip (tip.<link>.x|y|z) rebuilt from those coordinates lie where the results put them (within
// 1e-6 of the arm's reach). The error names the missing channel, or the row, link and both positions.
Status checkResultsBelong(const MultibodySystem& sys, const Results& results);

// Writes the series into `dir` (created when missing) after checkResultsBelong. The error names the
// file or the folder that could not be written, or why the results do not fit the model.
SeriesOutcome writeParaViewSeries(const Model& model, const MultibodySystem& sys, const Results& results,
                                  const std::filesystem::path& dir, const SeriesOptions& options = {});

// "wrote 41 VTK files and arm.pvd to DIR" (or why not), for the command line and the workbench.
std::string describeSeriesOutcome(const SeriesOutcome& outcome, const std::filesystem::path& dir);

}  // namespace flexarm
