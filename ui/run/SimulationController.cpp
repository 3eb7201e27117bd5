#include "ui/run/SimulationController.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <QMetaObject>

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

bool SimulationController::start(const Project& project) {
  if (running_.load()) return false;
  join();
  cancel_ = false;
  paused_ = false;
  t_ = 0.0;
  t_end_ = project.simulation.t_end;
  started_ = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    channels_.clear();
    pending_.clear();
  }
  running_ = true;
  worker_ = std::thread([this, project] {
    // The solver yields to the GUI (and to the software renderer's threads): nice 10 for this thread.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    RunControl control;
    control.cancel = &cancel_;
    control.pause = &paused_;
    control.progress = [this](double t, double) { t_ = t; };
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
    auto results = std::make_shared<const Results>(simulate(project, control));
    running_ = false;
    QMetaObject::invokeMethod(
        this, [this, results] { emit finished(results); }, Qt::QueuedConnection);
  });
  return true;
}

void SimulationController::stop() { cancel_ = true; }

void SimulationController::setPaused(bool paused) { paused_ = paused; }

double SimulationController::secondsLeft() const {
  const double t = t_.load();
  if (t <= 0.0 || !running_.load()) return -1.0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return wall * (t_end_ - t) / t;
}

double SimulationController::realTimeFactor() const {
  const double t = t_.load();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (t <= 0.0 || wall <= 0.0 || !running_.load()) return -1.0;
  return t / wall;
}

std::size_t SimulationController::takeNewRows(std::vector<double>& rows) {
  std::lock_guard<std::mutex> lock(mutex_);
  rows.swap(pending_);
  pending_.clear();
  return channels_.empty() ? 0 : rows.size() / channels_.size();
}

}  // namespace flexarm
