#include "ui/analysis/CampbellDialog.hpp"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "ui/export/ExportDialogs.hpp"
#include "ui/plots/PlotFigure.hpp"

namespace flexarm {

struct CampbellDialog::Sweep {
  std::atomic<bool> cancel{false};
  std::atomic<std::size_t> done{0};  // linearizations finished, over every order
  std::size_t total = 0;
};

namespace {

QDoubleSpinBox* rateBox(QWidget* parent, double value, double lo) {
  auto* b = new QDoubleSpinBox(parent);
  b->setRange(lo, 1000.0);
  b->setDecimals(3);
  b->setSingleStep(0.25);
  b->setValue(value);
  b->setSuffix(" rad/s");
  return b;
}

}  // namespace

CampbellDialog::CampbellDialog(std::function<const Project*()> project, QWidget* parent)
    : QDialog(parent), project_(std::move(project)) {
  setWindowTitle("Campbell diagram - FlexArm");
  setObjectName("dialog.campbell");
  resize(1300, 800);
  auto* layout = new QVBoxLayout(this);
  auto* controls = new QHBoxLayout;
  auto* sweep = new QFormLayout;
  from_ = rateBox(this, 0.0, -1000.0);
  to_ = rateBox(this, 12.0, -1000.0);
  step_ = rateBox(this, 0.25, 0.001);
  from_->setToolTip("First spin rate of joint 1");
  to_->setToolTip("Last spin rate of joint 1 (included)");
  step_->setToolTip("Step between the rates of the sweep");
  auto* rates = new QHBoxLayout;
  rates->addWidget(from_);
  rates->addWidget(new QLabel("to", this));
  rates->addWidget(to_);
  rates->addWidget(new QLabel("step", this));
  rates->addWidget(step_);
  sweep->addRow("Spin of joint 1", rates);
  count_ = new QSpinBox(this);
  count_->setRange(1, 50);
  count_->setValue(4);
  count_->setToolTip("How many modes (the lowest at the first rate) to follow through the sweep, by their shape");
  sweep->addRow("Modes", count_);
  controls->addLayout(sweep);
  auto* orders = new QFormLayout;
  auto* boxes = new QHBoxLayout;
  zero_ = new QCheckBox("zero", this);
  geometric_ = new QCheckBox("geometric", this);
  high_ = new QCheckBox("high", this);
  zero_->setChecked(true);
  high_->setChecked(true);
  for (QCheckBox* b : {zero_, geometric_, high_}) boxes->addWidget(b);
  orders->addRow("Coupling orders", boxes);
  layout_ = new QComboBox(this);
  layout_->addItems({"Side by side", "Overlaid"});
  layout_->setToolTip("One frame per coupling order, or every order in one frame (the order in the line style)");
  connect(layout_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
  orders->addRow("Plot", layout_);
  controls->addLayout(orders);
  auto* buttons = new QVBoxLayout;
  compute_ = new QPushButton("Compute", this);
  compute_->setDefault(true);
  compute_->setToolTip("Linearize the open project about each spin rate on a worker thread");
  cancel_ = new QPushButton("Cancel", this);
  cancel_->setToolTip("Stop the sweep before its next rate");
  export_ = new QPushButton("Export plot...", this);
  export_->setToolTip("The diagram as PNG (size and DPI asked), PDF or SVG");
  connect(compute_, &QPushButton::clicked, this, [this] { compute(); });
  connect(cancel_, &QPushButton::clicked, this, &CampbellDialog::cancel);
  connect(export_, &QPushButton::clicked, this, [this] {
    QString file;
    ExportSize size;
    if (askPlotExport(this, "campbell", file, size)) {
      const std::string why = exportPlotTo(file, size);
      setStatus(why.empty() ? "Plot written to " + file : QString::fromStdString(why), !why.empty());
    }
  });
  for (QPushButton* b : {compute_, cancel_, export_}) buttons->addWidget(b);
  controls->addLayout(buttons);
  controls->addStretch(1);
  layout->addLayout(controls);
  auto* line = new QHBoxLayout;
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(260);
  progress_->setVisible(false);
  status_ = new QLabel("Choose the sweep and the coupling orders, then Compute.", this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  line->addWidget(progress_);
  line->addWidget(status_, 1);
  layout->addLayout(line);
  plot_box_ = new QVBoxLayout;
  layout->addLayout(plot_box_, 1);
  timer_ = new QTimer(this);
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &CampbellDialog::showProgress);
  watcher_ = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &CampbellDialog::onFinished);
  redraw();
  updateControls();
}

CampbellDialog::~CampbellDialog() {
  if (sweep_) sweep_->cancel = true;
  watcher_->waitForFinished();
}

void CampbellDialog::setSweep(double from, double to, double step) {
  from_->setValue(from);
  to_->setValue(to);
  step_->setValue(step);
}

void CampbellDialog::setModeCount(int count) { count_->setValue(count); }

void CampbellDialog::setOrders(const std::vector<CouplingOrder>& orders) {
  auto has = [&](CouplingOrder o) { return std::find(orders.begin(), orders.end(), o) != orders.end(); };
  zero_->setChecked(has(CouplingOrder::Zero));
  geometric_->setChecked(has(CouplingOrder::Geometric));
  high_->setChecked(has(CouplingOrder::High));
}

void CampbellDialog::setPlotLayout(CampbellLayout layout) {
  layout_->setCurrentIndex(layout == CampbellLayout::Overlaid ? 1 : 0);
}

// Computing until the result has been taken in by onFinished, not only until the worker returns: the
// watcher's finished signal arrives through the event loop after the future has finished.
bool CampbellDialog::isComputing() const { return computing_; }

QString CampbellDialog::statusText() const { return status_->text(); }

void CampbellDialog::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? "QLabel { color: #8a1c12; font-weight: bold; }" : "");
}

