#include "ui/workbench/MainWindow.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QComboBox>
#include <QDockWidget>
#include <algorithm>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QScreen>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "discretization/Coordinates.hpp"
#include "io/ProjectFile.hpp"
#include "results/RowCoordinates.hpp"
#include "model/SolverMethods.hpp"
#include "solvers/Simulation.hpp"
#include "ui/compare/CompareDialog.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/document/AutoSave.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/editor/UrdfImportDialog.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/editor/WheelGuard.hpp"
#include "ui/analysis/CampbellDialog.hpp"
#include "ui/analysis/StaticDialog.hpp"
#include "ui/export/ExportReactions.hpp"
#include "ui/run/RunAdvice.hpp"
#include "ui/run/RunSession.hpp"
#include "ui/run/RunSummary.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/ModePreview.hpp"
#include "ui/workbench/FrequencyResponseDialog.hpp"
#include "ui/view/PlotPanel.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/HelpDialogs.hpp"
#include "ui/workbench/StartPage.hpp"

namespace flexarm {
namespace {
QString num(double x) { return QString::number(x, 'g', 6); }
}  // namespace

QString MainWindow::examplesDirectory() {
  const QByteArray env = qgetenv("FLEXARM_PROJECTS");
  if (!env.isEmpty()) return QString::fromLocal8Bit(env);
  const QString beside = QCoreApplication::applicationDirPath() + "/../../projects";
  if (QDir(beside).exists()) return QDir(beside).canonicalPath();
  // Installed (the Debian package): <prefix>/bin/flexarm and <prefix>/share/flexarm/projects.
  const QString installed = QCoreApplication::applicationDirPath() + "/../share/flexarm/projects";
  if (QDir(installed).exists()) return QDir(installed).canonicalPath();
  return QStringLiteral(FLEXARM_PROJECTS_DIR);
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  WheelGuard::install();  // scrolling over a field never edits it, in every form and dialog
  setWindowTitle("FlexArm");
  setAcceptDrops(true);
  setObjectName("FlexArmMainWindow");
  document_ = new ProjectDocument(this);
  autosave_ = new AutoSave(document_, this);
  view_ = new ArmView(this);
  timeline_ = new Timeline(this);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  banner_->setVisible(false);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* work = new QWidget(this);
  auto* layout = new QVBoxLayout(work);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_, 1);
  layout->addWidget(timeline_);
  start_ = new StartPage(examplesDirectory(), this);
  connect(start_, &StartPage::newRequested, this, [this] { newProjectWizard(); });
  connect(start_, &StartPage::openRequested, this, &MainWindow::openWithDialog);
  connect(start_, &StartPage::openPath, this, [this](const QString& path) { openProject(path); });
  central_ = new QStackedWidget(this);
  central_->addWidget(start_);
  central_->addWidget(work);
  // The banner above both pages: a project that cannot be opened from the start page says why there.
  auto* centre = new QWidget(this);
  auto* centre_layout = new QVBoxLayout(centre);
  centre_layout->setContentsMargins(0, 0, 0, 0);
  centre_layout->setSpacing(0);
  centre_layout->addWidget(banner_);
  centre_layout->addWidget(central_, 1);
  setCentralWidget(centre);

  session_ = new RunSession(this);
  connect(session_, &RunSession::finished, this, &MainWindow::onFinished);
  poll_timer_ = new QTimer(this);
  poll_timer_->setInterval(50);  // 20 updates per second while a run goes
  connect(poll_timer_, &QTimer::timeout, this, &MainWindow::poll);
  connect(timeline_, &Timeline::rowChanged, this, [this](int row, double t) {
    modes_->stopAnimation();              // the view follows the timeline again
    if (poll_timer_->isActive()) return;  // while a run streams in, poll() paces the view and the plots
    modes_->refreshSource();              // the run's configuration at this time
    showRow(row);
    plots_->setTimeCursor(t);
  });

  buildDocks();
  buildActions();
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMinimumWidth(200);
  progress_->setMaximumWidth(260);
  progress_->setFormat("t = %v");
  stats_ = new QLabel(this);
  statusBar()->addWidget(stats_, 1);
  statusBar()->addPermanentWidget(progress_);

  QSettings settings;
  if (!restoreGeometry(settings.value("window/geometry").toByteArray())) {
    // First start: most of the screen (at most 1600 x 1000), the Properties dock wide enough for its forms.
    const QSize screen = QGuiApplication::primaryScreen() ? QGuiApplication::primaryScreen()->availableSize() : QSize(1366, 768);
    resize(std::min(1600, screen.width() * 9 / 10), std::min(1000, screen.height() * 9 / 10));
  }
  if (!restoreState(settings.value("window/state").toByteArray()))
    resizeDocks({findChild<QDockWidget*>("dock.model"), findChild<QDockWidget*>("dock.properties")}, {220, 440}, Qt::Horizontal);
  refreshRecentMenu();
  connect(document_, &ProjectDocument::changed, this, &MainWindow::onDocumentChanged);
  connect(document_, &ProjectDocument::systemBuilt, this, [this] {
    if (awaiting_system_) onSystemBuilt();
  });
  connect(document_, &ProjectDocument::dirtyChanged, this, &MainWindow::updateTitle);
  onDocumentChanged();
  showStartPage(true);  // until a project is opened or started
}

bool MainWindow::startPageShown() const { return central_->currentWidget() == start_; }

// The start page stands alone (the docks would show an untitled project nobody started); the docks
// shown before come back with the first project.
void MainWindow::showStartPage(bool on) {
  if (on == startPageShown()) return;
  if (on) {
    for (QDockWidget* d : findChildren<QDockWidget*>())
      if (!d->isHidden()) {
        docks_behind_start_.push_back(d);
        d->hide();
      }
    central_->setCurrentWidget(start_);
    stats_->setText("Start: a new project, an example or a recent one");  // not the docks the page hides
  } else {
    central_->setCurrentIndex(1);
    for (QDockWidget* d : docks_behind_start_) d->show();
    docks_behind_start_.clear();
    findChild<QDockWidget*>("dock.plots")->raise();  // in front of the messages, as at the start
  }
}

