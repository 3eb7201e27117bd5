#include "ui/MainWindow.hpp"

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
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "dynamics/Centreline.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"
#include "ui/ArmView.hpp"
#include "ui/CompareDialog.hpp"
#include "ui/CompareWindow.hpp"
#include "ui/ExportDialogs.hpp"
#include "ui/PlotExport.hpp"
#include "ui/PlotPanel.hpp"
#include "ui/SimulationController.hpp"
#include "ui/Timeline.hpp"

namespace flexarm {
namespace {
QString num(double x) { return QString::number(x, 'g', 6); }

QTreeWidgetItem* item(QTreeWidgetItem* parent, const QString& text, const QStringList& properties) {
  auto* it = new QTreeWidgetItem(parent, QStringList{text});
  it->setData(0, Qt::UserRole, properties);
  return it;
}
}  // namespace

QString MainWindow::examplesDirectory() {
  const QByteArray env = qgetenv("FLEXARM_PROJECTS");
  if (!env.isEmpty()) return QString::fromLocal8Bit(env);
  const QString beside = QCoreApplication::applicationDirPath() + "/../../projects";
  if (QDir(beside).exists()) return QDir(beside).canonicalPath();
  return QStringLiteral(FLEXARM_PROJECTS_DIR);
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle("FlexArm");
  setAcceptDrops(true);
  setObjectName("FlexArmMainWindow");
  view_ = new ArmView(this);
  timeline_ = new Timeline(this);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  banner_->setVisible(false);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(banner_);
  layout->addWidget(view_, 1);
  layout->addWidget(timeline_);
  setCentralWidget(central);

  controller_ = new SimulationController(this);
  connect(controller_, &SimulationController::finished, this, &MainWindow::onFinished);
  poll_timer_ = new QTimer(this);
  poll_timer_->setInterval(50);  // 20 updates per second while a run goes
  connect(poll_timer_, &QTimer::timeout, this, &MainWindow::poll);
  connect(timeline_, &Timeline::rowChanged, this, [this](int row, double t) {
    if (poll_timer_->isActive()) return;  // while a run streams in, poll() paces the view and the plots
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
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  refreshRecentMenu();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  tree_ = new QTreeWidget(this);
  tree_->setHeaderLabel("Model");
  properties_ = new QTableWidget(0, 2, this);
  properties_->setHorizontalHeaderLabels({"property", "value"});
  properties_->horizontalHeader()->setStretchLastSection(true);
  properties_->verticalHeader()->setVisible(false);
  properties_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) {
    const QStringList props = it ? it->data(0, Qt::UserRole).toStringList() : QStringList{};
    properties_->setRowCount(static_cast<int>(props.size()));
    for (int r = 0; r < props.size(); ++r) {
      const int eq = static_cast<int>(props[r].indexOf('='));
      properties_->setItem(r, 0, new QTableWidgetItem(props[r].left(eq)));
      properties_->setItem(r, 1, new QTableWidgetItem(props[r].mid(eq + 1)));
    }
  });
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
  dock("Model", tree_, Qt::LeftDockWidgetArea, "dock.model");
  dock("Properties", properties_, Qt::LeftDockWidgetArea, "dock.properties");
  dock("Plots", plots_, Qt::BottomDockWidgetArea, "dock.plots");
  auto* logdock = dock("Messages", log_, Qt::BottomDockWidgetArea, "dock.log");
  tabifyDockWidget(logdock, findChild<QDockWidget*>("dock.plots"));
  findChild<QDockWidget*>("dock.plots")->raise();
}

void MainWindow::buildActions() {
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&New", QKeySequence::New, this, [this] { newProject(); });
  file->addAction("&Open...", QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open project", examplesDirectory(), "FlexArm projects (*.json)");
    if (!path.isEmpty()) openProject(path);
  });
  QMenu* examples = file->addMenu("Open &Example");
  for (const QFileInfo& fi : QDir(examplesDirectory()).entryInfoList({"*.flexarm.json"}, QDir::Files, QDir::Name)) {
    const QString path = fi.absoluteFilePath();
    examples->addAction(fi.fileName().remove(".flexarm.json"), this, [this, path] { openProject(path); });
  }
  recent_menu_ = file->addMenu("Open &Recent");
  file->addAction("&Save", QKeySequence::Save, this, [this] {
    if (project_path_.isEmpty()) return saveAs();
    const std::string why = saveProjectFile(*project_, project_path_.toStdString());
    if (!why.empty()) return showBanner(QString::fromStdString(why), true);
    log("saved " + project_path_);
  });
  file->addAction("Save &As...", QKeySequence::SaveAs, this, [this] { saveAs(); });
  QMenu* exports = file->addMenu("&Export");
  auto needResults = [this] {
    if (!results_) showBanner("Nothing to export yet: run the project first.", true);
    return results_ != nullptr;
  };
  exports->addAction("Results &CSV...", this, [this, needResults] {
    if (!needResults()) return;
    const QString path = askSaveFile(this, "csv", "Export CSV", QString::fromStdString(caseFileName(project_->name)) + ".csv", "CSV (*.csv)");
    if (!path.isEmpty()) exportCsvTo(path);
  });
  exports->addAction("&Plot (PNG, PDF, SVG)...", this, [this, needResults] {
    QString path;
    ExportSize size;
    if (needResults() && askPlotExport(this, "main", path, size)) exportPlotTo(path, size);
  });
  exports->addAction("3D &view (PNG)...", this, [this] {
    const QString path = askSaveFile(this, "view", "Export the 3D view", "view.png", "PNG (*.png)");
    if (!path.isEmpty()) exportViewPng(path);
  });
  exports->addAction("&Animation (PNG frames, MP4)...", this, [this, needResults] {
    QString dir;
    AnimationSettings settings;
    if (needResults() && askAnimationExport(this, dir, settings)) exportAnimationTo(dir, settings);
  });
  exports->addAction("&Report bundle...", this, [this, needResults] {
    if (!needResults()) return;
    const QString dir = askDirectory(this, "bundle", "Folder for the report bundle");
    if (!dir.isEmpty()) exportBundleTo(dir);
  });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

