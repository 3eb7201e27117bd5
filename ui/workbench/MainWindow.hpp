#pragma once
// The FlexArm workbench window: the model editor (model tree with structure edits, property editor,
// undo/redo, autosave), the 3D view with its timeline, live plots, a message log, run controls and
// solver statistics. The open project runs in a RunSession (worker thread, live and finished results,
// the state at a time); views observe the results and never own them. The exports are the shared
// reactions of ui/export/, fed through this window's ExportSource. The edited project is a ProjectDocument; every change redraws
// the arm.
#include <QFutureWatcher>
#include <QMainWindow>
#include <QPointer>
#include <chrono>
#include <functional>
#include <vector>
#include <memory>
#include <optional>

#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "solvers/Study.hpp"
#include "ui/export/AnimationExport.hpp"
#include "ui/export/ExportSource.hpp"
#include "ui/plots/ReportBundle.hpp"
#include "ui/run/RunAdvice.hpp"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTimer;
class QMenu;
class QDoubleSpinBox;
class QComboBox;
class QStackedWidget;
class QDockWidget;

namespace flexarm {

class ArmView;
class CampbellDialog;
class StaticDialog;
class CompareWindow;
class AutoSave;
class ModelTree;
class ModePreview;
class FrequencyResponseDialog;
class PlotPanel;
class ProjectDocument;
class PropertyEditor;
class RunSession;
class StartPage;
class Timeline;

class ExportReactions;

class MainWindow : public QMainWindow, private ExportSource {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a project file. On failure the loader's messages are shown (banner and log) and the
  // current project stays open.
  bool openProject(const QString& path);
  bool newProject();       // a minimal valid arm (one rigid rod), not yet saved
  bool newEmptyProject();  // no links yet: build the arm in the editor
  // File > New: the wizard (an empty base, a template with its first values, or a copy of an example),
  // then newProjectFrom its document.
  bool newProjectWizard();
  // Starts an untitled project from a document (a template's or an example's copy); an empty chain
  // (no links) is the editor's empty project. False, with the loader's message in the banner, when
  // the document is not a valid project; nothing changes then.
  bool newProjectFrom(const Json& doc);
  // File > Import URDF...: asks for the file, then importUrdf.
  bool importUrdfWithDialog();
  // The import dialog on `file` (tip, flexible links), then newProjectFrom the imported project:
  // untitled, fully editable. False when cancelled or refused.
  bool importUrdf(const QString& file);
  // Writes the project to path (the document as edited; a name without an extension gets
  // ".flexarm.json"); false with the reason in the banner.
  bool saveProject(const QString& path);
  // If a recovery file (autosave of unsaved changes after a crash) exists for path ("" = untitled),
  // asks whether to restore it and does so. True when restored.
  bool offerRecovery(const QString& path);
  // Answers the window's questions (unsaved changes, recovery) instead of a QMessageBox, for tests:
  // gets title, text and the QMessageBox::StandardButtons offered; returns the button chosen.
  void setQuestionHandler(std::function<int(const QString&, const QString&, int)> handler);
  // Run (F5) starts the simulation, or resumes a paused one; Pause (F6) holds it between two steps;
  // Stop (Shift+F5) ends it with the results so far.
  void runSimulation();
  void stopSimulation();
  void setSimulationPaused(bool paused);
  bool isRunning() const;
  bool isPaused() const;
  QString statusText() const;    // the status bar's text: the project, the run's progress or its statistics
  QString progressText() const;  // the progress bar's ("t = 1.20 / 30.00 s"; empty before a run)
  // Simulation > Verify error estimate: runs the project again at a tenth of its accuracy on a worker
  // thread and reports each output's measured error next to its estimate (messages, status tooltip).
  // False when there is no finished run to verify or a run or a verification is going.
  bool verifyLastRun();
  // Simulation > Continue from the end: the last row of the results becomes the project's initial state
  // and start time (an undoable edit), the end time moves on by the run's length, and the run starts.
  bool continueLastRun();
  bool isVerifying() const;
  QString verifyText() const { return verify_text_; }  // the last verification's report

