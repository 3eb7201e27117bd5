#include "ui/workbench/FrequencyResponseDialog.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <exception>

#include "analysis/StateSpaceFile.hpp"
#include "ui/export/ExportDialogs.hpp"
#include "ui/plots/BodePlot.hpp"
#include "ui/plots/PlotFigure.hpp"

namespace flexarm {

namespace {

QDoubleSpinBox* frequencyBox(QWidget* parent, const QString& tip) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(1e-6, 1e7);
  box->setDecimals(6);
  box->setSuffix(" Hz");
  box->setToolTip(tip);
  box->setMinimumWidth(130);
  return box;
}

}  // namespace

FrequencyResponseDialog::FrequencyResponseDialog(const Project& project, std::optional<double> spin, QWidget* parent)
    : QDialog(parent), project_name_(QString::fromStdString(project.name)) {
  setObjectName("FrequencyResponseDialog");
  setWindowTitle("Frequency response");
  resize(900, 680);
  auto* layout = new QVBoxLayout(this);

  LinearizationOptions options;
  options.spin_rate = spin;
  operating_point_ = new QLabel("Linearized about " + QString::fromStdString(describeOperatingPoint(options)) +
                                    " (the elastic and motor coordinates at their equilibrium); joints not clamped.",
                                this);
  operating_point_->setWordWrap(true);
  layout->addWidget(operating_point_);

  auto* form = new QFormLayout;
  input_ = new QComboBox(this);
  input_->setToolTip(
      "The joint effort that drives the response: a torque [N m] (a force [N] for a prismatic joint), "
      "added to what the joint's drive applies; on the motor side of a flexible joint");
  output_ = new QComboBox(this);
  output_->setToolTip("The response: a flexible link's tip deflection (tip.<link>.v, .w) or a joint angle (q.<joint>)");
  form->addRow("From (input):", input_);
  form->addRow("To (output):", output_);
  auto* range = new QHBoxLayout;
  f_lo_ = frequencyBox(this, "The lowest frequency plotted");
  f_hi_ = frequencyBox(this, "The highest frequency plotted");
  points_ = new QSpinBox(this);
  points_->setRange(10, 100000);
  points_->setValue(600);
  points_->setSuffix(" points");
  points_->setToolTip("Frequencies evenly spaced on the log axis");
  range->addWidget(f_lo_);
  range->addWidget(new QLabel("to", this));
  range->addWidget(f_hi_);
  range->addWidget(points_);
  range->addStretch(1);
  form->addRow("Frequencies:", range);
  layout->addLayout(form);

  busy_ = new QProgressBar(this);
  busy_->setRange(0, 0);
  busy_->setMaximumHeight(14);
  layout->addWidget(busy_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);

  plot_ = new QCustomPlot(this);
  useCNumbers(plot_);
  plot_->setMinimumHeight(380);
  plot_->setWindowTitle("Frequency response");
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  layout->addWidget(plot_, 1);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  export_plot_ = buttons->addButton("Export plot...", QDialogButtonBox::ActionRole);
  export_plot_->setToolTip("The Bode plot as PNG (size and resolution asked), PDF or SVG");
  export_model_ = buttons->addButton("Export model...", QDialogButtonBox::ActionRole);
  export_model_->setToolTip(
      "The linear model A, B, C, D with its names, as a MATLAB .mat file or CSV "
      "(as flexarm-cli linearize writes it)");
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(export_plot_, &QPushButton::clicked, this, [this] {
    QString file;
    ExportSize size;
    if (!askPlotExport(this, "bode", file, size)) return;
    const std::string why = exportPlotTo(file, size);
    setStatus(why.empty() ? "Plot written to " + file : QString::fromStdString(why), !why.empty());
  });
  connect(export_model_, &QPushButton::clicked, this, [this] {
    const QString file =
        askSaveFile(this, "linear-model", "Export linear model", "model.mat", "MATLAB file (*.mat);;CSV (*.csv)");
    if (file.isEmpty()) return;
    const std::string why = exportModelTo(file);
    setStatus(why.empty() ? "Model written to " + file : QString::fromStdString(why), !why.empty());
  });
  layout->addWidget(buttons);

  for (QComboBox* box : {input_, output_}) connect(box, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
  for (QDoubleSpinBox* box : {f_lo_, f_hi_}) connect(box, &QDoubleSpinBox::editingFinished, this, [this] { redraw(); });
  connect(points_, &QSpinBox::editingFinished, this, [this] { redraw(); });
  for (QWidget* w : std::initializer_list<QWidget*>{input_, output_, f_lo_, f_hi_, points_, export_plot_, export_model_})
    w->setEnabled(false);

  setStatus("Linearizing the arm...", false);
  watcher_ = new QFutureWatcher<Outcome>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &FrequencyResponseDialog::onComputed);
  watcher_->setFuture(QtConcurrent::run([project, options] {
    Outcome out;
    try {
      const MultibodySystem system = MultibodySystem::fromModel(project.model, project.coupling);
      const Result<StateSpaceSignals> selection = selectSignals(project, system, {"joints"}, {"tip", "joints"});
      if (!selection) {
        out.error = selection.error().text();
        return out;
      }
      Result<StateSpaceModel> model = stateSpaceModel(project, system, selection.value(), options);
      if (!model) {
        out.error = "The linearization failed: " + model.error().text();
        return out;
      }
      out.model = std::make_shared<StateSpaceModel>(std::move(model.value()));
      out.description = stateSpaceDescription(project);
    } catch (const std::exception& e) {
      out.error = std::string("The linearization failed: ") + e.what();
    }
    return out;
  }));
}