  QMenu* cmp = menuBar()->addMenu("&Compare");
  cmp->addAction("&Zero vs high order", this, [this] { compareZeroVsHigh(); })
      ->setToolTip("Run the project with zero- and high-order rigid-flexible coupling side by side");
  cmp->addAction("Compare &variants...", this, [this] {
    if (!project_) return;
    CompareDialog d(*project_, projectDirectory(), this);
    if (d.exec() == QDialog::Accepted) compare(d.cases());
  });

  QToolBar* tb = addToolBar("Run");
  tb->setObjectName("toolbar.run");
  run_action_ = tb->addAction(style()->standardIcon(QStyle::SP_MediaPlay), "Run", this, [this] { runSimulation(); });
  run_action_->setShortcut(Qt::Key_F5);
  pause_action_ = tb->addAction(style()->standardIcon(QStyle::SP_MediaPause), "Pause", this,
                                [this] { controller_->setPaused(!controller_->isPaused()); });
  pause_action_->setCheckable(true);
  stop_action_ = tb->addAction(style()->standardIcon(QStyle::SP_MediaStop), "Stop", this, [this] { stopSimulation(); });
  pause_action_->setEnabled(false);
  stop_action_->setEnabled(false);
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
  tb->addAction("Fit", this, [this] { view_->fitArm(); });
}

bool MainWindow::newProject() {
  if (isRunning()) {
    showBanner("Stop the running simulation before starting a new project.", true);
    return false;
  }
  // A single rigid rod on a free revolute joint, hanging in gravity: a valid start for editing.
  LoadedProject fresh = parseProjectText(R"({"format": "flexarm-project", "schema_version": 1, "name": "Untitled",
    "links": [{"name": "link1", "length": 1.0, "mass": 1.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "joint1", "type": "revolute", "axis": [0, 1, 0]}]})", ".");
  if (!fresh.project) return false;
  setProject(std::move(*fresh.project), QString());
  log("new project");
  return true;
}

bool MainWindow::openProject(const QString& path) {
  if (isRunning()) {
    showBanner("Stop the running simulation before opening another project.", true);
    return false;
  }
  LoadedProject loaded = loadProjectFile(path.toStdString());
  for (const Diagnostic& d : loaded.diagnostics.all()) log(QFileInfo(path).fileName() + ": " + QString::fromStdString(d.text()));
  if (!loaded.project) {
    QString text = "Could not open " + QFileInfo(path).fileName() + ":";
    for (const Diagnostic& d : loaded.diagnostics.all())
      if (d.severity == Diagnostic::Severity::Error) text += "\n" + QString::fromStdString(d.text());
    showBanner(text, true);
    return false;
  }
  setProject(std::move(*loaded.project), path);
  addRecent(path);
  log("opened " + path);
  return true;
}

