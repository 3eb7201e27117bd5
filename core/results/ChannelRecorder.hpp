#pragma once
// Which channels a run records and how each is computed from the dynamics state.
#include <vector>

#include "dynamics/ForwardDynamics.hpp"
#include "results/Results.hpp"

namespace flexarm {

class ChannelRecorder {
 public:
  explicit ChannelRecorder(const MultibodySystem& sys);
  std::vector<Channel> channels() const;
  // Records time t from the state of the last ForwardDynamics::evaluate(t, ...).
  void record(double t, ForwardDynamics& fd, Results& results);

 private:
  const MultibodySystem& sys_;
  std::vector<double> row_;
};

}  // namespace flexarm
