#pragma once
// Compare mode: two or more variants of one project (coupling order, overrides, or the project's
// own variants) run concurrently on worker threads. Each variant has its 3D view, side by side,
// with one camera (moving one moves all) and one time (a shared timeline); a variant that diverges
// or fails shows its banner over its view while the others go on. Below, the chosen channels of
// every variant overlaid, or each variant minus the first. Exports: compare CSV, plot (PNG, PDF,
// SVG), the views as PNG, an animation (PNG frames, MP4), and a report bundle.
#include <QMainWindow>
#include <memory>
#include <vector>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "solvers/Study.hpp"
#include "ui/export/AnimationExport.hpp"
#include "ui/export/ExportSource.hpp"
#include "ui/plots/ReportBundle.hpp"

class QDoubleSpinBox;
class QLabel;
class QTimer;
class QWidget;

namespace flexarm {

class ArmView;
class ExportReactions;
class ComparePlot;
class Timeline;

class CompareWindow : public QMainWindow, private ExportSource {
  Q_OBJECT
 public:
  // The variants of `base` (tables resolve against base_dir). Invalid variants are reported by start().
  // `base_system`: the base project's discretized system, shared by the variants that keep it (they change
  // only simulation settings); the others build their own.
  CompareWindow(const Project& base, const QString& base_dir, std::vector<StudyCase> cases, QWidget* parent = nullptr,
                std::shared_ptr<const MultibodySystem> base_system = nullptr);
  ~CompareWindow() override;

  // Builds every variant's project and starts all runs. False, with a message, when a variant is not
  // a valid project (nothing is run then).
  bool start(QString* error = nullptr);
  void stop();
  bool isRunning() const;

  int variantCount() const { return static_cast<int>(variants_.size()); }
  QString variantName(int i) const;
  const Results* variantResults(int i) const;         // the finished run, or null while it runs
  const MultibodySystem* variantSystem(int i) const;  // the system the variant runs on (after start())
  bool variantBannerShown(int i) const;
  QString variantBanner(int i) const;
  ArmView* view(int i) const;
  // Fit: one camera for every view, around the union of the arms' envelopes.
  void fitViews();
  // Deformation scale of every view (elastic deformation drawn this many times larger).
  void setDeformationScale(double scale);
  // One colour range for every view (the largest), or each view its own.
  void setSharedColourRange(bool shared);
  bool sharedColourRange() const { return shared_colours_; }
  ComparePlot* plot() const { return plot_; }
  Timeline* timeline() const { return timeline_; }

  // Exports; each returns "" or the reason.
  std::string exportCsv(const QString& file) const;  // the checked channels of every variant, and B - A
  std::string exportPlotFile(const QString& file, const ExportSize& size) const;
  std::string exportViewsPng(const QString& file);
  AnimationOutcome exportAnimationTo(const QString& dir, const AnimationSettings& settings);
  BundleOutcome exportBundle(const QString& dir) const;
  // Every variant's run as a ParaView series in a subfolder of dir named after the variant.
  std::string exportParaViewTo(const QString& dir, bool* cancelled = nullptr);
  QImage viewsImage() override;  // the views side by side with their titles and banners

 signals:
  void allFinished();

 private:
  struct Variant;
  void buildUi();
  void buildActions();
  // ExportSource: what the toolbar's export reactions take from this window.
  QWidget* exportWindow() override;
  bool exportReady() override;
  void exportReport(const QString& text) override;
  std::shared_ptr<const Results> csvTable(std::string& why) override;
  QCustomPlot* plotToExport() override;
  std::vector<double> animationTimes(std::string& why) override;
  QImage animationFrame(double t) override;
  std::optional<BundleRequest> bundleRequest(std::string& why) override;
  std::vector<SeriesRun> seriesRuns(std::string& why) override;
  void poll();
  void onFinished(int i);
  void showTime(double t);
  std::vector<NamedRun> runs() const;       // finished results, else the live ones
  std::vector<double> commonTimes() const;  // the times of the finished run that went furthest

  Project base_;
  std::shared_ptr<const MultibodySystem> base_system_;
  QString base_dir_;
  std::vector<std::unique_ptr<Variant>> variants_;
  QWidget* views_box_ = nullptr;
  ComparePlot* plot_ = nullptr;
  Timeline* timeline_ = nullptr;
  QLabel* status_ = nullptr;
  QTimer* poll_timer_ = nullptr;
  ExportReactions* exports_ = nullptr;  // the toolbar's and the plot's exports
  bool syncing_camera_ = false;
  bool shared_colours_ = true;
  QDoubleSpinBox* scale_ = nullptr;
};

}  // namespace flexarm