// A computation still running keeps only its own copies; its result is dropped with the watcher.
FrequencyResponseDialog::~FrequencyResponseDialog() = default;

bool FrequencyResponseDialog::isComputing() const { return computing_; }

QString FrequencyResponseDialog::statusText() const { return status_->text(); }

// No pair drawn: empty panels, without the last pair's title.
void FrequencyResponseDialog::clearPlot() {
  plot_->clearGraphs();
  plot_->clearItems();
  for (int i = plot_->plotLayout()->elementCount() - 1; i >= 0; --i)
    if (auto* title = qobject_cast<QCPTextElement*>(plot_->plotLayout()->elementAt(i))) plot_->plotLayout()->remove(title);
  plot_->plotLayout()->simplify();
  plot_->replot();
}

void FrequencyResponseDialog::setStatus(const QString& text, bool error) {
  status_->setText(text.isEmpty() ? text : text.front().toUpper() + text.mid(1));  // the engine's messages start lower case
  status_->setStyleSheet(error ? "QLabel { color: #8a1c12; font-weight: bold; }" : "");
  // Every line of the message: the plot below gives up the height it needs at the dialog's width.
  status_->setMinimumHeight(status_->heightForWidth(std::max(status_->width(), 400)));
  if (layout()) layout()->activate();
}

void FrequencyResponseDialog::onComputed() {
  computing_ = false;
  busy_->setVisible(false);
  const Outcome o = watcher_->result();
  if (!o.model) {
    setStatus(QString::fromStdString(o.error.empty() ? "The linearization failed." : o.error), true);
    emit computed();
    return;
  }
  model_ = o.model;
  description_ = o.description;
  {
    const QSignalBlocker a(input_), b(output_), c(f_lo_), d(f_hi_);
    for (const std::string& name : model_->inputs) input_->addItem(QString::fromStdString(name));
    for (const std::string& name : model_->outputs) output_->addItem(QString::fromStdString(name));
    // The first effort that moves something (joint 1 is held by a spin).
    for (std::size_t i = 0; i < model_->inputs.size(); ++i)
      if (std::find(model_->held_inputs.begin(), model_->held_inputs.end(), model_->inputs[i]) == model_->held_inputs.end()) {
        input_->setCurrentIndex(static_cast<int>(i));
        break;
      }
    const std::pair<double, double> range = bodeFrequencyRange(model_->linearization);
    f_lo_->setValue(range.first);
    f_hi_->setValue(range.second);
  }
  for (QWidget* w : std::initializer_list<QWidget*>{input_, output_, f_lo_, f_hi_, points_, export_model_}) w->setEnabled(true);
  redraw();
  emit computed();
}