void MainWindow::setProject(Project project, const QString& path) {
  project_ = std::move(project);
  project_path_ = path;
  system_ = std::make_unique<MultibodySystem>(MultibodySystem::fromModel(project_->model, project_->coupling));
  results_.reset();
  live_ = Results{};
  banner_->setVisible(false);
  setWindowTitle(QString::fromStdString(project_->name) + " - FlexArm");
  view_->setProject(*project_);
  view_->viewPreset(ArmView::Preset::Iso);
  timeline_->setTimes({});
  plots_->setChannels({}, {});
  fillModelTree();
  stats_->setText(QString("%1 coordinates, %2 s to simulate").arg(system_->nq).arg(num(project_->simulation.t_end)));
}

void MainWindow::fillModelTree() {
  tree_->clear();
  const Model& m = project_->model;
  auto* links = new QTreeWidgetItem(tree_, QStringList{"Links"});
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    const Link& l = m.links[i];
    QStringList p{"name=" + QString::fromStdString(l.name), "length [m]=" + num(l.length), "mass [kg]=" + num(l.mass)};
    if (l.flex) {
      const FlexibleLink& f = *l.flex;
      p << "E [Pa]=" + num(f.material.E) << "rho [kg/m^3]=" + num(f.material.rho) << "A [m^2]=" + num(f.section.A)
        << "Iy [m^4]=" + num(f.section.Iy) << "Iz [m^4]=" + num(f.section.Iz);
      const Body& b = system_->bodies[i];
      p << "elastic coordinates=" + QString::number(b.e_count)
        << "first clamped-free frequency [Hz]=" + num(b.flexible->frequencies.size() ? b.flexible->frequencies(0) / (2 * M_PI) : 0);
    }
    auto* li = item(links, QString::fromStdString(l.name) + (l.flex ? "  (flexible)" : "  (rigid)"), p);
    if (l.flex) {
      const LinkDiscretization& d = l.flex->discretization;
      const QString text = d.kind == LinkDiscretization::Kind::AssumedModes
                               ? QString("assumed modes: %1 axial, %2 bending y, %3 bending z, %4 torsion").arg(d.axial).arg(d.bending_y).arg(d.bending_z).arg(d.torsion)
                               : QString("finite elements: %1 %2%3").arg(d.nodes.empty() ? d.elements : static_cast<int>(d.nodes.size()) + 1)
                                     .arg(d.planar ? "planar" : "spatial")
                                     .arg(d.reduce_to > 0 ? QString(", reduced to %1 modes").arg(d.reduce_to) : QString());
      item(li, text, {"discretization=" + text});
    }
  }
  auto* joints = new QTreeWidgetItem(tree_, QStringList{"Joints"});
  for (const Joint& j : m.joints) {
    QStringList p{"name=" + QString::fromStdString(j.name), "type=" + QString(jointTypeName(j.type)),
                  QString("axis=[%1, %2, %3]").arg(num(j.axis.x()), num(j.axis.y()), num(j.axis.z())),
                  "q0=" + num(j.q0), "drive=" + QString(driveKindName(j.drive.kind))};
    if (j.drive.kind != JointDrive::Kind::Free) p << "law=" + QString(lawName(j.drive.law.law));
    if (j.flex) p << "stiffness=" + num(j.flex->stiffness) << "rotor inertia=" + num(j.flex->rotor_inertia) << "gear ratio=" + num(j.flex->gear_ratio);
    auto* ji = item(joints, QString::fromStdString(j.name) + (j.flex ? "  (flexible)" : ""), p);
    item(ji, "drive: " + QString(driveKindName(j.drive.kind)), {"drive=" + QString(driveKindName(j.drive.kind))});
  }
  auto* payloads = new QTreeWidgetItem(tree_, QStringList{"Payloads"});
  for (const Payload& pl : m.payloads)
    item(payloads, QString::fromStdString(pl.name), {"name=" + QString::fromStdString(pl.name), "mass [kg]=" + num(pl.mass),
                                                     "link=" + QString::fromStdString(m.links[static_cast<std::size_t>(pl.link)].name)});
  if (!m.constraints.empty()) {
    auto* constraints = new QTreeWidgetItem(tree_, QStringList{"Constraints"});
    for (const Constraint& c : m.constraints) {
      QStringList p{"name=" + QString::fromStdString(c.name), "type=" + QString(constraintKindName(c.kind))};
      if (c.link >= 0) p << "link=" + QString::fromStdString(m.links[static_cast<std::size_t>(c.link)].name);
      if (c.kind == Constraint::Kind::SlidingSupport)
        p << "position [m]=" + num(c.position) << QString("clamps slope=") + (c.clamp_slope ? "yes" : "no");
      item(constraints, QString::fromStdString(c.name) + "  (" + constraintKindName(c.kind) + ")", p);
    }
  }
  const SimulationSettings& s = project_->simulation;
  item(tree_->invisibleRootItem(), "Simulation",
       {"coupling=" + QString(couplingName(project_->coupling)), "t_end [s]=" + num(s.t_end), "output rate [Hz]=" + num(s.output_rate),
        "method=" + QString(methodName(s.method)), "rtol=" + num(s.rtol), "atol=" + num(s.atol)});
  tree_->expandAll();
}

