#include "ui/view/ModePreview.hpp"

#include <QCheckBox>
#include <QColor>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <exception>

#include "dynamics/Centreline.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/document/ProjectDocument.hpp"

namespace flexarm {
namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kCycleSeconds = 1.5;  // one animation cycle, whatever the mode's frequency
const char* const kIdle = "Select a mode to animate it";
const char* const kPrompt = "Press Compute to find the natural frequencies.";

QString num(double x, int digits = 4) { return QString::number(x, 'g', digits); }

const char* jointUnit(JointType type) { return type == JointType::Prismatic ? "m" : "rad"; }

// The worker's job: everything here works on copies, never on the window's objects.
// The system is shared, immutable, with the window (joint q0, which the run's configuration replaces,
// is not part of it).
std::shared_ptr<ModePreview::Outcome> computeModes(Project project, std::shared_ptr<const MultibodySystem> sys,
                                                   LinearizationOptions options, std::optional<Eigen::VectorXd> run_q,
                                                   double run_time) {
  auto out = std::make_shared<ModePreview::Outcome>();
  try {
    if (!sys) sys = buildSystem(project);  // Compute pressed while the document still builds it
    out->system = sys;
    for (const Body& b : sys->bodies) out->reach += b.length;
    out->constrained = !project.model.constraints.empty();
    if (sys->isRigid()) {
      out->error =
          "No flexible coordinate: every link and joint of this arm is rigid, so it has no elastic modes. "
          "Make a link flexible or give a joint a spring (Properties), then compute again.";
      return out;
    }
    std::string joints;
    if (run_q) {
      if (run_q->size() != sys->nq) {
        out->error = "The run's coordinates do not fit the model (run it again).";
        return out;
      }
      for (std::size_t i = 0; i < sys->bodies.size() && i < project.model.joints.size(); ++i) {
        const Body& b = sys->bodies[i];
        const double q = (*run_q)(b.q_index);
        project.model.joints[i].q0 = q;
        joints += (joints.empty() ? "" : ", ") + b.joint_name + " " + num(q).toStdString() + " " + jointUnit(b.joint_type);
      }
      options.time = run_time;
      out->configuration = "the last run at t = " + num(run_time, 6).toStdString() + " s (" + joints + ")";
    } else {
      for (const Joint& j : project.model.joints)
        joints += (joints.empty() ? "" : ", ") + j.name + " " + num(j.q0).toStdString() + " " + jointUnit(j.type);
      out->configuration = "the initial configuration, joint q0 as edited (" + joints + ")";
    }
    if (options.lock_joints) out->configuration += "; joints clamped";
    if (options.spin_rate) out->configuration += "; joint 1 spinning at " + num(*options.spin_rate).toStdString() + " rad/s";
    out->result = linearize(project, *sys, options);
  } catch (const std::exception& e) {
    out->error = std::string("The linearization failed: ") + e.what();
  }
  return out;
}
}  // namespace

