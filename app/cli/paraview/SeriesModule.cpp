// flexarm-cli-paraview.so: the ParaView series of flexarm-cli (cli/SeriesWriting.hpp) over
// paraview/ParaViewSeries.hpp. flexarm-cli loads it only when a command writes a series.
#include "Modules.hpp"
#include "SeriesWriting.hpp"

namespace flexarm::cli {

namespace {

class VtkSeriesWriting final : public SeriesWriting {
 public:
  Status checkResultsBelong(const MultibodySystem& sys, const Results& results) override {
    return flexarm::checkResultsBelong(sys, results);
  }
  SeriesOutcome write(const Model& model, const MultibodySystem& sys, const Results& results, const std::filesystem::path& dir,
                      const SeriesOptions& options) override {
    return writeParaViewSeries(model, sys, results, dir, options);
  }
  std::string describe(const SeriesOutcome& outcome, const std::filesystem::path& dir) override {
    return describeSeriesOutcome(outcome, dir);
  }
};

}  // namespace

}  // namespace flexarm::cli

extern "C" __attribute__((visibility("default"))) void* flexarm_cli_series_writing(int interface_version) {
  using namespace flexarm::cli;
  return moduleInstance<SeriesWriting, VtkSeriesWriting, kSeriesInterfaceVersion>(interface_version);
}
