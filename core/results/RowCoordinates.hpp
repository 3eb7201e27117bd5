#pragma once
// The generalized coordinates of a run at one of its output rows, read back from the q.<joint>,
// qm.<joint> and e.<link>.<k> channels (for playback, the 3D view and the centreline exports).
#include <Eigen/Core>

#include "dynamics/MultibodySystem.hpp"
#include "results/Results.hpp"

namespace flexarm {

// Returns false (and leaves q untouched) when the row or a channel is missing.
bool coordinatesAtRow(const MultibodySystem& sys, const Results& results, std::size_t row, Eigen::VectorXd& q);

}  // namespace flexarm