ModePreview::ModePreview(ArmView* view, std::function<Source()> source, QWidget* parent)
    : QWidget(parent), view_(view), source_(std::move(source)) {
  setObjectName("ModePreview");
  auto* layout = new QVBoxLayout(this);

  auto* options = new QFormLayout;
  use_run_ = new QCheckBox("At the timeline's time of the last run", this);
  use_run_->setToolTip(
      "Linearize about the configuration of the finished run at the timeline's current time "
      "(joint coordinates of that row as q0, prescribed motion frozen at that time); "
      "otherwise about the initial configuration (joint q0 as edited)");
  options->addRow("Configuration:", use_run_);
  clamp_ = new QCheckBox("Clamp joints (hold every joint at its q0)", this);
  clamp_->setChecked(true);
  options->addRow("Joints:", clamp_);
  auto* spin_row = new QHBoxLayout;
  spin_on_ = new QCheckBox("Spin joint 1 at", this);
  spin_on_->setToolTip("Linearize about a steady spin of joint 1: shows centrifugal (dynamic) stiffening");
  spin_ = new QDoubleSpinBox(this);
  spin_->setRange(-1000.0, 1000.0);
  spin_->setDecimals(3);
  spin_->setValue(2.0);
  spin_->setSuffix(" rad/s");
  spin_->setEnabled(false);
  spin_->setMaximumWidth(140);
  connect(spin_on_, &QCheckBox::toggled, spin_, &QWidget::setEnabled);
  spin_row->addWidget(spin_on_);
  spin_row->addWidget(spin_);
  spin_row->addStretch(1);
  options->addRow("Spin:", spin_row);
  layout->addLayout(options);

  auto* buttons = new QHBoxLayout;
  compute_ = new QPushButton("Compute modes", this);
  compute_->setToolTip("Linearize the arm about the configuration and list its natural frequencies");
  connect(compute_, &QPushButton::clicked, this, &ModePreview::compute);
  busy_ = new QProgressBar(this);
  busy_->setRange(0, 0);  // indeterminate: the linearization reports no progress
  busy_->setMaximumHeight(14);
  busy_->setVisible(false);
  frequency_response_ = new QPushButton("Frequency response...", this);
  frequency_response_->setToolTip(
      "Bode plot from a joint effort to a tip deflection or joint angle of the arm's linear model "
      "(about the initial configuration, or the spin; joints not clamped)");
  connect(frequency_response_, &QPushButton::clicked, this, &ModePreview::frequencyResponseRequested);
  buttons->addWidget(compute_);
  buttons->addWidget(frequency_response_);
  buttons->addWidget(busy_, 1);
  layout->addLayout(buttons);

  status_ = new QLabel(kPrompt, this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  configuration_ = new QLabel(this);
  configuration_->setWordWrap(true);
  summary_ = new QLabel(this);
  summary_->setObjectName("modes.summary");
  summary_->setWordWrap(true);
  layout->addWidget(status_);
  layout->addWidget(configuration_);
  layout->addWidget(summary_);

  table_ = new QTableWidget(0, 6, this);
  table_->setHorizontalHeaderLabels({"#", "f [Hz]", "omega [rad/s]", "damping [-]", "stability", "dominant coordinate"});
  table_->horizontalHeaderItem(1)->setToolTip("Damped natural frequency Im(lambda) / 2 pi [Hz]");
  table_->horizontalHeaderItem(2)->setToolTip("Undamped natural frequency |lambda| [rad/s]");
  table_->horizontalHeaderItem(3)->setToolTip("Damping ratio -Re(lambda) / |lambda| [-]");
  table_->horizontalHeaderItem(4)->setToolTip(
      "UNSTABLE: a divergence or a growing oscillation, with its growth rate Re(lambda) [1/s]");
  table_->horizontalHeaderItem(5)->setToolTip("The coordinate with the largest component of the mode shape");
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    const QList<QTableWidgetItem*> sel = table_->selectedItems();
    if (!sel.isEmpty()) animate(sel.front()->row());
  });
  layout->addWidget(table_, 1);

  auto* anim = new QHBoxLayout;
  anim->addWidget(new QLabel("Amplitude:", this));
  amplitude_box_ = new QDoubleSpinBox(this);
  amplitude_box_->setRange(0.1, 50.0);
  amplitude_box_->setDecimals(1);
  amplitude_box_->setValue(10.0);
  amplitude_box_->setSuffix(" % of reach");
  amplitude_box_->setToolTip(
      "The largest link-tip displacement drawn, as a fraction of the arm's reach (sum of the link lengths)");
  connect(amplitude_box_, &QDoubleSpinBox::valueChanged, this, [this] {
    amplitude_view_scale_ = 0.0;  // recompute a
    if (isAnimating() && paused_) showPhase(paused_phase_);
  });
  anim->addWidget(amplitude_box_);
  stop_ = new QPushButton("Stop", this);
  stop_->setToolTip("Stop the animation: the view shows the current state again");
  connect(stop_, &QPushButton::clicked, this, &ModePreview::stopAnimation);
  anim->addWidget(stop_);
  layout->addLayout(anim);
  reach_label_ = new QLabel(kIdle, this);
  anim->addWidget(reach_label_, 2);

  timer_ = new QTimer(this);
  timer_->setInterval(40);  // 25 frames per second at most; the phase follows the clock
  connect(timer_, &QTimer::timeout, this, &ModePreview::tick);
  watcher_ = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &ModePreview::onComputed);
  refreshSource();
  updateControls();
}