  const Results* results() const;  // the last finished run, or null
  std::size_t liveRows() const;
  QString projectName() const;
  QString bannerText() const;
  bool bannerShown() const;
  ArmView* armView() const { return view_; }
  // The whole window as the user sees it, the 3D view's native GL window included.
  QImage screenshot();
  const MultibodySystem* system() const;  // the open project's (the document's), or null
  RunSession* session() const { return session_; }
  PlotPanel* plots() const { return plots_; }
  Timeline* timeline() const { return timeline_; }
  ProjectDocument* document() const { return document_; }
  // How long a change waits for the edited model's system before the window answers and builds it in
  // the background (250 ms: a model of a few links builds in milliseconds, a fine mesh in a second).
  void setSystemBuildGrace(std::chrono::milliseconds grace) { system_build_grace_ = grace; }
  ModelTree* modelTree() const { return model_tree_; }
  PropertyEditor* propertyEditor() const { return properties_; }
  AutoSave* autoSave() const { return autosave_; }
  ModePreview* modePreview() const { return modes_; }
  void showModePreview();  // Analysis > Natural modes: the dock, shown and raised
  // The modes dock's Frequency response...: the Bode dialog (non-modal, deleted when closed) on a copy
  // of the project; nullptr (and a message) for an empty chain.
  FrequencyResponseDialog* showFrequencyResponse();
  static QString examplesDirectory();
  // Before a project is opened or started: the start page (New, Open, the examples, Recent) in place
  // of the 3D view.
  bool startPageShown() const;
  StartPage* startPage() const { return start_; }

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
  std::string exportParaViewTo(const QString& dir, bool* cancelled = nullptr);
  // Analysis > Campbell diagram: the dialog (made on first use), shown and raised.
  CampbellDialog* showCampbellDialog();
  StaticDialog* showStaticDialog();

  // Where Save As starts: the project's file, else a file named after the project in the last folder
  // saved to or the documents folder.
  QString suggestedSavePath() const;

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  void buildActions();
  void buildRunActions(QMenu* menu);
  void buildHelpMenu();
  void updateRunActions();
  void showProgress();
  // ExportSource: what the File > Export reactions take from this window.
  QWidget* exportWindow() override;
  bool exportReady() override;
  void exportReport(const QString& text) override;
  std::shared_ptr<const Results> csvTable(std::string& why) override;
  QCustomPlot* plotToExport() override;
  QImage viewsImage() override;
  std::vector<double> animationTimes(std::string& why) override;
  QImage animationFrame(double t) override;
  std::optional<BundleRequest> bundleRequest(std::string& why) override;
  std::vector<SeriesRun> seriesRuns(std::string& why) override;
  void onDocumentChanged();
  void onSystemBuilt();  // the edited project's system is ready: the run, the view and the form take it
  void updateTitle();
  bool refusedWhileRunning(const QString& what);  // true (and a banner) while a simulation runs
  bool maybeSave();                               // before unsaved changes would be lost: false when the user cancels
  int ask(const QString& title, const QString& text, int buttons);
  void buildDocks();
  // `about_results`: the banner describes the run's results (its divergence, its verification, its speed)
  // and goes with them when an edit, an undo or a redo clears them.
  void showBanner(const QString& text, bool error, bool about_results = false);
  void log(const QString& text);
  void poll();
  void onFinished();
  const Project* project() const;  // the open project, or null (the empty chain)
  void showRow(int row);
  void addRecent(const QString& path);
  void refreshRecentMenu();
  QString projectDirectory() const;  // where relative table files of the project resolve
  bool saveAs();
  void openWithDialog();  // File > Open
  void showStartPage(bool on);

  ArmView* view_;
  StartPage* start_;
  QStackedWidget* central_;
  std::vector<QDockWidget*> docks_behind_start_;  // hidden while the start page is shown
  RunAdvice advice_;                              // why the current run may be slow, and what to try
  bool advice_logged_ = false;                    // said in the messages once per run
  bool awaiting_system_ = false;                  // the edited project's system is still being built
  std::chrono::milliseconds system_build_grace_{250};
  PlotPanel* plots_;
  Timeline* timeline_;
  RunSession* session_;  // the open project, its system, the run and its results
  ProjectDocument* document_;
  AutoSave* autosave_;
  ModelTree* model_tree_;
  PropertyEditor* properties_;
  ModePreview* modes_;
  QPointer<CampbellDialog> campbell_;
  QPointer<StaticDialog> static_;
  std::function<int(const QString&, const QString&, int)> question_handler_;
  QPlainTextEdit* log_;
  QLabel* banner_;
  bool banner_about_results_ = false;  // the banner describes the results (showBanner)
  QLabel* stats_;
  QProgressBar* progress_;
  QTimer* poll_timer_;
  QMenu* recent_menu_;
  QDoubleSpinBox* scale_;
  QComboBox* colouring_;
  QAction *run_action_, *pause_action_, *stop_action_, *verify_action_, *continue_action_;
  QFutureWatcher<Results>* verify_watcher_;
  QString verify_text_;
  QString run_method_;        // what the current run integrates with ("Generalized-α (auto)")
  ExportReactions* exports_;  // File > Export

  QString project_path_;
  std::vector<double> plot_backlog_;  // rows received but not yet plotted
  std::size_t shown_row_ = static_cast<std::size_t>(-1);
  unsigned poll_tick_ = 0;
  std::vector<QPointer<CompareWindow>> compares_;
};

}  // namespace flexarm
