#pragma once
// Which channels a run records and how each is computed from the dynamics state.
#include <vector>

#include "dynamics/Constraints.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "results/Results.hpp"

namespace flexarm {

class ChannelRecorder {
 public:
  // With constraints, every group also records constraint.<name>.pos and .vel: the norms of its
  // position and velocity violations.
  explicit ChannelRecorder(const MultibodySystem& sys, const ConstraintSet* constraints = nullptr);
  std::vector<Channel> channels() const;
  // Records time t from the state of the last ForwardDynamics::evaluate(t, ...); `violations`
  // holds (pos, vel) per constraint group when there are constraints.
  void record(double t, ForwardDynamics& fd, Results& results, const std::vector<double>* violations = nullptr);

 private:
  const MultibodySystem& sys_;
  const ConstraintSet* constraints_;
  std::vector<double> row_;
};

}  // namespace flexarm
