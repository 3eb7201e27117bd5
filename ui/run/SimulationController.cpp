#include "ui/run/SimulationController.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <QMetaObject>
#include <algorithm>

#include "solvers/Simulation.hpp"

namespace flexarm {

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const flexarm::Results>>("std::shared_ptr<const flexarm::Results>");
}

SimulationController::~SimulationController() {
  cancel_ = true;
  join();
}

void SimulationController::join() {
  if (worker_.joinable()) worker_.join();
}

bool SimulationController::start(const Project& project, std::shared_ptr<const MultibodySystem> system) {
  if (running_.load()) return false;
  join();
  cancel_ = false;
  paused_ = false;
  t_ = project.simulation.t_start;
  t_end_ = project.simulation.t_end;
  t_start_ = project.simulation.t_start;
  started_ = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    channels_.clear();
    pending_.clear();
    held_ = {};
    holding_.reset();
  }
  running_ = true;
  worker_ = std::thread([this, project, system] {
    // The solver yields to the GUI (and to the software renderer's threads): nice 10 for this thread.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    RunControl control;
    control.cancel = &cancel_;
    control.label = project.name;
    // The pause is held here rather than by RunControl::pause, to time it: the run's wall time leaves it out.
    control.progress = [this](double t, double) {
      t_ = t;
      holdWhilePaused();
    };
    control.started = [this](const std::vector<Channel>& channels) {
      std::lock_guard<std::mutex> lock(mutex_);
      channels_ = channels;
    };
    control.rows_recorded = [this](const Results& r, std::size_t first) {
      const std::size_t n = r.channels().size();
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::size_t row = first; row < r.rows(); ++row)
        for (std::size_t c = 0; c < n; ++c) pending_.push_back(r.value(row, c));
    };
    Results done = system ? simulate(*system, project.simulation, control) : simulate(project, control);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done.stats.wall_time = std::max(0.0, done.stats.wall_time - std::chrono::duration<double>(held_).count());
    }
    auto results = std::make_shared<const Results>(std::move(done));
    running_ = false;
    QMetaObject::invokeMethod(
        this, [this, results] { emit finished(results); }, Qt::QueuedConnection);
  });
  return true;
}

void SimulationController::stop() { cancel_ = true; }

void SimulationController::setPaused(bool paused) { paused_ = paused; }

void SimulationController::holdWhilePaused() {
  if (!paused_.load()) return;
  const Clock::time_point from = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    holding_ = from;
  }
  while (paused_.load() && !cancel_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::lock_guard<std::mutex> lock(mutex_);
  held_ += Clock::now() - from;
  holding_.reset();
}

double SimulationController::workingSeconds() const {
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  Clock::duration working = now - started_ - held_;
  if (holding_) working -= now - *holding_;
  return std::chrono::duration<double>(working).count();
}

double SimulationController::secondsLeft() const {
  const double t = t_.load();
  if (t <= t_start_ || !running_.load()) return -1.0;
  return workingSeconds() * (t_end_ - t) / (t - t_start_);
}

double SimulationController::realTimeFactor() const {
  const double t = t_.load();
  const double wall = workingSeconds();
  if (t <= t_start_ || wall <= 0.0 || !running_.load()) return -1.0;
  return (t - t_start_) / wall;
}

std::size_t SimulationController::takeNewRows(std::vector<double>& rows) {
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(pending_);
  pending_.clear();
  return channels_.empty() ? 0 : rows.size() / channels_.size();
}

}  // namespace flexarm
