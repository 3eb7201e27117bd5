#include "ui/analysis/StaticDialog.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include "base/NumberFormat.hpp"
#include "model/Names.hpp"

namespace flexarm {

namespace {
QString num(double v) { return QString::fromStdString(formatShort(v, 6)); }
}  // namespace

StaticDialog::StaticDialog(std::function<const Project*()> project,
                           std::function<std::shared_ptr<const MultibodySystem>()> system, QWidget* parent)
    : QDialog(parent), project_(std::move(project)), system_(std::move(system)) {
  setWindowTitle("Static equilibrium");
  setObjectName("staticDialog");
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel("Laws taken at t =", this));
  time_ = new QDoubleSpinBox(this);
  time_->setObjectName("static.time");
  time_->setRange(0.0, 1e6);
  time_->setDecimals(3);
  time_->setSuffix(" s");
  time_->setToolTip(
      "The time at which the drives' set-points, the prescribed motions and the loads' laws are taken; the arm "
      "is held still there");
  row->addWidget(time_);
  solve_ = new QPushButton("Solve", this);
  solve_->setObjectName("static.solve");
  solve_->setDefault(true);
  cancel_ = new QPushButton("Cancel", this);
  cancel_->setEnabled(false);
  row->addWidget(solve_);
  row->addWidget(cancel_);
  row->addStretch(1);
  layout->addLayout(row);
  status_ = new QLabel("Solve for the configuration where gravity, the loads, the drives and the stiffness balance.", this);
  status_->setObjectName("static.status");
  status_->setWordWrap(true);
  layout->addWidget(status_);
  table_ = new QTableWidget(0, 3, this);
  table_->setObjectName("static.table");
  table_->setHorizontalHeaderLabels({"", "position / deflection", "effort"});
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(table_, 1);
  resize(560, 380);
  connect(solve_, &QPushButton::clicked, this, [this] { solve(); });
  connect(cancel_, &QPushButton::clicked, this, [this] { cancel(); });
  connect(&watcher_, &QFutureWatcher<StaticSolution>::finished, this, [this] {
    solution_ = std::make_unique<StaticSolution>(watcher_.result());
    solving_ = false;
    solve_->setEnabled(true);
    cancel_->setEnabled(false);
    showSolution();
    emit finished();
  });
}

StaticDialog::~StaticDialog() {
  cancel();
  watcher_.waitForFinished();
}

void StaticDialog::setTime(double t) { time_->setValue(t); }
bool StaticDialog::isSolving() const { return solving_; }
QString StaticDialog::statusText() const { return status_->text(); }

void StaticDialog::cancel() {
  if (stop_) *stop_ = true;
}

bool StaticDialog::solve() {
  if (solving_) return false;
  const Project* p = project_();
  if (!p || p->model.links.empty()) {
    status_->setText("Nothing to solve: the project has errors or no links.");
    return false;
  }
  solved_project_ = *p;
  stop_ = std::make_shared<std::atomic<bool>>(false);
  StaticOptions options;
  options.t = time_->value();
  options.cancel = stop_.get();
  const Project project = solved_project_;
  std::shared_ptr<const MultibodySystem> shared = system_ ? system_() : nullptr;
  auto stop = stop_;  // kept alive by the task
  solving_ = true;
  solution_.reset();
  solve_->setEnabled(false);
  cancel_->setEnabled(true);
  table_->setRowCount(0);
  status_->setText("Solving...");
  watcher_.setFuture(QtConcurrent::run([project, shared, options, stop] {
    if (shared) return staticEquilibrium(project, *shared, options);
    return staticEquilibrium(project, MultibodySystem::fromModel(project.model, project.coupling), options);
  }));
  return true;
}

void StaticDialog::showSolution() {
  const StaticSolution& s = *solution_;
  if (s.interrupted) {
    status_->setText("Cancelled.");
    return;
  }
  if (!s.converged) {
    status_->setText("No equilibrium: " + QString::fromStdString(s.message));
    return;
  }
  status_->setText(QString("Equilibrium found in %1 Newton iterations and %2 load step%3 (force residual %4 of %5). The 3D "
                           "view shows it.")
                       .arg(s.iterations)
                       .arg(s.load_steps)
                       .arg(s.load_steps == 1 ? "" : "s")
                       .arg(QString::fromStdString(formatShort(s.residual, 2)), num(s.force_scale)));
  const Model& m = solved_project_.model;
  auto add = [this](const QString& what, const QString& value, const QString& effort) {
    const int r = table_->rowCount();
    table_->insertRow(r);
    table_->setItem(r, 0, new QTableWidgetItem(what));
    table_->setItem(r, 1, new QTableWidgetItem(value));
    table_->setItem(r, 2, new QTableWidgetItem(effort));
  };
  auto channel = [&s](const std::string& name) {
    const int c = s.results.channelIndex(name);
    return c < 0 || s.results.rows() == 0 ? std::nan("") : s.results.value(0, static_cast<std::size_t>(c));
  };
  for (std::size_t j = 0; j < m.joints.size(); ++j) {
    const Joint& joint = m.joints[j];
    const bool revolute = joint.type == JointType::Revolute;
    add("joint " + QString::fromStdString(joint.name),
        num(channel(names::jointCoordinate(joint.name))) + (revolute ? " rad" : " m"),
        num(s.effort(static_cast<int>(j))) + (revolute ? " N m" : " N"));
  }
  for (const Link& link : m.links) {
    if (!link.flex) continue;
    const QString tip = QString("tip of %1: ").arg(QString::fromStdString(link.name));
    add(tip + "u, v, w",
        QString("%1, %2, %3 m")
            .arg(num(channel(names::linkTip(link.name, "u"))), num(channel(names::linkTip(link.name, "v"))),
                 num(channel(names::linkTip(link.name, "w")))),
        "");
    add(tip + "twist", num(channel(names::linkTip(link.name, "phi"))) + " rad", "");
  }
  add("end effector",
      QString("%1, %2, %3 m")
          .arg(num(channel(names::endEffector('x'))), num(channel(names::endEffector('y'))),
               num(channel(names::endEffector('z')))),
      "");
  emit stateFound(s.q);
}

}  // namespace flexarm
