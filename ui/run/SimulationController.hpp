#pragma once
// Runs a project on a worker thread. The solver thread copies each new result row into a
// mutex-protected buffer; the GUI thread takes them when it wants (it never waits on the solver).
// Run, pause, stop; the final Results (complete, failed, diverged or cancelled) arrive by signal.
#include <QObject>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm {

class SimulationController : public QObject {
  Q_OBJECT
 public:
  explicit SimulationController(QObject* parent = nullptr);
  ~SimulationController() override;

  bool isRunning() const { return running_.load(); }
  bool start(const Project& project);  // false when a run is already going
  void stop();                         // takes effect at the next solver step
  void setPaused(bool paused);
  bool isPaused() const { return paused_.load(); }

  // Progress in simulated time and an estimate of the wall time left [s] (negative: unknown).
  double simulatedTime() const { return t_.load(); }
  double endTime() const { return t_end_; }
  double secondsLeft() const;
  // Simulated seconds per wall-clock second since the run started; -1 before the first step.
  double realTimeFactor() const;

  // The rows recorded since the last call (row-major, all channels of the run) and their count.
  std::size_t takeNewRows(std::vector<double>& rows);

 signals:
  void finished(std::shared_ptr<const flexarm::Results> results);

 private:
  void join();
  std::thread worker_;
  std::atomic<bool> running_{false}, cancel_{false}, paused_{false};
  std::atomic<double> t_{0.0};
  double t_end_ = 0.0;
  std::chrono::steady_clock::time_point started_;
  mutable std::mutex mutex_;
  std::vector<Channel> channels_;
  std::vector<double> pending_;  // rows not yet taken by the GUI
};

}  // namespace flexarm
