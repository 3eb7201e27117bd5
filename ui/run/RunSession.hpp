#pragma once
// One project's run as a window sees it: the project and its discretized system (built once, or the
// document's), the run on a worker thread (SimulationController), the rows polled from it into the live
// Results, the finished Results, and the state at a time for playback. The main window has one session;
// the compare window one per variant. Windows pace the polling (their own timers) and draw; the session
// never touches a widget.
#include <QObject>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "model/Project.hpp"
#include "results/Results.hpp"

namespace flexarm {

class SimulationController;
struct MultibodySystem;

class RunSession : public QObject {
  Q_OBJECT
 public:
  explicit RunSession(QObject* parent = nullptr);
  ~RunSession() override;

  // The project to run from now on and its system (built here when null). Drops the results of the
  // project before. Ignored while running.
  void setProject(const Project& project, std::shared_ptr<const MultibodySystem> system = nullptr);
  void clear();  // no project (the editor's empty chain)
  const Project* project() const { return project_ ? &*project_ : nullptr; }
  const MultibodySystem* system() const { return system_.get(); }
  const std::shared_ptr<const MultibodySystem>& sharedSystem() const { return system_; }
  // With a case name the finished results are labelled as `flexarm-cli compare` labels a case's.
  void setCaseName(std::string name) { case_name_ = std::move(name); }

  // Starts the run: the live results get the run's channels. False without a project or while running.
  bool start();
  void stop();  // takes effect at the next solver step; finished() follows
  void setPaused(bool paused);
  bool isPaused() const;
  // From start() until finished() is emitted: true also while the solver's last rows wait for a poll.
  bool isRunning() const { return running_; }
  double simulatedTime() const;   // [s]
  double endTime() const;         // of the run [s]
  double secondsLeft() const;     // wall time, estimated; negative: unknown; frozen while paused
  double realTimeFactor() const;  // -1 before the first step; pauses excluded
  double workingSeconds() const;  // wall time of the run so far, pauses excluded [s]

  // Moves the rows recorded since the last poll into live(); returns their count and, when rows is
  // given, them (row-major, every channel). After finished() the last rows can still be polled.
  std::size_t poll(std::vector<double>* rows = nullptr);

  const Results& live() const { return live_; }              // the rows polled so far
  const Results* results() const { return results_.get(); }  // the finished run, or null
  const std::shared_ptr<const Results>& sharedResults() const { return results_; }
  const Results& current() const { return results_ ? *results_ : live_; }

  // Playback over current(): the last row at or before t (0 when there is none), and the full
  // coordinates of a row or of that time. False when there is no such row.
  std::size_t rowAt(double t) const;
  bool stateAtRow(std::size_t row, Eigen::VectorXd& q) const;
  bool stateAt(double t, Eigen::VectorXd& q) const { return stateAtRow(rowAt(t), q); }

 signals:
  void finished();  // results() is set: complete, failed, diverged or cancelled

 private:
  void onFinished(std::shared_ptr<const Results> results);

  SimulationController* controller_;
  std::optional<Project> project_;
  std::shared_ptr<const MultibodySystem> system_;
  std::string case_name_;
  bool running_ = false;
  Results live_;
  std::shared_ptr<const Results> results_;
};

}  // namespace flexarm