void MainWindow::runSimulation() {
  if (!project_ || isRunning()) return;
  banner_->setVisible(false);
  results_.reset();
  plot_backlog_.clear();
  shown_row_ = static_cast<std::size_t>(-1);
  timeline_->setPlaying(false);
  timeline_->setTimes({});
  // The channels follow from the system: set the plots up now, not while rows stream in.
  const std::vector<Channel> channels = runChannels(*project_);
  live_ = Results{};
  live_.setChannels(channels);
  plots_->setChannels(channels, defaultPlotChannels(channels));
  if (!controller_->start(*project_)) return;
  run_action_->setEnabled(false);
  pause_action_->setEnabled(true);
  stop_action_->setEnabled(true);
  log("run started: " + QString::fromStdString(describeRun(*project_)));
  poll_timer_->start();
}

QImage MainWindow::screenshot() { return grabWithViews(this, {view_}); }

void MainWindow::stopSimulation() { controller_->stop(); }

QString MainWindow::projectDirectory() const {
  return project_path_.isEmpty() ? QDir::currentPath() : QFileInfo(project_path_).absolutePath();
}

CompareWindow* MainWindow::compare(std::vector<StudyCase> cases) {
  if (!project_) return nullptr;
  if (cases.size() < 2) {
    showBanner("Compare needs two or more variants.", true);
    return nullptr;
  }
  auto* w = new CompareWindow(*project_, projectDirectory(), std::move(cases), this);
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
  log(QString("comparing %1 variants of %2").arg(w->variantCount()).arg(QString::fromStdString(project_->name)));
  return w;
}

CompareWindow* MainWindow::compareZeroVsHigh() {
  return compare({{"coupling=zero", {"coupling=zero"}}, {"coupling=high", {"coupling=high"}}});
}

std::string MainWindow::exportCsvTo(const QString& file) {
  const std::string why = results_ ? writeCsvFile(*results_, file.toStdString()) : "nothing to export: run the project first";
  log(why.empty() ? "results written to " + file : QString::fromStdString(why));
  return why;
}

std::string MainWindow::exportPlotTo(const QString& file, const ExportSize& size) {
  const std::string why = exportPlot(plots_->plot(), file, size);
  log(why.empty() ? "plot written to " + file : QString::fromStdString(why));
  return why;
}

std::string MainWindow::exportViewPng(const QString& file) {
  const std::string why = view_->grabFramebuffer().save(file, "PNG") ? std::string() : "cannot write \"" + file.toStdString() + "\"";
  log(why.empty() ? "3D view written to " + file : QString::fromStdString(why));
  return why;
}

AnimationOutcome MainWindow::exportAnimationTo(const QString& dir, const AnimationSettings& settings) {
  AnimationOutcome o;
  const std::vector<double> times = results_ ? results_->column("t") : std::vector<double>{};
  if (times.empty() || isRunning()) {
    o.error = "nothing to animate: run the project first";
  } else {
    timeline_->setPlaying(false);
    o = exportAnimation(
        [this, &times](double t) {
          const auto at = std::upper_bound(times.begin(), times.end(), t + 1e-12);
          timeline_->setRow(static_cast<int>(std::max<long>(0, at - times.begin() - 1)));
          return view_->grabFramebuffer();
        },
        times.front(), times.back(), dir, settings);
  }
  log(describeAnimationOutcome(o, dir));
  return o;
}

BundleOutcome MainWindow::exportBundleTo(const QString& dir) {
  BundleOutcome o;
  if (!results_ || !project_) {
    o.error = "nothing to export: run the project first";
  } else {
    BundleRequest req;
    req.dir = dir.toStdString();
    req.project = &*project_;
    req.runs = {{"", results_.get()}};
    req.command = "FlexArm workbench";
    o = writeReportBundle(req);
  }
  log(o.error.empty() ? QString("report bundle written to %1 (%2 files)").arg(dir).arg(o.files.size()) : QString::fromStdString(o.error));
  return o;
}

bool MainWindow::isRunning() const { return controller_->isRunning() || poll_timer_->isActive(); }

