#pragma once
// What flexarm-cli draws (plot, compare's report bundle, validate's figures) lives in a module of its
// own, flexarm-cli-draw.so (draw/DrawingModule.cpp, over ui/plots), which the program loads only when
// a command draws: the commands that draw nothing start without Qt Widgets, QCustomPlot and their
// fonts. This header is the interface between the two; both are built from it in one build, and the
// module is refused when its interface version is another.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "results/Comparison.hpp"
#include "results/Results.hpp"
#include "validation/SeedValidation.hpp"

namespace flexarm::cli {

// Raise it whenever anything in this header changes.
constexpr int kDrawingInterfaceVersion = 1;

// Pixels for PNG (points for PDF and SVG) and the DPI written into PNG files.
struct DrawingSize {
  int width = 1200, height = 700;
  double dpi = 150;
};

struct DrawnPlot {
  std::size_t curves = 0;
  std::string channel_error;  // the channels cannot be plotted: the first unknown one named
  std::string write_error;    // the figure could not be written
};

// compare's report bundle (ui/plots/ReportBundle.hpp) in `dir`, where each run's CSV already is.
struct ReportRequest {
  std::filesystem::path dir;
  const Project* project = nullptr;
  std::vector<NamedRun> runs;
  std::vector<std::string> channels;  // compared and plotted (empty: the defaults)
  DrawingSize size;
  std::string command;  // how the bundle was made, quoted in its summary
};

class Drawing {
 public:
  virtual ~Drawing() = default;
  // The channels of `results` against time, written to `file` (.png, .pdf or .svg); `title` may be empty.
  virtual DrawnPlot plot(const Results& results, const std::vector<std::string>& channels, const std::string& title,
                         const std::string& file, const DrawingSize& size) = 0;
  // Writes the bundle (compare.csv, plots/, project.flexarm.json, summary.md). Returns "" or the reason.
  virtual std::string reportBundle(const ReportRequest& request) = 0;
  // Draws the figure into report_dir and sets plot.image. Returns "" or the reason.
  virtual std::string validationFigure(ValidationPlot& plot, const std::filesystem::path& report_dir,
                                       const DrawingSize& size) = 0;
};

// The module's drawing, loaded on the first call (Modules.hpp). nullptr when it cannot be loaded, and
// `why` names the module's file.
Drawing* loadDrawing(std::string& why);

}  // namespace flexarm::cli

// The module's one entry point: its Drawing when interface_version is the module's own, else nullptr.
extern "C" void* flexarm_cli_drawing(int interface_version);
