#pragma once
// Analysis > Static equilibrium: the arm held still under gravity, its loads and its drives
// (core/analysis/StaticEquilibrium.hpp, as `flexarm-cli static`), solved on a worker thread with a copy
// of the project (cancellable), shown as a table of joint positions and efforts and tip deflections;
// the equilibrium's coordinates go to the 3D view (stateFound).
#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <functional>
#include <memory>

#include "analysis/StaticEquilibrium.hpp"
#include "model/Project.hpp"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace flexarm {

struct MultibodySystem;

class StaticDialog : public QDialog {
  Q_OBJECT
 public:
  // `project` gives the open project when Solve is pressed (null: none, or an empty chain), `system` its
  // discretized system (null: built on the solver's thread).
  StaticDialog(std::function<const Project*()> project, std::function<std::shared_ptr<const MultibodySystem>()> system,
               QWidget* parent = nullptr);
  ~StaticDialog() override;  // a solve still running is cancelled and waited for

  void setTime(double t);  // [s]: the time at which the laws are taken
  bool solve();            // starts on a worker thread; false (with the reason in the status) when refused
  void cancel();
  bool isSolving() const;  // from solve() until its solution is shown
  QString statusText() const;
  QTableWidget* table() const { return table_; }
  const StaticSolution* solution() const { return solution_.get(); }

 signals:
  void stateFound(const Eigen::VectorXd& q);  // every coordinate at the equilibrium
  void finished();                            // solved, failed or cancelled

 private:
  void showSolution();

  std::function<const Project*()> project_;
  std::function<std::shared_ptr<const MultibodySystem>()> system_;
  Project solved_project_;
  QDoubleSpinBox* time_ = nullptr;
  QPushButton* solve_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QLabel* status_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::shared_ptr<std::atomic<bool>> stop_;
  QFutureWatcher<StaticSolution> watcher_;
  std::unique_ptr<StaticSolution> solution_;
  bool solving_ = false;
};

}  // namespace flexarm
