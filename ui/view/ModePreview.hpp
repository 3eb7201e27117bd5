#pragma once
// Mode preview: the natural frequencies of the arm linearized about a configuration (the engine's
// linearize(), run on a worker thread with a copy of the project) and an animation of a selected mode
// shape in the main 3D view. The configuration is the initial one (joint q0 as edited) or, after a
// finished run, the one at the timeline's time. The animation runs at 1.5 s per cycle whatever the
// mode's frequency, with an amplitude given as a fraction of the arm's reach: the largest drawn
// link-tip displacement equals it (at the view's deformation scale). It draws q_eq + a sin(phase) shape.
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "analysis/Linearization.hpp"
#include "dynamics/DynamicsData.hpp"
#include "model/Project.hpp"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace flexarm {

class ArmView;

class ModePreview : public QWidget {
  Q_OBJECT
 public:
  // What the window offers to linearize about, asked for when Compute is pressed.
  struct Source {
    const Project* project = nullptr;               // the edited project; nullptr: the chain is empty
    std::shared_ptr<const MultibodySystem> system;  // its discretized system (the document's; null: built by compute())
    std::optional<Eigen::VectorXd> run_q;           // a finished run: full coordinates at the timeline's time
    double run_time = 0.0;                          // that time [s]
  };
  // The computation's product: the result and what drawing it needs.
  struct Outcome {
    std::string error;  // why there are no modes (empty: see result.message)
    LinearizationResult result;
    std::shared_ptr<const MultibodySystem> system;  // the layout of result.equilibrium_q
    std::string configuration;                      // what was linearized about, in words
    double reach = 0.0;                             // sum of the link lengths [m]
    bool constrained = false;                       // the project has constraints, which the linearization ignores
  };

  ModePreview(ArmView* view, std::function<Source()> source, QWidget* parent = nullptr);
  ~ModePreview() override;

  // Options (the dock's controls).
  void setClampJoints(bool clamp);
  void setSpinRate(std::optional<double> rate);  // [rad/s] joint 1 spinning steadily, or none
  void setUseRunConfiguration(bool use);         // the timeline's time of the last run (when there is one)
  void setAmplitude(double fraction);            // of the reach, e.g. 0.1
  std::optional<double> spinRate() const;        // the spin option, when ticked [rad/s]

  void compute();  // starts the linearization on a worker thread (or reports why it cannot)
  bool isComputing() const;
  const Outcome* outcome() const { return outcome_.get(); }  // the last finished computation
  bool isOutOfDate() const { return out_of_date_; }
  QString statusText() const;         // the message line: progress, errors, out of date
  QString configurationText() const;  // which configuration the modes belong to
  QTableWidget* table() const { return table_; }

  // Animation of a mode (index into outcome()->result.modes) in the view.
  bool animate(int mode);
  void stopAnimation();  // the view returns to the state it showed before the animation
  bool isAnimating() const { return animated_ >= 0; }
  int animatedMode() const { return animated_; }
  // Pauses the animation at a phase [rad] (still animating: stopAnimation() restores the view), for
  // still images; true when a mode is animated.
  bool showPhase(double phase);
  double modalAmplitude() const { return amplitude_; }  // a in q_eq + a sin(phase) shape
  double targetDisplacement() const;                    // the requested drawn tip displacement [m]

  // Events of the window.
  void documentChanged();                   // stops the animation; the modes become out of date
  void projectReplaced();                   // another project (opened, new): no modes, none computing
  void setSimulationRunning(bool running);  // stops the animation, which waits for the run to end
  void refreshSource();                     // a run finished or the timeline moved: the run option's label

 signals:
  void finished();          // a computation ended (modes or an error)
  void animationStarted();  // the view now follows the mode (the window pauses its timeline)
  // Frequency response... was pressed: the window opens the Bode plot of the arm's linear model.
  void frequencyResponseRequested();

 private:
  void onComputed();
  void fillTable();
  void tick();
  void drawAt(double phase);
  bool updateAmplitude();                       // a for the requested displacement at the view's deformation scale
  double drawnTipDisplacement(double a) const;  // largest link-tip displacement from q_eq, drawn [m]
  void setStatus(const QString& text, bool error);
  void updateControls();

  ArmView* view_;
  std::function<Source()> source_;
  QCheckBox *clamp_, *spin_on_, *use_run_;
  QDoubleSpinBox *spin_, *amplitude_box_;
  QPushButton *compute_, *stop_, *frequency_response_;
  QProgressBar* busy_;
  QLabel *status_, *configuration_, *summary_, *reach_label_;
  QTableWidget* table_;
  QTimer* timer_;
  QElapsedTimer clock_;
  QFutureWatcher<std::shared_ptr<Outcome>>* watcher_;
  bool computing_ = false;

  std::shared_ptr<const Outcome> outcome_;
  std::unique_ptr<DynamicsData> data_;                  // kinematics of outcome_->system for the amplitude
  unsigned generation_ = 0, requested_generation_ = 0;  // document changes; the one being computed
  unsigned replaced_generation_ = 0;                    // the generation of the last project replaced
  bool out_of_date_ = false, running_ = false;
  int animated_ = -1;
  double amplitude_ = 0.0, amplitude_view_scale_ = 0.0, paused_phase_ = 0.0;
  bool paused_ = false;
  Eigen::VectorXd restore_q_;  // the view's state before the animation
};

}  // namespace flexarm