// A computation still running keeps only its own copies; its result is dropped with the watcher.
ModePreview::~ModePreview() = default;

void ModePreview::setClampJoints(bool clamp) { clamp_->setChecked(clamp); }

void ModePreview::setSpinRate(std::optional<double> rate) {
  spin_on_->setChecked(rate.has_value());
  if (rate) spin_->setValue(*rate);
}

std::optional<double> ModePreview::spinRate() const {
  return spin_on_->isChecked() ? std::optional<double>(spin_->value()) : std::nullopt;
}

void ModePreview::setUseRunConfiguration(bool use) { use_run_->setChecked(use); }

void ModePreview::setAmplitude(double fraction) { amplitude_box_->setValue(100.0 * fraction); }

double ModePreview::targetDisplacement() const { return outcome_ ? amplitude_box_->value() / 100.0 * outcome_->reach : 0.0; }

// Computing until onComputed has taken the result in: the watcher's finished signal arrives through the
// event loop after the future itself has finished.
bool ModePreview::isComputing() const { return computing_; }

QString ModePreview::statusText() const { return status_->text(); }

QString ModePreview::configurationText() const { return configuration_->text(); }

void ModePreview::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? "QLabel { color: #8a1c12; font-weight: bold; }" : "");
}

void ModePreview::compute() {
  if (isComputing()) return;
  stopAnimation();
  const Source src = source_ ? source_() : Source{};
  if (!src.project) {
    data_.reset();
    outcome_.reset();
    out_of_date_ = false;
    fillTable();
    setStatus("The chain is empty: add a link (+ Link in the Model dock), then compute the modes.", true);
    emit finished();
    return;
  }
  LinearizationOptions options;
  options.lock_joints = clamp_->isChecked();
  if (spin_on_->isChecked()) options.spin_rate = spin_->value();
  std::optional<Eigen::VectorXd> run_q;
  if (use_run_->isChecked() && src.run_q) run_q = src.run_q;
  requested_generation_ = generation_;
  busy_->setVisible(true);
  setStatus("Computing the natural modes...", false);
  updateControls();
  computing_ = true;
  watcher_->setFuture(QtConcurrent::run([project = *src.project, system = src.system, options, run_q, t = src.run_time] {
    return computeModes(project, system, options, run_q, t);
  }));
  updateControls();
}

void ModePreview::onComputed() {
  computing_ = false;
  std::shared_ptr<Outcome> o = watcher_->result();
  busy_->setVisible(false);
  if (requested_generation_ < replaced_generation_) {  // the modes of a project no longer open
    setStatus(kPrompt, false);
    updateControls();
    emit finished();
    return;
  }
  data_.reset();  // before the system it refers to
  outcome_ = o;
  if (o->system && o->result.message.empty() && o->error.empty()) data_ = std::make_unique<DynamicsData>(*o->system);
  out_of_date_ = requested_generation_ != generation_;
  fillTable();
  const LinearizationResult& r = o->result;
  if (!o->error.empty())
    setStatus(QString::fromStdString(o->error), true);
  else if (!r.message.empty())
    setStatus("No modes: " + QString::fromStdString(r.message) + ".", true);
  else if (r.modes.empty())
    setStatus("No oscillatory mode: every eigenvalue is a rigid-body motion or an overdamped decay.", true);
  else if (out_of_date_)
    setStatus("Out of date: the model changed while the modes were computed. Press Compute to update them.", true);
  else
    setStatus("Select a mode to animate it in the 3D view (one cycle per 1.5 s, whatever its frequency).", false);
  updateControls();
  emit finished();
}