void CampbellDialog::updateControls() {
  const bool busy = isComputing();
  compute_->setEnabled(!busy);
  cancel_->setEnabled(busy);
  export_->setEnabled(!busy && !sets_.empty());
  progress_->setVisible(busy);
}

bool CampbellDialog::compute() {
  if (isComputing()) return false;
  const Project* project = project_ ? project_() : nullptr;
  if (!project || project->model.links.empty()) {
    setStatus("No arm to linearize: open a project or add a link first.", true);
    return false;
  }
  const double from = from_->value(), to = to_->value(), step = step_->value();
  if (to < from) {
    setStatus("The last spin rate must not be below the first.", true);
    return false;
  }
  const double n = std::floor((to - from) / step * (1.0 + 1e-12)) + 1.0;
  if (n > 2000) {
    setStatus(QString("%1 spin rates is too many (at most 2000): take a larger step.").arg(n), true);
    return false;
  }
  std::vector<double> spins;
  for (int k = 0; k < static_cast<int>(n); ++k) spins.push_back(from + k * step);
  std::vector<CouplingOrder> orders;
  for (auto [box, order] : {std::pair{zero_, CouplingOrder::Zero}, std::pair{geometric_, CouplingOrder::Geometric},
                            std::pair{high_, CouplingOrder::High}})
    if (box->isChecked()) orders.push_back(order);
  if (orders.empty()) {
    setStatus("Choose at least one coupling order.", true);
    return false;
  }
  sweep_ = std::make_shared<Sweep>();
  sweep_->total = spins.size() * orders.size();
  progress_->setRange(0, static_cast<int>(sweep_->total));
  progress_->setValue(0);
  title_ = QString("Campbell diagram: %1").arg(QString::fromStdString(project->name));
  setStatus(QString("Linearizing about %1 spin rates x %2 coupling order(s)...").arg(spins.size()).arg(orders.size()), false);
  watcher_->setFuture(QtConcurrent::run([project = *project, spins, orders, count = count_->value(), sweep = sweep_] {
    auto out = std::make_shared<Outcome>();
    for (CouplingOrder order : orders) {
      Project p = project;
      p.coupling = order;
      const std::size_t before = sweep->done;
      Result<CampbellResult> r = campbellDiagram(p, spins, count, [&](std::size_t k, std::size_t) {
        sweep->done = before + k;
        return !sweep->cancel.load();
      });
      if (sweep->cancel) {
        out->cancelled = true;
        break;
      }
      if (!r) {
        out->error = std::string(couplingName(order)) + "-order coupling: " + r.error().text();
        break;
      }
      sweep->done = before + spins.size();
      out->sets.push_back({order, std::move(r.value())});
    }
    return out;
  }));
  computing_ = true;
  timer_->start();
  updateControls();
  return true;
}

void CampbellDialog::cancel() {
  if (sweep_) sweep_->cancel = true;
}

void CampbellDialog::showProgress() {
  if (sweep_) progress_->setValue(static_cast<int>(sweep_->done.load()));
}

void CampbellDialog::onFinished() {
  timer_->stop();
  computing_ = false;
  const std::shared_ptr<Outcome> o = watcher_->result();
  if (o->cancelled) {
    setStatus("Cancelled: the diagram shown is the last one computed.", false);
  } else if (!o->error.empty()) {
    setStatus(QString::fromStdString(o->error), true);
  } else {
    sets_ = o->sets;
    redraw();
    QStringList unstable;
    for (const CampbellMark& m : marks_) unstable << m.label;
    setStatus(unstable.isEmpty() ? QString("Computed: every followed mode stays stable through the sweep.")
                                 : "Computed. " + unstable.join("; ") + ".",
              false);
  }
  updateControls();
  emit finished();
}

void CampbellDialog::redraw() {
  // A new plot each time: drawCampbell lays out its frames on QCustomPlot's default layout.
  delete plot_;
  plot_ = new QCustomPlot(this);
  useCNumbers(plot_);
  plot_->setObjectName("campbell.plot");
  plot_->setWindowTitle(title_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_box_->addWidget(plot_);
  const CampbellLayout layout = layout_->currentIndex() == 1 ? CampbellLayout::Overlaid : CampbellLayout::SideBySide;
  marks_ = drawCampbell(plot_, sets_, layout, sets_.empty() ? QString("Campbell diagram") : title_);
  plot_->replot();
}

std::string CampbellDialog::exportPlotTo(const QString& file, const ExportSize& size) {
  if (sets_.empty()) return "nothing to export: compute the diagram first";
  return exportPlot(plot_, file, size);
}

}  // namespace flexarm
