#include "ui/compare/CompareWindow.hpp"

#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"
#include "ui/compare/ComparePlot.hpp"
#include "ui/export/ExportReactions.hpp"
#include "ui/plots/PlotFigure.hpp"
#include "ui/run/RunSession.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/Timeline.hpp"

namespace flexarm {

struct CompareWindow::Variant {
  StudyCase study_case;
  RunSession* session = nullptr;  // the variant's project and system, its run and results (labelled as the CLI labels them)
  QWidget* pane = nullptr;
  QLabel* title = nullptr;
  QLabel* banner = nullptr;
  ArmView* view = nullptr;
};

CompareWindow::CompareWindow(const Project& base, const QString& base_dir, std::vector<StudyCase> cases, QWidget* parent,
                             std::shared_ptr<const MultibodySystem> base_system)
    : QMainWindow(parent), base_(base), base_system_(std::move(base_system)), base_dir_(base_dir) {
  setAttribute(Qt::WA_DeleteOnClose, false);
  setWindowTitle("Compare: " + QString::fromStdString(base.name) + " - FlexArm");
  for (StudyCase& c : cases) {
    auto v = std::make_unique<Variant>();
    v->study_case = std::move(c);
    v->session = new RunSession(this);
    v->session->setCaseName(v->study_case.name);
    connect(v->session, &RunSession::finished, this, [this, i = variantCount()] { onFinished(i); });
    variants_.push_back(std::move(v));
  }
  buildUi();
  buildActions();
  poll_timer_ = new QTimer(this);
  poll_timer_->setInterval(200);  // 5 plot and view updates per second while the runs go
  connect(poll_timer_, &QTimer::timeout, this, &CompareWindow::poll);
  resize(1400, 950);
}

CompareWindow::~CompareWindow() { stop(); }  // every run cancelled before the first session waits for its own

void CompareWindow::buildUi() {
  views_box_ = new QWidget(this);
  auto* grid = new QGridLayout(views_box_);
  grid->setContentsMargins(2, 2, 2, 2);
  const int columns = std::min<int>(3, std::max<int>(1, variantCount()));
  for (std::size_t i = 0; i < variants_.size(); ++i) {
    Variant& v = *variants_[i];
    v.pane = new QWidget(views_box_);
    auto* layout = new QVBoxLayout(v.pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    v.title = new QLabel(QString::fromStdString(v.study_case.name), v.pane);
    const QColor c = seriesColour(i);
    v.title->setStyleSheet(QString("QLabel { font-weight: bold; color: white; background: %1; padding: 3px; }").arg(c.name()));
    v.title->setToolTip(QString::fromStdString(v.study_case.overrides.empty() ? std::string("the project as it is") : [&] {
      std::string s;
      for (const std::string& o : v.study_case.overrides) s += (s.empty() ? "" : "; ") + o;
      return s;
    }()));
    v.banner = new QLabel(v.pane);
    v.banner->setWordWrap(true);
    v.banner->setVisible(false);
    v.banner->setStyleSheet("QLabel { background: #fbe3e1; color: #8a1c12; border: 1px solid #d9534f; padding: 4px; }");
    v.view = new ArmView(v.pane);
    layout->addWidget(v.title);
    layout->addWidget(v.banner);
    layout->addWidget(v.view, 1);
    grid->addWidget(v.pane, static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    // One camera: moving any view moves the others.
    connect(v.view, &ArmView::cameraChanged, this, [this, view = v.view] {
      if (syncing_camera_) return;
      syncing_camera_ = true;
      for (auto& other : variants_) other->view->setCameraFrom(*view);
      syncing_camera_ = false;
    });
    connect(v.view, &ArmView::colourRangeChanged, this, [this](double upper) {
      if (!shared_colours_) return;
      for (auto& other : variants_) other->view->setColourFloor(upper);
    });
  }
  timeline_ = new Timeline(this);
  connect(timeline_, &Timeline::rowChanged, this, [this](int, double t) {
    if (!isRunning()) showTime(t);
  });
  plot_ = new ComparePlot(this);
  exports_ = new ExportReactions(*this,
                                 {{"compare-csv", "Export the compared channels", [] { return QString("compare.csv"); }},
                                  {"compare-views", "Export the 3D views", [] { return QString("views.png"); }},
                                  "compare",
                                  "compare-bundle",
                                  "compare-paraview"},
                                 this);
  connect(plot_, &ComparePlot::exportRequested, exports_->plot, &PlotExportReaction::trigger);
  auto* top = new QWidget(this);
  auto* top_layout = new QVBoxLayout(top);
  top_layout->setContentsMargins(0, 0, 0, 0);
  top_layout->addWidget(views_box_, 1);
  top_layout->addWidget(timeline_);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(plot_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setCentralWidget(split);
  status_ = new QLabel(this);
  statusBar()->addWidget(status_, 1);
}

void CompareWindow::buildActions() {
  QToolBar* tb = addToolBar("Compare");
  tb->setObjectName("toolbar.compare");
  tb->addAction(style()->standardIcon(QStyle::SP_MediaStop), "Stop all", this, [this] { stop(); });
  tb->addSeparator();
  tb->addWidget(new QLabel(" deformation x ", this));
  scale_ = new QDoubleSpinBox(this);
  scale_->setObjectName("compare.scale");
  scale_->setRange(1.0, 1000.0);
  scale_->setDecimals(0);
  scale_->setToolTip("Deformation scale factor: elastic deformation drawn this many times larger in every view");
  connect(scale_, &QDoubleSpinBox::valueChanged, this, [this](double s) { setDeformationScale(s); });
  tb->addWidget(scale_);
  QAction* fit = tb->addAction("Fit", this, [this] { fitViews(); });
  fit->setObjectName("compare.fit");
  fit->setToolTip("Frame every arm in its view: the camera sees all that each arm can sweep");
  QAction* colours = tb->addAction("One colour range", this, [this](bool on) { setSharedColourRange(on); });
  colours->setObjectName("compare.sharedColours");
  colours->setCheckable(true);
  colours->setChecked(shared_colours_);
  colours->setToolTip("One colour scale for every view (the largest), so equal colours mean equal curvature or strain");
  tb->addSeparator();
  exports_->csv->attachTo(tb->addAction("Export CSV..."));
  exports_->views->attachTo(tb->addAction("Export views PNG..."));
  exports_->animation->attachTo(tb->addAction("Export animation..."));
  exports_->bundle->attachTo(tb->addAction("Export report bundle..."));
  exports_->paraview->attachTo(tb->addAction("Export ParaView series..."))
      ->setToolTip("Every variant's run as a ParaView time series, one subfolder per variant");
}

bool CompareWindow::start(QString* error) {
  if (isRunning()) return false;
  QString problems;
  std::vector<Result<Project>> projects;
  for (auto& v : variants_) {
    projects.push_back(caseProject(base_, base_dir_.toStdString(), v->study_case));
    if (!projects.back())
      problems += QString("variant %1 is not a valid project:\n%2\n")
                      .arg(QString::fromStdString(v->study_case.name), QString::fromStdString(projects.back().error().text()));
  }
  if (!problems.isEmpty()) {
    status_->setText(problems.trimmed());
    if (error) *error = problems.trimmed();
    return false;
  }
  for (std::size_t i = 0; i < variants_.size(); ++i) {
    Variant& v = *variants_[i];
    const bool shared = base_system_ && sameSystem(*projects[i], base_);
    v.session->setProject(*projects[i], shared ? base_system_ : nullptr);
    v.view->setProject(*projects[i], v.session->sharedSystem());
    v.view->viewPreset(ArmView::Preset::Iso);
    v.banner->setVisible(false);
  }
  fitViews();
  timeline_->setTimes({});
  for (auto& v : variants_) v->session->start();
  status_->setText(QString("running %1 variants concurrently").arg(variantCount()));
  poll_timer_->start();
  return true;
}

void CompareWindow::stop() {
  for (auto& v : variants_) v->session->stop();
}

bool CompareWindow::isRunning() const {
  return std::any_of(variants_.begin(), variants_.end(), [](const auto& v) { return v->session->isRunning(); });
}

QString CompareWindow::variantName(int i) const {
  return QString::fromStdString(variants_[static_cast<std::size_t>(i)]->study_case.name);
}
const MultibodySystem* CompareWindow::variantSystem(int i) const {
  if (i < 0 || i >= variantCount()) return nullptr;
  return variants_[static_cast<std::size_t>(i)]->session->sharedSystem().get();
}

const Results* CompareWindow::variantResults(int i) const { return variants_[static_cast<std::size_t>(i)]->session->results(); }
bool CompareWindow::variantBannerShown(int i) const { return !variants_[static_cast<std::size_t>(i)]->banner->isHidden(); }
QString CompareWindow::variantBanner(int i) const { return variants_[static_cast<std::size_t>(i)]->banner->text(); }
ArmView* CompareWindow::view(int i) const { return variants_[static_cast<std::size_t>(i)]->view; }

void CompareWindow::fitViews() {
  if (variants_.empty()) return;
  ArmView::Envelope all = variants_.front()->view->envelope();
  for (auto& v : variants_) all = all.united(v->view->envelope());
  variants_.front()->view->fitEnvelope(all);  // and the others follow its camera
}

void CompareWindow::setDeformationScale(double scale) {
  if (scale_->value() != scale) return scale_->setValue(scale);  // which comes back here
  for (auto& v : variants_) v->view->setDeformationScale(scale);
}

void CompareWindow::setSharedColourRange(bool shared) {
  shared_colours_ = shared;
  double upper = 0.0;
  if (shared)
    for (auto& v : variants_) upper = std::max(upper, v->view->colourRange());
  for (auto& v : variants_) v->view->setColourFloor(upper);  // 0: each view's own range again
}

std::vector<double> CompareWindow::commonTimes() const {
  const Results* longest = nullptr;
  for (const auto& v : variants_) {
    const Results* r = v->session->results();
    if (r && (!longest || r->end_time > longest->end_time)) longest = r;
  }
  return longest ? longest->column("t") : std::vector<double>{};
}

std::vector<NamedRun> CompareWindow::runs() const {
  std::vector<NamedRun> out;
  for (const auto& v : variants_) out.push_back({v->study_case.name, &v->session->current()});
  return out;
}

void CompareWindow::poll() {
  for (auto& v : variants_) {
    RunSession& s = *v->session;
    if (s.results()) continue;
    s.poll();
    Eigen::VectorXd q;
    if (s.live().rows() > 0 && s.stateAtRow(s.live().rows() - 1, q)) v->view->showState(q);
  }
  plot_->setRuns(runs());
  double t = 0.0, t_end = 0.0;
  for (const auto& v : variants_) {
    const RunSession& s = *v->session;
    t = std::max(t, s.results() ? s.results()->end_time : s.simulatedTime());
    t_end = std::max(t_end, s.project()->simulation.t_end);
  }
  if (isRunning())
    status_->setText(QString("running %1 variants: t = %2 / %3 s").arg(variantCount()).arg(t, 0, 'f', 2).arg(t_end, 0, 'f', 2));
}

void CompareWindow::onFinished(int i) {
  Variant& v = *variants_[static_cast<std::size_t>(i)];
  const Results& r = *v.session->results();  // labelled as `flexarm-cli compare` labels them
  if (r.status == RunStatus::Diverged || r.status == RunStatus::Failed) {
    // The engine's message may already say when ("diverged at t = ...: why"): say it once.
    QString why = QString::fromStdString(r.message);
    const QString when = QString("at t = %1 s").arg(r.end_time, 0, 'g', 6);
    if (why.startsWith("diverged " + when + ": ")) why = why.mid(static_cast<int>(("diverged " + when + ": ").size()));
    v.banner->setText(QString("%1 %2: %3\nThe other variants go on; the results up to then are kept.")
                          .arg(r.status == RunStatus::Diverged ? "Diverged" : "Solver failure", when, why));
    v.banner->setVisible(true);
  }
  if (isRunning()) return;  // the others go on
  poll_timer_->stop();
  plot_->setRuns(runs());
  const std::vector<double> times = commonTimes();
  timeline_->setTimes(times);
  QString text;
  for (const auto& other : variants_)
    text += QString("%1%2: %3 at t = %4 s")
                .arg(text.isEmpty() ? "" : "  |  ", QString::fromStdString(other->study_case.name),
                     runStatusName(other->session->results()->status))
                .arg(other->session->results()->end_time, 0, 'g', 6);
  status_->setText(text);
  if (!times.empty()) timeline_->setRow(static_cast<int>(times.size()) - 1);
  showTime(times.empty() ? 0.0 : times.back());
  emit allFinished();
}

void CompareWindow::showTime(double t) {
  for (auto& v : variants_) {
    Eigen::VectorXd q;  // the last sample at or before t: a run that ended earlier stays at its last state
    if (v->session->stateAt(t, q)) v->view->showState(q);
  }
  plot_->setTimeCursor(t);
}

std::string CompareWindow::exportCsv(const QString& file) const { return exports_->csv->exportTo(file); }
std::string CompareWindow::exportPlotFile(const QString& file, const ExportSize& size) const {
  return exports_->plot->exportTo(file, size);
}
std::string CompareWindow::exportViewsPng(const QString& file) { return exports_->views->exportTo(file); }
AnimationOutcome CompareWindow::exportAnimationTo(const QString& dir, const AnimationSettings& settings) {
  return exports_->animation->exportTo(dir, settings);
}
BundleOutcome CompareWindow::exportBundle(const QString& dir) const { return exports_->bundle->exportTo(dir); }
std::string CompareWindow::exportParaViewTo(const QString& dir, bool* cancelled) {
  return exports_->paraview->exportTo(dir, cancelled);
}

// What the export reactions take from this window: every variant's run, the overlay plot, the views.
QWidget* CompareWindow::exportWindow() { return this; }
bool CompareWindow::exportReady() { return true; }  // each export says itself what it still waits for
void CompareWindow::exportReport(const QString& text) { statusBar()->showMessage(text, 12000); }

std::shared_ptr<const Results> CompareWindow::csvTable(std::string&) {
  const std::vector<NamedRun> r = runs();
  auto table = std::make_shared<Results>(compareRuns(r, plot_->checkedChannels()));  // the checked channels, and B - A
  table->project_name = comparisonName(base_.name, r);
  return table;
}

QCustomPlot* CompareWindow::plotToExport() { return plot_->plot(); }

QImage CompareWindow::viewsImage() {
  std::vector<ArmView*> views;
  for (auto& v : variants_) views.push_back(v->view);
  return grabWithViews(views_box_, views);
}

std::vector<double> CompareWindow::animationTimes(std::string& why) {
  const std::vector<double> times = commonTimes();
  if (times.empty() || isRunning()) {
    why = "nothing to animate yet: wait for the runs to finish";
    return {};
  }
  timeline_->setPlaying(false);
  return times;
}

QImage CompareWindow::animationFrame(double t) {
  showTime(t);
  return viewsImage();
}

std::vector<SeriesRun> CompareWindow::seriesRuns(std::string& why) {
  std::vector<SeriesRun> out;
  if (isRunning()) {
    why = "the variants are still running: wait for them to finish (or stop them)";
    return out;
  }
  for (auto& v : variants_)  // a subfolder per variant, named as the report bundle names its CSV
    if (v->session->results() && v->session->project() && v->session->sharedSystem())
      out.push_back(
          {caseFileName(v->study_case.name), v->session->project(), v->session->sharedSystem(), v->session->sharedResults()});
  if (out.empty()) why = "nothing to export yet: no variant has run";
  return out;
}

std::optional<BundleRequest> CompareWindow::bundleRequest(std::string& why) {
  if (isRunning()) {
    why = "the variants are still running: wait for them to finish (or stop them)";
    return std::nullopt;
  }
  BundleRequest req;
  req.project = &base_;
  req.system = base_system_;
  req.runs = runs();
  req.channels = plot_->checkedChannels();
  req.plot_channels = req.channels;
  req.command = "FlexArm workbench, compare mode";
  return req;
}

}  // namespace flexarm
