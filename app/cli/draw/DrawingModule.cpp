// flexarm-cli-draw.so: the drawing of flexarm-cli (cli/Drawing.hpp) over ui/plots, headless on Qt's
// offscreen platform. flexarm-cli loads it only when a command draws.
#include <QString>

#include "Drawing.hpp"
#include "Modules.hpp"
#include "ui/plots/PlotExport.hpp"
#include "ui/plots/PlotFigure.hpp"
#include "ui/plots/ReportBundle.hpp"
#include "ui/plots/ValidationPlots.hpp"

namespace flexarm::cli {

namespace {

ExportSize exportSize(const DrawingSize& size) { return {size.width, size.height, size.dpi}; }

class PlotsDrawing final : public Drawing {
 public:
  DrawnPlot plot(const Results& results, const std::vector<std::string>& channels, const std::string& title,
                 const std::string& file, const DrawingSize& size) override {
    ensureQtApplication();
    DrawnPlot drawn;
    std::optional<Figure> figure = figureOf(results, channels, drawn.channel_error);
    if (!figure) return drawn;
    if (!title.empty()) figure->title = QString::fromStdString(title);
    drawn.write_error = exportFigure(*figure, QString::fromStdString(file), exportSize(size));
    drawn.curves = figure->series.size();
    return drawn;
  }

  std::string reportBundle(const ReportRequest& request) override {
    ensureQtApplication();
    BundleRequest bundle;
    bundle.dir = request.dir;
    bundle.project = request.project;
    bundle.runs = request.runs;
    bundle.channels = request.channels;
    bundle.plot_channels = request.channels;
    bundle.size = exportSize(request.size);
    bundle.command = request.command;
    bundle.run_csvs_written = true;
    return writeReportBundle(bundle).error;
  }

  std::string validationFigure(ValidationPlot& plot, const std::filesystem::path& report_dir, const DrawingSize& size) override {
    ensureQtApplication();
    return drawValidationPlot(plot, report_dir, exportSize(size));
  }
};

}  // namespace

}  // namespace flexarm::cli

extern "C" __attribute__((visibility("default"))) void* flexarm_cli_drawing(int interface_version) {
  using namespace flexarm::cli;
  return moduleInstance<Drawing, PlotsDrawing, kDrawingInterfaceVersion>(interface_version);
}
