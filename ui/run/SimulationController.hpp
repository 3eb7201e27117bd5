#pragma once
// Runs a project on a worker thread. The solver thread copies each new result row into a
// mutex-protected buffer; the GUI thread takes them when it wants (it never waits on the solver).
// Run, pause, stop; the final Results (complete, failed, diverged or cancelled) arrive by signal.
// A pause holds the solver between two steps; the time paused is not the run's: the wall time of the
// Results, the real-time factor and the estimate of the time left count the solver's working time only.
#include <QObject>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm {

class SimulationController : public QObject {
  Q_OBJECT
 public:
  explicit SimulationController(QObject* parent = nullptr);
  ~SimulationController() override;

  bool isRunning() const { return running_.load(); }
  // Runs the project on its system (built on the worker when null); false when a run is already going.
  bool start(const Project& project, std::shared_ptr<const MultibodySystem> system = nullptr);
  void stop();                  // takes effect at the next solver step
  void setPaused(bool paused);  // takes effect after the solver's current step
  bool isPaused() const { return paused_.load(); }

  // Progress in simulated time and an estimate of the wall time left [s] (negative: unknown; frozen
  // while paused).
  double simulatedTime() const { return t_.load(); }
  double endTime() const { return t_end_; }
  double secondsLeft() const;
  // Simulated seconds per wall-clock second the solver worked (pauses excluded); -1 before the first step.
  double realTimeFactor() const;
  // The wall time of the run so far without its pauses [s].
  double workingSeconds() const;

  // The rows recorded since the last call (row-major, all channels of the run) and their count.
  std::size_t takeNewRows(std::vector<double>& rows);

 signals:
  void finished(std::shared_ptr<const flexarm::Results> results);

 private:
  using Clock = std::chrono::steady_clock;
  void join();
  void holdWhilePaused();  // on the solver's thread, between two steps
  std::thread worker_;
  std::atomic<bool> running_{false}, cancel_{false}, paused_{false};
  std::atomic<double> t_{0.0};
  double t_end_ = 0.0;
  double t_start_ = 0.0;  // a continued run starts later (simulation.t_start)
  Clock::time_point started_;
  mutable std::mutex mutex_;
  Clock::duration held_{};                    // the solver's time held in pauses, finished ones
  std::optional<Clock::time_point> holding_;  // since when the solver is held, while it is
  std::vector<Channel> channels_;
  std::vector<double> pending_;  // rows not yet taken by the GUI
};

}  // namespace flexarm
