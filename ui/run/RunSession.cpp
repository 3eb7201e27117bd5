#include "ui/run/RunSession.hpp"

#include "results/RowCoordinates.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/run/SimulationController.hpp"

namespace flexarm {

RunSession::RunSession(QObject* parent) : QObject(parent), controller_(new SimulationController(this)) {
  connect(controller_, &SimulationController::finished, this, &RunSession::onFinished);
}

RunSession::~RunSession() = default;  // the controller cancels and joins its worker

void RunSession::setProject(const Project& project, std::shared_ptr<const MultibodySystem> system) {
  if (running_) return;
  project_ = project;
  system_ = system ? std::move(system) : buildSystem(project);
  live_ = Results{};
  results_.reset();
}

void RunSession::clear() {
  if (running_) return;
  project_.reset();
  system_.reset();
  live_ = Results{};
  results_.reset();
}

bool RunSession::start() {
  if (!project_ || running_) return false;
  results_.reset();
  live_ = Results{};
  live_.setChannels(runChannels(*system_, project_->simulation));
  if (!controller_->start(*project_, system_)) return false;
  running_ = true;
  return true;
}

void RunSession::stop() { controller_->stop(); }
void RunSession::setPaused(bool paused) { controller_->setPaused(paused); }
bool RunSession::isPaused() const { return controller_->isPaused(); }
double RunSession::simulatedTime() const { return controller_->simulatedTime(); }
double RunSession::endTime() const { return controller_->endTime(); }
double RunSession::secondsLeft() const { return controller_->secondsLeft(); }
double RunSession::realTimeFactor() const { return controller_->realTimeFactor(); }
double RunSession::workingSeconds() const { return controller_->workingSeconds(); }

std::size_t RunSession::poll(std::vector<double>* rows) {
  std::vector<double> taken;
  const std::size_t count = controller_->takeNewRows(taken);
  const std::size_t n = live_.channels().size();
  for (std::size_t r = 0; r < count; ++r) live_.appendRow(taken.data() + r * n);
  if (rows) rows->swap(taken);
  return count;
}

void RunSession::onFinished(std::shared_ptr<const Results> results) {
  if (!case_name_.empty() && project_) {
    auto labelled = std::make_shared<Results>(*results);
    labelCaseResults(*labelled, project_->name, case_name_);
    results = std::move(labelled);
  }
  results_ = std::move(results);
  running_ = false;
  emit finished();
}

std::size_t RunSession::rowAt(double t) const {
  const Results& r = current();
  // Binary search for the first row after t (times increase), then one back.
  std::size_t lo = 0, hi = r.rows();
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (r.value(mid, 0) <= t + 1e-12)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > 0 ? lo - 1 : 0;
}

bool RunSession::stateAtRow(std::size_t row, Eigen::VectorXd& q) const {
  const Results& r = current();
  return system_ && row < r.rows() && coordinatesAtRow(*system_, r, row, q);
}

}  // namespace flexarm