void ModePreview::fillTable() {
  const QSignalBlocker block(table_);
  table_->clearContents();
  table_->setRowCount(0);
  summary_->clear();
  configuration_->setText(outcome_ && !outcome_->configuration.empty()
                              ? "Linearized about " + QString::fromStdString(outcome_->configuration) + "."
                              : QString());
  if (!outcome_ || !outcome_->error.empty() || !outcome_->result.message.empty()) return;
  const LinearizationResult& r = outcome_->result;
  table_->setRowCount(static_cast<int>(r.modes.size()));
  auto cell = [this](int row, int col, const QString& text, bool right = true) {
    auto* item = new QTableWidgetItem(text);
    if (right) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table_->setItem(row, col, item);
    return item;
  };
  for (std::size_t k = 0; k < r.modes.size(); ++k) {
    const LinearMode& m = r.modes[k];
    const int row = static_cast<int>(k);
    cell(row, 0, QString::number(k + 1));
    cell(row, 1, num(m.frequency_hz, 6));
    cell(row, 2, num(m.omega, 6));
    cell(row, 3, num(m.damping_ratio, 4));
    QTableWidgetItem* st =
        cell(row, 4, m.unstable ? "UNSTABLE, grows " + num(m.growth_rate, 3) + " 1/s" : QString("stable"), false);
    if (m.unstable) st->setForeground(QColor(0xb0, 0x20, 0x10));
    int imax = 0;
    if (m.shape.size() > 0) m.shape.cwiseAbs().maxCoeff(&imax);
    cell(row, 5,
         imax < static_cast<int>(r.coordinate_descriptions.size()) ? QString::fromStdString(r.coordinate_descriptions[imax])
                                                                   : QString(),
         false);
  }
  QString summary = QString("%1 modes, %2 rigid-body mode%3 (zero frequency). Equilibrium residual %4 (N or N m).")
                        .arg(r.modes.size())
                        .arg(r.rigid_body_modes)
                        .arg(r.rigid_body_modes == 1 ? "" : "s")
                        .arg(num(r.equilibrium_residual, 3));
  if (r.joint_residual > 1e-6)
    summary += QString(
                   " The configuration is not an equilibrium of the free joints (unbalanced %1 N or N m): "
                   "these are the modes of the instantaneous linearization.")
                   .arg(num(r.joint_residual, 3));
  if (outcome_->constrained) summary += " The modes are the motions the project's constraints allow.";
  summary_->setText(summary);
}

bool ModePreview::animate(int mode) {
  if (!outcome_ || !data_ || mode < 0 || mode >= static_cast<int>(outcome_->result.modes.size())) return false;
  if (out_of_date_) {
    setStatus("Out of date: the model changed after these modes were computed. Press Compute to animate them.", true);
    return false;
  }
  if (running_) {
    setStatus("A simulation is running: the modes can be animated when it ends.", true);
    return false;
  }
  if (view_->state().size() != outcome_->system->nq) {
    setStatus("The 3D view shows another model: press Compute again.", true);
    return false;
  }
  if (animated_ < 0) restore_q_ = view_->state();
  animated_ = mode;
  paused_ = false;
  amplitude_view_scale_ = 0.0;
  {
    const QSignalBlocker block(table_);
    table_->selectRow(mode);
  }
  emit animationStarted();
  clock_.start();
  drawAt(0.0);
  timer_->start();
  updateControls();
  return true;
}

bool ModePreview::showPhase(double phase) {
  if (!isAnimating()) return false;
  paused_ = true;
  paused_phase_ = phase;
  timer_->stop();
  drawAt(phase);
  return true;
}

void ModePreview::stopAnimation() {
  if (animated_ < 0) return;
  timer_->stop();
  animated_ = -1;
  paused_ = false;
  if (restore_q_.size() > 0) view_->showState(restore_q_);
  restore_q_.resize(0);
  view_->setColouring(view_->colouring());  // the colour range grew with the mode's amplitude: start it afresh
  {
    const QSignalBlocker block(table_);
    table_->clearSelection();
  }
  reach_label_->setText(kIdle);
  reach_label_->setToolTip(QString());
  updateControls();
}

void ModePreview::tick() {
  if (!isAnimating() || paused_) return;
  drawAt(2 * kPi * static_cast<double>(clock_.elapsed()) / (1000.0 * kCycleSeconds));
}

void ModePreview::drawAt(double phase) {
  updateAmplitude();
  const LinearizationResult& r = outcome_->result;
  const Result<Eigen::VectorXd> q =
      modeDisplacement(r, r.modes[static_cast<std::size_t>(animated_)], amplitude_ * std::sin(phase));
  if (q) view_->showState(*q);  // a mode of this result: always
}

