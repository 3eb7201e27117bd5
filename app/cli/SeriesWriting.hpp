#pragma once
// ParaView output of flexarm-cli (`run --vtk`, `export-vtk`) lives in a module of its own,
// flexarm-cli-paraview.so (paraview/SeriesModule.cpp, over paraview/ParaViewSeries.hpp), which the
// program loads only when a command writes a series: the other commands start without VTK. This
// header is the interface between the two; both are built from it in one build, and the module is
// refused when its interface version is another.
#include <filesystem>
#include <string>

#include "paraview/ParaViewSeries.hpp"

namespace flexarm::cli {

// Raise it whenever anything in this header or in paraview/ParaViewSeries.hpp changes.
constexpr int kSeriesInterfaceVersion = 1;

// paraview/ParaViewSeries.hpp's functions, as the module holds them.
class SeriesWriting {
 public:
  virtual ~SeriesWriting() = default;
  virtual Status checkResultsBelong(const MultibodySystem& sys, const Results& results) = 0;
  virtual SeriesOutcome write(const Model& model, const MultibodySystem& sys, const Results& results,
                              const std::filesystem::path& dir, const SeriesOptions& options) = 0;
  virtual std::string describe(const SeriesOutcome& outcome, const std::filesystem::path& dir) = 0;
};

// The module's series writing, loaded on the first call (Modules.hpp). nullptr when it cannot be
// loaded, and `why` names the module's file.
SeriesWriting* loadSeriesWriting(std::string& why);

}  // namespace flexarm::cli

// The module's one entry point: its SeriesWriting when interface_version is the module's own, else nullptr.
extern "C" void* flexarm_cli_series_writing(int interface_version);