void MainWindow::openWithDialog() {
  const QString path = QFileDialog::getOpenFileName(this, "Open project", examplesDirectory(), "FlexArm projects (*.json)");
  if (!path.isEmpty()) openProject(path);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  model_tree_ = new ModelTree(document_, this);
  properties_ = new PropertyEditor(document_, this);
  connect(model_tree_, &ModelTree::currentChanged, properties_, &PropertyEditor::showItem);
  auto refused = [this](const QString& message) {
    log("edit refused: " + message);
    statusBar()->showMessage(message.section('\n', 0, 0), 8000);
  };
  connect(model_tree_, &ModelTree::refused, this, refused);
  connect(properties_, &PropertyEditor::refused, this, refused);
  plots_ = new PlotPanel(this);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  auto dock = [this](const QString& title, QWidget* w, Qt::DockWidgetArea area, const char* name) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  dock("Model", model_tree_, Qt::LeftDockWidgetArea, "dock.model");
  dock("Properties", properties_, Qt::RightDockWidgetArea, "dock.properties");
  properties_->setMinimumWidth(400);
  model_tree_->setMinimumWidth(170);  // the item names stay readable when the Properties dock is widened
  // Natural modes about the edited configuration or the run's configuration at the timeline's time.
  modes_ = new ModePreview(
      view_,
      [this] {
        ModePreview::Source s;
        s.project = document_->project();
        s.system = document_->systemReady() ? document_->system() : nullptr;  // never waits for a build
        Eigen::VectorXd q;
        const int row = timeline_->row();
        if (session_->results() && !isRunning() && row >= 0 && session_->stateAtRow(static_cast<std::size_t>(row), q)) {
          s.run_q = q;
          s.run_time = timeline_->time();
        }
        return s;
      },
      this);
  connect(modes_, &ModePreview::animationStarted, this, [this] { timeline_->setPlaying(false); });
  connect(modes_, &ModePreview::frequencyResponseRequested, this, [this] { showFrequencyResponse(); });
  QDockWidget* modes = dock("Natural modes", modes_, Qt::RightDockWidgetArea, "dock.modes");
  tabifyDockWidget(findChild<QDockWidget*>("dock.properties"), modes);
  modes->hide();
  dock("Plots", plots_, Qt::BottomDockWidgetArea, "dock.plots");
  auto* logdock = dock("Messages", log_, Qt::BottomDockWidgetArea, "dock.log");
  tabifyDockWidget(logdock, findChild<QDockWidget*>("dock.plots"));
  findChild<QDockWidget*>("dock.plots")->raise();
}

