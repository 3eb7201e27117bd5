#pragma once
// The FlexArm workbench window: model tree and properties (read-only for now), the 3D view with
// its timeline, live plots, a message log, run controls and solver statistics. Simulations run on
// a worker thread (SimulationController); views observe the results and never own them.
#include <QMainWindow>
#include <QPointer>
#include <vector>
#include <memory>
#include <optional>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "solvers/Study.hpp"
#include "ui/AnimationExport.hpp"
#include "ui/ReportBundle.hpp"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTreeWidget;
class QTableWidget;
class QTimer;
class QMenu;
class QDoubleSpinBox;
class QComboBox;

namespace flexarm {

class ArmView;
class CompareWindow;
class PlotPanel;
class SimulationController;
class Timeline;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a project file. On failure the loader's messages are shown (banner and log) and the
  // current project stays open.
  bool openProject(const QString& path);
  bool newProject();  // a minimal valid arm (one rigid rod), not yet saved
  void runSimulation();
  void stopSimulation();
  bool isRunning() const;

  const Results* results() const { return results_.get(); }
  std::size_t liveRows() const { return live_.rows(); }
  QString projectName() const;
  QString bannerText() const;
  bool bannerShown() const;
  ArmView* armView() const { return view_; }
  // The whole window as the user sees it, the 3D view's native GL window included.
  QImage screenshot();
  const MultibodySystem* system() const { return system_.get(); }
  PlotPanel* plots() const { return plots_; }
  Timeline* timeline() const { return timeline_; }
  static QString examplesDirectory();

  // Compare mode: a window that runs the variants of the open project concurrently (null, with a
  // banner, when there is no project or a variant is invalid). "Zero vs high order" is the classic one.
  CompareWindow* compare(std::vector<StudyCase> cases);
  CompareWindow* compareZeroVsHigh();

  // Exports of the last run; each returns "" or the reason (also shown in the log).
  std::string exportCsvTo(const QString& file);
  std::string exportPlotTo(const QString& file, const ExportSize& size);
  std::string exportViewPng(const QString& file);
  AnimationOutcome exportAnimationTo(const QString& dir, const AnimationSettings& settings);
  BundleOutcome exportBundleTo(const QString& dir);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  void buildActions();
  void setProject(Project project, const QString& path);
  void buildDocks();
  void fillModelTree();
  void showBanner(const QString& text, bool error);
  void log(const QString& text);
  void poll();
  void onFinished(std::shared_ptr<const Results> results);
  void showRow(int row);
  void addRecent(const QString& path);
  void refreshRecentMenu();
  void saveAs();
  QString projectDirectory() const;  // where relative table files of the project resolve

  ArmView* view_;
  PlotPanel* plots_;
  Timeline* timeline_;
  SimulationController* controller_;
  QTreeWidget* tree_;
  QTableWidget* properties_;
  QPlainTextEdit* log_;
  QLabel* banner_;
  QLabel* stats_;
  QProgressBar* progress_;
  QTimer* poll_timer_;
  QMenu* recent_menu_;
  QDoubleSpinBox* scale_;
  QComboBox* colouring_;
  QAction *run_action_, *pause_action_, *stop_action_;

  std::optional<Project> project_;
  QString project_path_;
  std::unique_ptr<MultibodySystem> system_;
  Results live_;                               // rows received while running
  std::shared_ptr<const Results> results_;     // the last finished run
  std::vector<double> plot_backlog_;           // rows received but not yet plotted
  std::size_t shown_row_ = static_cast<std::size_t>(-1);
  unsigned poll_tick_ = 0;
  std::vector<QPointer<CompareWindow>> compares_;
};

}  // namespace flexarm
