#pragma once
// ParaView output shared by `run --vtk DIR` and `export-vtk` (paraview/ParaViewSeries.hpp).
#include <ostream>
#include <string>

#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm::cli {

// The folder for a series, created when missing, and the module that writes it (SeriesWriting.hpp),
// loaded; fails (exit 2, naming `option`) when the folder cannot be written to or the module cannot be
// loaded. Checked before a long run rather than after it.
bool checkVtkFolder(const std::string& dir, const std::string& option);

// Writes the series of `results` (computed from `project` with `coupling`) into dir and says so on report;
// returns the exit code (2 naming `option` when it cannot be written or the results do not fit).
int writeVtkSeries(const Project& project, CouplingOrder coupling, const Results& results, const std::string& dir,
                   const std::string& option, std::ostream& report);

}  // namespace flexarm::cli