void MainWindow::buildActions() {
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&New...", QKeySequence::New, this, [this] { newProjectWizard(); })
      ->setToolTip("Start a project: an empty arm, a template with its first values, or a copy of an example");
  file->addAction("&Open...", QKeySequence::Open, this, &MainWindow::openWithDialog)
      ->setToolTip("Open a .flexarm.json project file");
  file->addAction("&Import URDF...", this, [this] { importUrdfWithDialog(); })
      ->setToolTip("A robot described in URDF as a new project: choose the tip of the chain and the flexible links");
  QMenu* examples = file->addMenu("Open &Example");
  for (const QFileInfo& fi : QDir(examplesDirectory()).entryInfoList({"*.flexarm.json"}, QDir::Files, QDir::Name)) {
    const QString path = fi.absoluteFilePath();
    examples->addAction(fi.fileName().remove(".flexarm.json"), this, [this, path] { openProject(path); })->setToolTip(path);
  }
  recent_menu_ = file->addMenu("Open &Recent");
  file->addAction("&Save", QKeySequence::Save, this,
                  [this] { document_->path().isEmpty() ? saveAs() : saveProject(document_->path()); });
  file->addAction("Save &As...", QKeySequence::SaveAs, this, [this] { saveAs(); })
      ->setToolTip("Save under another name (.flexarm.json is added to a name without an extension)");
  QMenu* exports = file->addMenu("&Export");
  exports_ = new ExportReactions(
      *this,
      {{"csv", "Export CSV", [this] { return QString::fromStdString(caseFileName(project()->name)) + ".csv"; }},
       {"view", "Export the 3D view", [] { return QString("view.png"); }},
       "main",
       "bundle",
       "paraview"},
      this);
  exports_->csv->attachTo(exports->addAction("Results &CSV..."));
  exports_->plot->attachTo(exports->addAction("&Plot (PNG, PDF, SVG)..."));
  exports_->views->attachTo(exports->addAction("3D &view (PNG)..."));
  exports_->animation->attachTo(exports->addAction("&Animation (PNG frames, MP4)..."));
  exports_->bundle->attachTo(exports->addAction("&Report bundle..."));
  exports_->paraview->attachTo(exports->addAction("Para&View series..."))
      ->setToolTip("The run as a ParaView time series: arm.pvd and one .vtp file per output time");
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu("&Edit");
  edit->addAction(document_->createUndoAction(this));
  edit->addAction(document_->createRedoAction(this));
  edit->addSeparator();
  edit->addActions(model_tree_->actions());

  buildRunActions(menuBar()->addMenu("&Simulation"));

  QMenu* cmp = menuBar()->addMenu("&Compare");
  cmp->addAction("&Zero vs high order", this, [this] { compareZeroVsHigh(); })
      ->setToolTip("Run the project with zero- and high-order rigid-flexible coupling side by side");
  cmp->addAction("Compare &variants...", this, [this] {
    if (!project()) return;
    CompareDialog d(*project(), projectDirectory(), this);
    if (d.exec() == QDialog::Accepted) compare(d.cases());
  });

  QMenu* analysis = menuBar()->addMenu("&Analysis");
  QAction* statics = analysis->addAction("&Static equilibrium...", this, [this] { showStaticDialog(); });
  statics->setObjectName("action.staticEquilibrium");
  statics->setToolTip(
      "Where the arm comes to rest under gravity, its loads and its drives: joint positions and efforts, "
      "tip deflections; shown in the 3D view");
  analysis->addAction("Natural &modes...", this, [this] { showModePreview(); })
      ->setToolTip("Natural frequencies at the current configuration; animate a mode shape in the 3D view");
  analysis->addAction("&Campbell diagram...", this, [this] { showCampbellDialog(); })
      ->setToolTip("Natural frequencies against a steady spin of joint 1, per coupling order; where a mode turns unstable");
  QAction* response = analysis->addAction("&Frequency response...", this, [this] { showFrequencyResponse(); });
  response->setObjectName("action.frequencyResponse");
  response->setToolTip("Bode plot from a joint's effort to a tip deflection or a joint angle, about the current configuration");
  QMenu* view = menuBar()->addMenu("&View");
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

  QToolBar* tb = addToolBar("Run");
  tb->setObjectName("toolbar.run");
  tb->addActions({run_action_, pause_action_, stop_action_});
  tb->addSeparator();
  tb->addWidget(new QLabel(" deformation x ", this));
  scale_ = new QDoubleSpinBox(this);
  scale_->setRange(1.0, 1000.0);
  scale_->setDecimals(0);
  scale_->setToolTip("Deformation scale factor: elastic deformation drawn this many times larger");
  connect(scale_, &QDoubleSpinBox::valueChanged, this, [this](double s) { view_->setDeformationScale(s); });
  tb->addWidget(scale_);
  QAction* ghost = tb->addAction("Ghost", this, [this](bool on) { view_->setGhostVisible(on); });
  ghost->setCheckable(true);
  ghost->setChecked(true);
  ghost->setToolTip("Show the undeformed (rigid) arm");
  QAction* frames = tb->addAction("Frames", this, [this](bool on) { view_->setFramesVisible(on); });
  frames->setCheckable(true);
  colouring_ = new QComboBox(this);
  colouring_->addItems({"Plain", "Curvature", "Strain"});
  colouring_->setCurrentIndex(static_cast<int>(ArmView::Colouring::Curvature));
  colouring_->setToolTip("Colour flexible links by bending curvature [1/m] or surface strain magnitude [-]");
  connect(colouring_, &QComboBox::currentIndexChanged, this,
          [this](int i) { view_->setColouring(static_cast<ArmView::Colouring>(i)); });
  tb->addWidget(colouring_);
  tb->addSeparator();
  tb->addAction("Front", this, [this] { view_->viewPreset(ArmView::Preset::Front); });
  tb->addAction("Top", this, [this] { view_->viewPreset(ArmView::Preset::Top); });
  tb->addAction("Iso", this, [this] { view_->viewPreset(ArmView::Preset::Iso); });
  tb->addAction("Fit", this, [this] { view_->fitArm(); })->setToolTip("Frame all that the arm can sweep");
  buildHelpMenu();
  for (QMenu* m : menuBar()->findChildren<QMenu*>()) m->setToolTipsVisible(true);  // what each item does, on hover
}