void MainWindow::poll() {
  std::vector<double> rows;
  const std::size_t count = controller_->takeNewRows(rows);
  const std::size_t n = live_.channels().size();
  if (count > 0) {
    std::vector<double> times;
    for (std::size_t r = 0; r < count; ++r) {
      live_.appendRow(rows.data() + r * n);
      times.push_back(rows[r * n]);
    }
    plot_backlog_.insert(plot_backlog_.end(), rows.begin(), rows.end());
    timeline_->appendTimes(times);
  }
  // Plots and the 3D view take turns (10 updates per second each): software rendering and a plot
  // replot in the same window repaint would hold the event loop too long.
  if (++poll_tick_ % 2 == 0) {
    if (!plot_backlog_.empty() && n > 0) plots_->appendRows(plot_backlog_, plot_backlog_.size() / n);
    plot_backlog_.clear();
  } else if (live_.rows() > 0 && live_.rows() != shown_row_ + 1) {
    shown_row_ = live_.rows() - 1;
    showRow(static_cast<int>(shown_row_));
  }
  const double t = controller_->simulatedTime(), t_end = controller_->endTime();
  progress_->setValue(static_cast<int>(1000.0 * t / std::max(t_end, 1e-12)));
  progress_->setFormat(QString("t = %1 / %2 s").arg(t, 0, 'f', 2).arg(t_end, 0, 'f', 2));
  const double left = controller_->secondsLeft();
  stats_->setText(left >= 0 ? QString("running, about %1 s left").arg(left, 0, 'f', 1) : QString("running"));
}

void MainWindow::onFinished(std::shared_ptr<const Results> results) {
  poll();  // the last rows
  poll_timer_->stop();
  if (!plot_backlog_.empty() && !live_.channels().empty())
    plots_->appendRows(plot_backlog_, plot_backlog_.size() / live_.channels().size());
  plot_backlog_.clear();
  results_ = std::move(results);
  run_action_->setEnabled(true);
  pause_action_->setEnabled(false);
  pause_action_->setChecked(false);
  stop_action_->setEnabled(false);
  std::vector<double> times = results_->column("t");
  timeline_->setTimes(times);
  const SolverStats& st = results_->stats;
  stats_->setText(QString("%1 at t = %2 s | %3 steps, %4 RHS, %5 Jacobians, %6 s wall")
                      .arg(runStatusName(results_->status))
                      .arg(num(results_->end_time))
                      .arg(st.steps)
                      .arg(st.rhs_evaluations)
                      .arg(st.jacobian_evaluations)
                      .arg(st.wall_time, 0, 'f', 2));
  progress_->setValue(static_cast<int>(1000.0 * results_->end_time / std::max(project_->simulation.t_end, 1e-12)));
  log("run " + QString(runStatusName(results_->status)) + ": " + stats_->text());
  if (results_->status == RunStatus::Failed || results_->status == RunStatus::Diverged) {
    showBanner(QString(results_->status == RunStatus::Diverged ? "Diverged: " : "Solver failure: ") +
                   QString::fromStdString(results_->message) + QString("\nThe results up to t = %1 s are kept.").arg(num(results_->end_time)),
               true);
  } else if (results_->status == RunStatus::Cancelled) {
    log(QString::fromStdString(results_->message));
  }
  if (!times.empty()) timeline_->setRow(static_cast<int>(times.size()) - 1);
}

void MainWindow::showRow(int row) {
  if (!system_) return;
  const Results& r = results_ ? *results_ : live_;
  Eigen::VectorXd q;
  if (row >= 0 && coordinatesAtRow(*system_, r, static_cast<std::size_t>(row), q)) view_->showState(q);
}

QString MainWindow::projectName() const { return project_ ? QString::fromStdString(project_->name) : QString(); }
QString MainWindow::bannerText() const { return banner_->text(); }
bool MainWindow::bannerShown() const { return !banner_->isHidden(); }

void MainWindow::showBanner(const QString& text, bool error) {
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
}

void MainWindow::saveAs() {
  if (!project_) return;
  const QString path = QFileDialog::getSaveFileName(this, "Save project", project_path_, "FlexArm projects (*.flexarm.json)");
  if (path.isEmpty()) return;
  const std::string why = saveProjectFile(*project_, path.toStdString());
  if (!why.empty()) return showBanner(QString::fromStdString(why), true);
  project_path_ = path;
  addRecent(path);
  log("saved " + path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const QList<QUrl> urls = e->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openProject(urls.front().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  controller_->stop();
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  QMainWindow::closeEvent(e);
}

}  // namespace flexarm