void FrequencyResponseDialog::redraw() {
  if (!model_) return;
  response_.reset();
  export_plot_->setEnabled(false);
  const double lo = f_lo_->value(), hi = f_hi_->value();
  if (!(hi > lo)) {
    setStatus("The highest frequency must be above the lowest.", true);
    return;
  }
  std::vector<double> modes;
  for (const LinearMode& m : model_->linearization.modes) modes.push_back(m.frequency_hz);
  const std::string& input = model_->inputs[static_cast<std::size_t>(std::max(input_->currentIndex(), 0))];
  if (std::find(model_->held_inputs.begin(), model_->held_inputs.end(), input) != model_->held_inputs.end()) {
    clearPlot();
    setStatus(QString::fromStdString(input) +
                  " drives a joint whose motion is prescribed, or held by the spin of the modes dock: it moves "
                  "nothing in the linear model. Choose another input, or drive the joint by an effort or a PD law.",
              true);
    return;
  }
  Result<FrequencyResponse> r =
      frequencyResponse(*model_, input_->currentIndex(), output_->currentIndex(), logSpacedFrequencies(lo, hi, points_->value()));
  if (!r) {
    clearPlot();
    setStatus(QString::fromStdString(r.error().text()), true);
    return;
  }
  response_ = std::make_unique<FrequencyResponse>(std::move(r.value()));
  const QString title = project_name_ + ": " + QString::fromStdString(response_->input + " -> " + response_->output);
  drawBode(plot_, *response_, title, modes);
  export_plot_->setEnabled(true);
  QString text = QString(
                     "%1 states. Dotted lines: the natural frequencies; dashed grey: the model's resolution floor (below it, "
                     "numerical noise).")
                     .arg(model_->A.rows());
  const Result<double> dc = dcGain(*model_, input_->currentIndex(), output_->currentIndex());
  if (dc)
    text += QString(" Static gain %1 %2/%3.")
                .arg(QString::number(dc.value(), 'g', 5), QString::fromStdString(response_->output_unit),
                     QString::fromStdString(response_->input_unit));
  else
    text += " No static gain: a rigid-body mode (a joint without a spring).";
  setStatus(text, false);
}

bool FrequencyResponseDialog::setInput(const QString& name) {
  const int i = input_->findText(name);
  if (i < 0) return false;
  input_->setCurrentIndex(i);
  return true;
}

bool FrequencyResponseDialog::setOutput(const QString& name) {
  const int i = output_->findText(name);
  if (i < 0) return false;
  output_->setCurrentIndex(i);
  return true;
}

void FrequencyResponseDialog::setFrequencyRange(double lo_hz, double hi_hz, int points) {
  {
    const QSignalBlocker a(f_lo_), b(f_hi_), c(points_);
    f_lo_->setValue(lo_hz);
    f_hi_->setValue(hi_hz);
    points_->setValue(points);
  }
  redraw();
}

std::string FrequencyResponseDialog::exportPlotTo(const QString& file, const ExportSize& size) {
  if (!response_) return "there is no frequency response to export";
  return exportPlot(plot_, file, size);
}

std::string FrequencyResponseDialog::exportModelTo(const QString& file) {
  if (!model_) return "there is no linear model to export";
  const Status written = writeStateSpaceFile(*model_, description_, file.toStdString());
  return written ? std::string() : written.error().text();
}

}  // namespace flexarm