// Help: the user guide (the tutorial, the workbench and the project format, compiled in), the keyboard
// shortcuts, About.
void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu("&Help");
  auto action = [this, help](const QString& text, const char* name, const QString& tip, auto open) {
    QAction* a = help->addAction(text, this, open);
    a->setObjectName(name);
    a->setToolTip(tip);
    return a;
  };
  action("&User guide", "help.guide",
         "Getting started, the workbench and the project file format, with contents and search; F1 on a form field opens "
         "the format's section about it",
         [this] { makeUserGuide(this, properties_->pathOf(QApplication::focusWidget()))->show(); })
      ->setShortcut(QKeySequence::HelpContents);
  action("&Keyboard shortcuts", "help.shortcuts", "Every key of the menus and the 3D view's mouse controls",
         [this] { makeShortcutsDialog(this)->show(); });
  action("&About FlexArm", "help.about", "The version, and the libraries FlexArm is built on with their licences", [this] {
    auto* box = new QMessageBox(QMessageBox::Information, "About FlexArm", aboutText(), QMessageBox::Close, this);
    box->setObjectName("help.aboutBox");
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
}

// Run, Pause and Stop: in the Simulation menu and the run toolbar, each with its key (F5, F6, Shift+F5)
// in the menu and the tooltip.
void MainWindow::buildRunActions(QMenu* menu) {
  auto action = [this, menu](QStyle::StandardPixmap icon, const QString& text, const char* name, const QKeySequence& key,
                             const QString& tip) {
    auto* a = menu->addAction(style()->standardIcon(icon), text);
    a->setObjectName(name);
    a->setShortcut(key);
    a->setToolTip(QString("%1 (%2): %3").arg(QString(text).remove('&'), key.toString(QKeySequence::NativeText), tip));
    a->setStatusTip(tip);
    return a;
  };
  run_action_ = action(QStyle::SP_MediaPlay, "&Run", "action.run", Qt::Key_F5, "simulate the project, or resume a paused run");
  pause_action_ = action(QStyle::SP_MediaPause, "&Pause", "action.pause", Qt::Key_F6,
                         "hold the running simulation between two steps; F6 again or Run resumes it");
  pause_action_->setCheckable(true);
  stop_action_ = action(QStyle::SP_MediaStop, "&Stop", "action.stop", QKeySequence(Qt::SHIFT | Qt::Key_F5),
                        "end the run; the results so far are kept");
  menu->addSeparator();
  auto plain = [menu](const QString& text, const char* name, const QString& tip) {
    auto* a = menu->addAction(text);
    a->setObjectName(name);
    a->setToolTip(tip);
    a->setStatusTip(tip);
    return a;
  };
  continue_action_ = plain("&Continue from the end", "action.continue",
                           "start the project where the last run (completed or stopped) ended: its last state becomes the "
                           "initial state and start time, and the run goes on for as long again (Edit > Undo goes back)");
  connect(continue_action_, &QAction::triggered, this, [this] { continueLastRun(); });
  verify_action_ = plain("&Verify error estimate", "action.verify",
                         "run the project again at a tenth of its accuracy and compare: the measured error of each "
                         "output next to its estimate");
  connect(verify_action_, &QAction::triggered, this, [this] { verifyLastRun(); });
  verify_watcher_ = new QFutureWatcher<Results>(this);
  connect(verify_watcher_, &QFutureWatcherBase::finished, this, [this] {
    const Results checked = verify_watcher_->result();
    verify_text_ = "Verified against a run at accuracy " + QString::number(0.1 * checked.accuracy, 'g', 2) + ":\n" +
                   runErrorDetails(checked);
    log(verify_text_);
    stats_->setToolTip(verify_text_);
    showBanner(verify_text_, false, /*about_results=*/true);
    updateRunActions();
  });
  connect(run_action_, &QAction::triggered, this, [this] { runSimulation(); });
  connect(pause_action_, &QAction::triggered, this, [this](bool on) { setSimulationPaused(on); });
  connect(stop_action_, &QAction::triggered, this, [this] { stopSimulation(); });
}

// Run is offered without a run going or to resume a paused one; Pause and Stop while a run goes.
void MainWindow::updateRunActions() {
  const bool running = isRunning(), paused = running && session_->isPaused();
  run_action_->setEnabled(project() != nullptr && (!running || paused));
  pause_action_->setEnabled(running);
  pause_action_->setChecked(paused);
  stop_action_->setEnabled(running);
  verify_action_->setEnabled(!running && results() != nullptr && !isVerifying());
  continue_action_->setEnabled(!running && results() != nullptr && results()->rows() > 0 &&
                               (results()->status == RunStatus::Completed || results()->status == RunStatus::Cancelled));
}

bool MainWindow::continueLastRun() {
  const Results* r = results();
  if (isRunning() || !project() || !r || r->rows() == 0 ||
      (r->status != RunStatus::Completed && r->status != RunStatus::Cancelled)) {
    showBanner("Nothing to continue: run the project first (a completed or stopped run continues).", true);
    return false;
  }
  const std::shared_ptr<const MultibodySystem> sys = document_->system();
  if (!sys) {
    showBanner("Cannot continue the run: the model has no system to run.", true);
    return false;
  }
  Project next = *project();
  const std::size_t last = r->rows() - 1;
  const double t = r->value(last, 0);
  next.simulation.t_end = t + (next.simulation.t_end - next.simulation.t_start);
  MultibodySystem continued_system = *sys;  // the document builds the continued project's own
  if (const Status continued = continueFromRow(next, continued_system, *r, last); !continued) {
    showBanner("Cannot continue the run: " + QString::fromStdString(continued.error().text()), true);
    return false;
  }
  QString error;
  if (!document_->apply(QString("Continue the run from t = %1 s").arg(num(t)), projectToJson(next), &error)) {
    showBanner("Cannot continue the run: " + error, true);
    return false;
  }
  runSimulation();
  return true;
}

bool MainWindow::isVerifying() const { return verify_watcher_->isRunning(); }

bool MainWindow::verifyLastRun() {
  if (isRunning() || isVerifying() || !results() || !project() || results()->status != RunStatus::Completed) {
    if (!results()) showBanner("Nothing to verify yet: run the project first.", true);
    return false;
  }
  const Project p = *project();
  const std::shared_ptr<const MultibodySystem> sys = document_->system();
  const std::shared_ptr<const Results> done = session_->sharedResults();
  log("verifying the error estimate: a run at accuracy " + QString::number(0.1 * p.simulation.accuracy, 'g', 2));
  verify_watcher_->setFuture(QtConcurrent::run([p, sys, done] {
    Results copy = *done;
    verifyErrors(*sys, p.simulation, copy);
    return copy;
  }));
  updateRunActions();
  return true;
}

void MainWindow::setSimulationPaused(bool paused) {
  if (!isRunning() || paused == session_->isPaused()) return updateRunActions();
  session_->setPaused(paused);
  log(paused ? QString("run paused at t = %1 s").arg(num(session_->simulatedTime())) : QString("run resumed"));
  updateRunActions();
  showProgress();  // the status says so at once
}

bool MainWindow::isPaused() const { return isRunning() && session_->isPaused(); }
QString MainWindow::statusText() const { return stats_->text(); }
QString MainWindow::progressText() const { return progress_->text(); }

bool MainWindow::newProject() {
  if (refusedWhileRunning("starting a new project")) return false;
  if (!maybeSave()) return false;
  // A single rigid rod on a free revolute joint, hanging in gravity: a valid start for editing.
  const Json fresh = Json::parse(R"({"format": "flexarm-project", "schema_version": 1, "name": "Untitled",
    "links": [{"name": "link1", "length": 1.0, "mass": 1.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "joint1", "type": "revolute", "axis": [0, 1, 0]}]})");
  if (!document_->reset(fresh, QString())) return false;
  banner_->setVisible(false);
  view_->viewPreset(ArmView::Preset::Iso);
  log("new project");
  return true;
}

bool MainWindow::newEmptyProject() {
  if (refusedWhileRunning("starting a new project")) return false;
  if (!maybeSave()) return false;
  document_->resetEmpty();
  banner_->setVisible(false);
  view_->viewPreset(ArmView::Preset::Iso);  // the empty scene seen as every arm is first seen
  log("new empty project: add links with + Link in the Model dock");
  return true;
}