double ModePreview::drawnTipDisplacement(double a) const {
  const MultibodySystem& sys = *outcome_->system;
  const LinearizationResult& r = outcome_->result;
  const double s = view_->deformationScale();
  Eigen::VectorXd q0 = r.equilibrium_q;
  Result<Eigen::VectorXd> displaced = modeDisplacement(r, r.modes[static_cast<std::size_t>(animated_)], a);
  if (!displaced) return 0.0;
  Eigen::VectorXd q1 = std::move(*displaced);
  for (int i = 0; i < sys.nq; ++i)
    if (sys.coordinates.kinds[i] == CoordinateKind::Elastic) {  // drawn as the view draws them
      q0(i) *= s;
      q1(i) *= s;
    }
  const auto at_rest = deformedCentrelines(sys, *data_, q0, 2);
  const auto moved = deformedCentrelines(sys, *data_, q1, 2);
  double d = 0.0;
  for (std::size_t i = 0; i < at_rest.size(); ++i) d = std::max(d, (moved[i].back() - at_rest[i].back()).norm());
  return d;
}

bool ModePreview::updateAmplitude() {
  const double s = view_->deformationScale();
  if (s == amplitude_view_scale_) return true;
  amplitude_view_scale_ = s;
  const double target = targetDisplacement();
  // The tip displacement is nearly linear in a: a first estimate from a small step, then a few
  // corrections for the curvature of large rotations.
  const double probe = 1e-6;  // the shape's largest component is 1 [m or rad]
  const double slope = drawnTipDisplacement(probe) / probe;
  const QString mode_name = QString("Mode %1").arg(animated_ + 1);
  if (!std::isfinite(slope) || slope < 1e-9) {
    amplitude_ = amplitude_box_->value() / 100.0;
    reach_label_->setText(mode_name + " moves no link tip (a twist?): largest coordinate at " + num(amplitude_) + " m or rad");
    return false;
  }
  double a = target / slope;
  for (int it = 0; it < 6; ++it) {
    const double got = drawnTipDisplacement(a);
    if (!std::isfinite(got) || got <= 0.0) break;
    a *= target / got;
    if (std::abs(target / got - 1.0) < 1e-6) break;
  }
  amplitude_ = a;
  reach_label_->setText(QString("%1: tip moves %2 m of the %3 m reach")
                            .arg(mode_name)
                            .arg(num(drawnTipDisplacement(a), 3))
                            .arg(num(outcome_->reach, 4)));
  reach_label_->setToolTip(
      QString("Drawn: q_eq + a sin(phase) shape with a = %1 (the shape's largest component is 1, in m or rad), "
              "at the view's deformation scale x%2; one cycle per 1.5 s whatever the mode's frequency.")
          .arg(num(a, 3))
          .arg(num(s, 4)));
  return true;
}

void ModePreview::documentChanged() {
  ++generation_;
  stopAnimation();
  if (outcome_ && !out_of_date_) {
    out_of_date_ = true;
    setStatus("Out of date: the model changed after these modes were computed. Press Compute to update them.", true);
  }
  refreshSource();
  updateControls();
}

void ModePreview::projectReplaced() {
  replaced_generation_ = ++generation_;
  stopAnimation();
  data_.reset();  // before the system it refers to
  outcome_.reset();
  out_of_date_ = false;
  fillTable();
  setStatus(isComputing() ? "Another project was opened: the modes being computed are dropped. Press Compute again." : kPrompt,
            false);
  refreshSource();
  updateControls();
}

void ModePreview::setSimulationRunning(bool running) {
  running_ = running;
  if (running) stopAnimation();
  refreshSource();
  updateControls();
}

void ModePreview::refreshSource() {
  const Source s = source_ ? source_() : Source{};
  use_run_->setEnabled(s.run_q.has_value());
  use_run_->setText(s.run_q ? QString("At the timeline's time of the last run (t = %1 s)").arg(num(s.run_time, 6))
                            : QString("At the timeline's time of the last run (none yet: initial configuration)"));
}

void ModePreview::updateControls() {
  compute_->setEnabled(!isComputing());
  stop_->setEnabled(isAnimating());
  table_->setEnabled(!out_of_date_);
}

}  // namespace flexarm
