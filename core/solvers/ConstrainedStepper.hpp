#pragma once
// The methods that integrate the model's constraints and prescribed joints with Lagrange multipliers
// and record the constraint violations: IDA on the stabilized index-2 (GGL) DAE (IdaStepper.cpp),
// fixed-step Newmark-beta with Baumgarte stabilization (NewmarkStepper.cpp, Pan et al. 1990 sec. 4),
// and generalized-alpha on the index-3 equations (ConstrainedAlphaStepper.cpp, Arnold & Bruls 2007).
#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/ConstrainedDynamics.hpp"
#include "results/ChannelRecorder.hpp"
#include "solvers/Stepper.hpp"

namespace flexarm {

// What both constrained steppers share: the equations, the recorder, and recording a state.
class ConstrainedStepper : public Stepper {
 public:
  ConstrainedStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs);
  std::vector<Channel> channels() const { return recorder_.channels(); }
  const std::vector<int>& coordinateSlots() const override { return slots_; }
  std::string modelError() const override { return error_; }

 protected:
  // Records (q, qd) at t, with the accelerations and multipliers that the equations give there.
  bool recordState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Results& results);

  std::shared_ptr<const ConstraintSet> cs_;  // first: the equations refer to it
  ConstrainedDynamics cd_;
  ChannelRecorder recorder_;
  std::vector<int> slots_;
  std::vector<double> violations_;
  Eigen::VectorXd qdd_, lambda_;
  std::string error_;
};

// The constraint rows of a run's model, or why they cannot be built.
Result<std::shared_ptr<const ConstraintSet>> runConstraints(const RunSetup& run);

// The StepperFactory of each constrained method, each in its own file.
Result<std::unique_ptr<Stepper>> makeIdaStepper(const RunSetup& run, std::vector<Channel>& channels);
Result<std::unique_ptr<Stepper>> makeNewmarkStepper(const RunSetup& run, std::vector<Channel>& channels);
// Generalized-alpha on the index-3 equations with multipliers (ConstrainedAlphaStepper.cpp).
Result<std::unique_ptr<Stepper>> makeConstrainedAlphaStepper(const RunSetup& run, std::vector<Channel>& channels);

}  // namespace flexarm