bool MainWindow::refusedWhileRunning(const QString& what) {
  if (!isRunning()) return false;
  showBanner("Stop the running simulation before " + what + ".", true);
  return true;
}

bool MainWindow::newProjectWizard() {
  if (refusedWhileRunning("starting a new project")) return false;
  if (!maybeSave()) return false;
  NewProjectWizard wizard(examplesDirectory(), this);
  if (wizard.exec() != QDialog::Accepted) return false;
  const std::optional<Json> doc = wizard.document();
  return doc && newProjectFrom(*doc);
}

bool MainWindow::importUrdfWithDialog() {
  if (refusedWhileRunning("importing a robot")) return false;
  const QString file = QFileDialog::getOpenFileName(this, "Import URDF", QString(), "URDF robots (*.urdf *.xml);;All files (*)");
  return !file.isEmpty() && importUrdf(file);
}

bool MainWindow::importUrdf(const QString& file) {
  if (refusedWhileRunning("importing a robot")) return false;
  if (!maybeSave()) return false;
  UrdfImportDialog dialog(file, this);
  if (dialog.exec() != QDialog::Accepted || !dialog.document()) return false;
  for (const QString& line : dialog.messages().split('\n', Qt::SkipEmptyParts)) log(QFileInfo(file).fileName() + ": " + line);
  return newProjectFrom(*dialog.document());
}

bool MainWindow::newProjectFrom(const Json& doc) {
  if (refusedWhileRunning("starting a new project")) return false;
  QString error;
  if (!document_->startUnsaved(doc, &error)) {
    showBanner("Could not start the new project:\n" + error, true);
    log("new project refused: " + error);
    return false;
  }
  banner_->setVisible(false);
  view_->viewPreset(ArmView::Preset::Iso);
  log("new project \"" + document_->displayName() + "\" (untitled: File > Save asks where)");
  return true;
}

bool MainWindow::openProject(const QString& path) {
  if (refusedWhileRunning("opening another project")) return false;
  LoadedProject loaded = loadProjectFile(path.toStdString());
  for (const Diagnostic& d : loaded.diagnostics.all()) log(QFileInfo(path).fileName() + ": " + QString::fromStdString(d.text()));
  if (!loaded.project) {
    QString text = "Could not open " + QFileInfo(path).fileName() + ":";
    for (const Diagnostic& d : loaded.diagnostics.all())
      if (d.severity == Diagnostic::Severity::Error) text += "\n" + QString::fromStdString(d.text());
    showBanner(text, true);
    return false;
  }
  if (!maybeSave()) return false;
  QString error;
  if (!document_->open(path, &error)) {
    showBanner("Could not open " + QFileInfo(path).fileName() + ":\n" + error, true);
    return false;
  }
  banner_->setVisible(false);
  view_->viewPreset(ArmView::Preset::Iso);
  addRecent(path);
  log("opened " + path);
  offerRecovery(document_->path());
  return true;
}

bool MainWindow::offerRecovery(const QString& path) {
  const std::optional<AutoSave::Recovery> r = AutoSave::find(path);
  if (!r) return false;
  const QString what = path.isEmpty() ? QString("an untitled project") : QFileInfo(path).fileName();
  const QString when = r->saved_at.isValid() ? r->saved_at.toString("yyyy-MM-dd HH:mm:ss") : QString("an earlier session");
  const int answer = ask("Recover unsaved changes",
                         "FlexArm was closed without saving the changes to " + what + " (autosaved " + when + "). Restore them?",
                         QMessageBox::Yes | QMessageBox::No);
  if (answer != QMessageBox::Yes) {
    AutoSave::discard(path);
    log("recovery of " + what + " discarded");
    return false;
  }
  if (path.isEmpty() && !document_->path().isEmpty()) document_->resetEmpty();
  QString error;
  if (!AutoSave::restore(*document_, *r, &error)) {
    showBanner("Could not restore the unsaved changes to " + what + ":\n" + error, true);
    return false;
  }
  log("restored the unsaved changes to " + what + " from " + when);
  return true;
}

void MainWindow::setQuestionHandler(std::function<int(const QString&, const QString&, int)> handler) {
  question_handler_ = std::move(handler);
}

int MainWindow::ask(const QString& title, const QString& text, int buttons) {
  if (question_handler_) return question_handler_(title, text, buttons);
  return QMessageBox::question(this, title, text, QMessageBox::StandardButtons(buttons));
}

