#pragma once
// What a window offers the export reactions (ExportReactions.hpp), the way ParaView's reactions ask
// the active view: its data at the moment of the export, the parent of the dialogs, and where the
// outcome is told. The main window and the compare window each implement it once.
#include <QImage>
#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/MultibodySystem.hpp"
#include "results/Results.hpp"
#include "ui/plots/ReportBundle.hpp"

class QCustomPlot;
class QWidget;

namespace flexarm {

// One run to write as a ParaView series: its project and system, its finished results, and the
// subfolder of the chosen folder it goes into ("": the folder itself).
struct SeriesRun {
  std::string folder;
  const Project* project = nullptr;
  std::shared_ptr<const MultibodySystem> system;
  std::shared_ptr<const Results> results;
};

class ExportSource {
 public:
  virtual ~ExportSource() = default;

  virtual QWidget* exportWindow() = 0;  // parent of the dialogs
  // Asked before the dialog of an export of results: false, after telling the user why, when there
  // is nothing to export yet.
  virtual bool exportReady() = 0;
  virtual void exportReport(const QString& text) = 0;  // an export's outcome, in words

  virtual std::shared_ptr<const Results> csvTable(std::string& why) = 0;  // CSV; null: why not
  virtual QCustomPlot* plotToExport() = 0;
  virtual QImage viewsImage() = 0;  // the 3D view(s) as the user sees them
  // The times an animation steps through (empty: why not); playback is paused for it. Then each
  // frame: the view(s) at time t.
  virtual std::vector<double> animationTimes(std::string& why) = 0;
  virtual QImage animationFrame(double t) = 0;
  // A report bundle of what the window shows (dir is set by the reaction); none: why not.
  virtual std::optional<BundleRequest> bundleRequest(std::string& why) = 0;
  // The finished runs a ParaView series is written for (empty: why not).
  virtual std::vector<SeriesRun> seriesRuns(std::string& why) = 0;
};

}  // namespace flexarm