bool MainWindow::maybeSave() {
  if (!document_->isDirty()) return true;
  const int answer = ask("Unsaved changes", "Save the changes to " + document_->displayName() + "?",
                         QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return document_->path().isEmpty() ? saveAs() : saveProject(document_->path());
  if (answer == QMessageBox::Discard) {
    autosave_->removeCurrent();
    return true;
  }
  return false;
}

FrequencyResponseDialog* MainWindow::showFrequencyResponse() {
  if (!project()) {
    QMessageBox::information(this, "Frequency response", "The chain is empty: add a link (+ Link in the Model dock) first.");
    return nullptr;
  }
  auto* dialog = new FrequencyResponseDialog(*project(), modes_->spinRate(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

void MainWindow::showModePreview() {
  QDockWidget* d = findChild<QDockWidget*>("dock.modes");
  d->show();
  d->raise();
  modes_->refreshSource();
}

void MainWindow::onDocumentChanged() {
  // Before the view takes the new model: the animation gives the view back. Another project (opened,
  // new) keeps nothing of the one before; an edit leaves the modes, out of date, until Compute.
  if (document_->wasReplaced())
    modes_->projectReplaced();
  else
    modes_->documentChanged();
  const Project* p = document_->project();
  project_path_ = document_->path();
  showStartPage(false);  // a project (or the empty chain started on purpose): the view, not the start page
  // No results of the model before: no times, no curves, no progress, no banner about them.
  if (banner_about_results_) banner_->setVisible(false);
  timeline_->setTimes({});
  plots_->setChannels({}, {});
  progress_->reset();
  model_tree_->refresh();
  updateTitle();
  // A model of a few links builds in milliseconds: wait that long rather than flash a busy state. A fine
  // mesh builds on its worker thread while the window answers; Run waits for it.
  if (document_->systemReady(system_build_grace_)) return onSystemBuilt();
  awaiting_system_ = true;
  session_->clear();  // nothing of the model before the change can run
  properties_->refresh(nullptr);
  if (!(properties_->item() == model_tree_->current())) properties_->showItem(model_tree_->current());
  updateRunActions();
  stats_->setText(QString("building the model: %1 coordinates...").arg(p ? Coordinates::of(p->model).size() : 0));
}

void MainWindow::onSystemBuilt() {
  awaiting_system_ = false;
  const Project* p = document_->project();
  // The run's project and system are the document's; the results of the model before the change go.
  if (p)
    session_->setProject(*p, document_->system());
  else
    session_->clear();
  // A project opened or started (no edits yet) gets the camera fitted; an edit keeps the user's view.
  view_->setProject(p ? *p : Project{}, session_->sharedSystem(), /*keep_camera=*/!document_->wasReplaced());
  properties_->refresh(system());
  if (!(properties_->item() == model_tree_->current())) properties_->showItem(model_tree_->current());
  updateRunActions();
  stats_->setText(p ? QString("%1 coordinates, %2 s to simulate").arg(system()->nq).arg(num(p->simulation.t_end))
                    : QString("no links yet: add one with + Link in the Model dock"));
}

void MainWindow::updateTitle() { setWindowTitle(document_->displayName() + (document_->isDirty() ? "*" : "") + " - FlexArm"); }

void MainWindow::runSimulation() {
  if (isPaused()) return setSimulationPaused(false);  // Run resumes a paused run
  if (awaiting_system_) onSystemBuilt();              // waits for the edited model's system
  if (!project() || isRunning()) return;
  banner_->setVisible(false);
  plot_backlog_.clear();
  shown_row_ = static_cast<std::size_t>(-1);
  timeline_->setPlaying(false);
  timeline_->setTimes({});
  // The channels follow from the system: set the plots up now, not while rows stream in.
  const std::vector<Channel> channels = runChannels(*system(), project()->simulation);
  plots_->setChannels(channels, defaultPlotChannels(channels));
  modes_->setSimulationRunning(true);  // the view follows the run
  if (!session_->start()) {
    modes_->setSimulationRunning(false);
    return;
  }
  document_->setLocked(true);  // the run, the view and the plots follow this model until it ends
  model_tree_->setEnabled(false);
  properties_->setEnabled(false);
  updateRunActions();
  const SolverChoice choice = chooseSolver(*system(), project()->simulation);
  run_method_ = QString::fromUtf8(solverMethod(choice.settings.method).label) + (choice.automatic ? " (auto)" : "");
  log("run started: " + QString::fromStdString(describeRun(*system(), project()->simulation)));
  if (choice.automatic) log("auto chose " + QString::fromStdString(choice.summary + ": " + choice.reason));
  int elastic = 0;
  for (CoordinateKind k : system()->coordinates.kinds) elastic += k == CoordinateKind::Elastic ? 1 : 0;
  advice_ = slowRunAdvice(*project(), elastic);
  advice_logged_ = false;
  poll_timer_->start();
}

QImage MainWindow::screenshot() { return grabWithViews(this, {view_}); }

void MainWindow::stopSimulation() { session_->stop(); }

QString MainWindow::projectDirectory() const {
  return project_path_.isEmpty() ? QDir::currentPath() : QFileInfo(project_path_).absolutePath();
}

CompareWindow* MainWindow::compare(std::vector<StudyCase> cases) {
  if (!project()) return nullptr;
  if (cases.size() < 2) {
    showBanner("Compare needs two or more variants.", true);
    return nullptr;
  }
  auto* w = new CompareWindow(*project(), projectDirectory(), std::move(cases), this, document_->system());
  w->setWindowFlag(Qt::Window);
  QString why;
  if (!w->start(&why)) {
    showBanner("Cannot compare: " + why, true);
    delete w;
    return nullptr;
  }
  w->setAttribute(Qt::WA_DeleteOnClose);
  w->show();
  compares_.push_back(w);
  log(QString("comparing %1 variants of %2").arg(w->variantCount()).arg(QString::fromStdString(project()->name)));
  return w;
}

CompareWindow* MainWindow::compareZeroVsHigh() {
  return compare({{"coupling=zero", {"coupling=zero"}}, {"coupling=high", {"coupling=high"}}});
}

std::string MainWindow::exportCsvTo(const QString& file) { return exports_->csv->exportTo(file); }
std::string MainWindow::exportPlotTo(const QString& file, const ExportSize& size) { return exports_->plot->exportTo(file, size); }
std::string MainWindow::exportViewPng(const QString& file) { return exports_->views->exportTo(file); }
AnimationOutcome MainWindow::exportAnimationTo(const QString& dir, const AnimationSettings& settings) {
  return exports_->animation->exportTo(dir, settings);
}
BundleOutcome MainWindow::exportBundleTo(const QString& dir) { return exports_->bundle->exportTo(dir); }
std::string MainWindow::exportParaViewTo(const QString& dir, bool* cancelled) {
  return exports_->paraview->exportTo(dir, cancelled);
}

// What the export reactions take from this window: the last finished run, the plots, the 3D view.
QWidget* MainWindow::exportWindow() { return this; }

bool MainWindow::exportReady() {
  if (!results()) showBanner("Nothing to export yet: run the project first.", true);
  return results() != nullptr;
}

void MainWindow::exportReport(const QString& text) { log(text); }

std::shared_ptr<const Results> MainWindow::csvTable(std::string& why) {
  if (!results()) why = "nothing to export: run the project first";
  return session_->sharedResults();
}

QCustomPlot* MainWindow::plotToExport() { return plots_->plot(); }
QImage MainWindow::viewsImage() { return grabWithViews(view_, {view_}); }  // the colour bar too

std::vector<double> MainWindow::animationTimes(std::string& why) {
  if (!results() || isRunning() || results()->rows() == 0) {
    why = "nothing to animate: run the project first";
    return {};
  }
  timeline_->setPlaying(false);
  return results()->column("t");
}

QImage MainWindow::animationFrame(double t) {
  timeline_->setRow(static_cast<int>(session_->rowAt(t)));
  return viewsImage();
}

std::optional<BundleRequest> MainWindow::bundleRequest(std::string& why) {
  if (!results() || !project()) {
    why = "nothing to export: run the project first";
    return std::nullopt;
  }
  BundleRequest req;
  req.project = project();
  req.system = session_->sharedSystem();
  req.runs = {{"", results()}};
  req.command = "FlexArm workbench";
  return req;
}

StaticDialog* MainWindow::showStaticDialog() {
  if (!static_) {
    static_ = new StaticDialog([this] { return project(); }, [this] { return session_->sharedSystem(); }, this);
    connect(static_, &StaticDialog::stateFound, this, [this](const Eigen::VectorXd& q) {
      if (project() && session_->sharedSystem() && q.size() == session_->sharedSystem()->nq) view_->showState(q);
    });
  }
  static_->show();
  static_->raise();
  static_->activateWindow();
  return static_;
}

CampbellDialog* MainWindow::showCampbellDialog() {
  if (!campbell_) campbell_ = new CampbellDialog([this] { return project(); }, this);
  campbell_->show();
  campbell_->raise();
  campbell_->activateWindow();
  return campbell_;
}

std::vector<SeriesRun> MainWindow::seriesRuns(std::string& why) {
  if (!results() || !project() || !session_->sharedSystem()) {
    why = "nothing to export: run the project first";
    return {};
  }
  return {{"", project(), session_->sharedSystem(), session_->sharedResults()}};
}

bool MainWindow::isRunning() const { return session_->isRunning(); }
const Results* MainWindow::results() const { return session_->results(); }
std::size_t MainWindow::liveRows() const { return session_->live().rows(); }
const MultibodySystem* MainWindow::system() const { return session_->system(); }
const Project* MainWindow::project() const { return session_->project(); }

void MainWindow::poll() {
  std::vector<double> rows;
  const std::size_t count = session_->poll(&rows);
  const Results& live = session_->live();
  const std::size_t n = live.channels().size();
  if (count > 0) {
    std::vector<double> times;
    for (std::size_t r = 0; r < count; ++r) times.push_back(rows[r * n]);
    plot_backlog_.insert(plot_backlog_.end(), rows.begin(), rows.end());
    timeline_->appendTimes(times);
  }
  // Plots and the 3D view take turns (10 updates per second each): software rendering and a plot
  // replot in the same window repaint would hold the event loop too long.
  if (++poll_tick_ % 2 == 0) {
    if (!plot_backlog_.empty() && n > 0) plots_->appendRows(plot_backlog_, plot_backlog_.size() / n);
    plot_backlog_.clear();
  } else if (live.rows() > 0 && live.rows() != shown_row_ + 1) {
    shown_row_ = live.rows() - 1;
    showRow(static_cast<int>(shown_row_));
  }
  showProgress();
}

// The run's progress in the status bar: simulated time, working wall time and real-time factor (pauses
// excluded), the time left; while paused it says so, and the estimate stands still.
void MainWindow::showProgress() {
  const bool paused = session_->isPaused();
  const double t = session_->simulatedTime(), t_end = session_->endTime();
  progress_->setValue(static_cast<int>(1000.0 * t / std::max(t_end, 1e-12)));
  progress_->setFormat(QString("t = %1 / %2 s%3").arg(t, 0, 'f', 2).arg(t_end, 0, 'f', 2).arg(paused ? " (paused)" : ""));
  const double speed = session_->realTimeFactor();
  QString text = paused ? QString("Paused at t = %1 s (Run F5 or Pause F6 resumes)").arg(num(t)) : QString("running");
  if (!run_method_.isEmpty()) text += ", " + run_method_;
  text += QString(", %1 s wall").arg(session_->workingSeconds(), 0, 'f', 1);
  if (speed > 0) text += QString(", %1 x real time").arg(QString::number(speed, 'g', 3));
  text += ", " + timeLeftWords(session_->workingSeconds(), t, t_end);
  // Slower than real time (once the estimate has settled): why it may be, and what to try, in full in the
  // banner and the messages, once per run; the status bar says where to read it.
  const bool slow = !paused && speed > 0 && speed < 1 && session_->workingSeconds() > 1.0 && !advice_.empty();
  if (slow) text += " | slower than real time (see the banner)";
  if (slow && !advice_logged_) {
    QString why = "This run goes slower than real time. It may be slow because of " + advice_.causes + ".";
    if (!advice_.suggestions.isEmpty()) why += "\nTry " + advice_.suggestions + ".";
    showBanner(why, false, /*about_results=*/true);
  }
  advice_logged_ = advice_logged_ || slow;
  stats_->setText(text);
  stats_->setToolTip(text);
}

void MainWindow::onFinished() {
  session_->setPaused(false);  // a run stopped while paused: the next one starts unpaused
  poll();                      // the last rows, still paced by poll(): the timeline follows them without redrawing
  poll_timer_->stop();
  const std::size_t n = session_->live().channels().size();
  if (!plot_backlog_.empty() && n > 0) plots_->appendRows(plot_backlog_, plot_backlog_.size() / n);
  plot_backlog_.clear();
  const Results* r = session_->results();
  modes_->setSimulationRunning(false);
  document_->setLocked(false);
  model_tree_->setEnabled(true);
  properties_->setEnabled(true);
  updateRunActions();
  std::vector<double> times = r->column("t");
  timeline_->setTimes(times);
  const SolverStats& st = r->stats;
  const QString error = runErrorWords(*r);
  stats_->setText(
      QString("%1 at t = %2 s | %3, %4 steps, %5 RHS, %6 Jacobians, %7 s wall, %8 x real time%9")
          .arg(runStatusName(r->status))
          .arg(num(r->end_time))
          .arg(runMethodWords(*r))
          .arg(st.steps)
          .arg(st.rhs_evaluations)
          .arg(st.jacobian_evaluations)
          .arg(st.wall_time, 0, 'f', 2)
          .arg(QString::number((r->end_time - (r->rows() ? r->value(0, 0) : 0.0)) / std::max(st.wall_time, 1e-9), 'g', 3))
          .arg(error.isEmpty() ? QString() : " | " + error));
  stats_->setToolTip(runErrorDetails(*r));
  verify_text_.clear();
  progress_->setValue(static_cast<int>(1000.0 * r->end_time / std::max(project()->simulation.t_end, 1e-12)));
  log("run " + QString(runStatusName(r->status)) + ": " + stats_->text());
  if (const QString details = runErrorDetails(*r); !details.isEmpty()) log(details);
  plots_->setMarkers(earlyEndMarkers({{"", r}}));  // where it diverged or failed, as the README promises
  if (r->status == RunStatus::Failed || r->status == RunStatus::Diverged) {
    // The engine's message already says "diverged at t = ...: why": say it once ("Diverged at t = ...").
    QString what = QString::fromStdString(r->message);
    if (r->status == RunStatus::Diverged && what.startsWith("diverged "))
      what[0] = 'D';
    else
      what = QString(r->status == RunStatus::Diverged ? "Diverged: " : "Solver failure: ") + what;
    showBanner(what + QString("\nThe results up to t = %1 s are kept.").arg(num(r->end_time)), true, /*about_results=*/true);
  } else if (r->status == RunStatus::Cancelled) {
    log(QString::fromStdString(r->message));
  }
  if (!times.empty()) {
    // The last state, drawn now: the timeline followed the run to its end and does not signal again,
    // and poll() may have left the view a frame or two behind the run.
    timeline_->setRow(static_cast<int>(times.size()) - 1);
    showRow(timeline_->row());
    plots_->setTimeCursor(timeline_->time());
  }
  modes_->refreshSource();
}

void MainWindow::showRow(int row) {
  Eigen::VectorXd q;
  if (row >= 0 && session_->stateAtRow(static_cast<std::size_t>(row), q)) view_->showState(q);
}

QString MainWindow::projectName() const { return project() ? QString::fromStdString(project()->name) : QString(); }
QString MainWindow::bannerText() const { return banner_->text(); }
bool MainWindow::bannerShown() const { return banner_->isVisibleTo(this); }  // shown on the page the user sees

void MainWindow::showBanner(const QString& text, bool error, bool about_results) {
  banner_about_results_ = about_results;
  banner_->setText(text);
  banner_->setStyleSheet(error ? "QLabel { background: #fbe3e1; color: #8a1c12; border: 1px solid #d9534f; padding: 6px; }"
                               : "QLabel { background: #e8f2fb; color: #114; padding: 6px; }");
  banner_->setVisible(true);
  log(text);
}

void MainWindow::log(const QString& text) { log_->appendPlainText(text); }

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(QFileInfo(path).absoluteFilePath());
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recentFiles", recent);
  refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
  recent_menu_->clear();
  for (const QString& path : QSettings().value("recentFiles").toStringList())
    recent_menu_->addAction(path, this, [this, path] { openProject(path); });
  recent_menu_->setEnabled(!recent_menu_->isEmpty());
  start_->setRecent(QSettings().value("recentFiles").toStringList());
}

// Where Save As starts: the project's own file, else the documents folder (or the last folder saved to)
// with a file name from the project's name ("Steel boom" -> steel-boom.flexarm.json), never the
// process's working directory with an empty name.
QString MainWindow::suggestedSavePath() const {
  if (!project_path_.isEmpty()) return project_path_;
  QString dir = QSettings().value("lastSaveDir").toString();
  if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QDir::homePath();
  QString name;
  for (const QChar c : document_->displayName().toLower()) {
    if (c.isLetterOrNumber())
      name += c;
    else if (!name.isEmpty() && !name.endsWith('-'))
      name += '-';
  }
  while (name.endsWith('-')) name.chop(1);
  return QDir(dir).filePath((name.isEmpty() ? QString("untitled") : name) + ".flexarm.json");
}

bool MainWindow::saveAs() {
  const QString path =
      QFileDialog::getSaveFileName(this, "Save project", suggestedSavePath(), "FlexArm projects (*.flexarm.json)");
  return !path.isEmpty() && saveProject(path);
}

bool MainWindow::saveProject(const QString& name) {
  // A name without an extension gets the project's (the Open dialog lists *.json files).
  const QString path = QFileInfo(name).suffix().isEmpty() ? name + ".flexarm.json" : name;
  QString why;
  if (!document_->save(path, &why)) {
    showBanner(why, true);
    return false;
  }
  project_path_ = document_->path();
  QSettings().setValue("lastSaveDir", QFileInfo(project_path_).absolutePath());
  addRecent(path);
  updateTitle();
  log("saved " + path);
  return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const QList<QUrl> urls = e->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openProject(urls.front().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeSave()) {
    e->ignore();
    return;
  }
  autosave_->removeCurrent();
  session_->stop();
  showStartPage(false);  // the docks' state as the user left them, not hidden by the start page
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  QMainWindow::closeEvent(e);
}

}  // namespace flexarm
