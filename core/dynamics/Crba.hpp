#pragma once
// Composite rigid-body algorithm: the joint-space mass matrix M(q).
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// Writes data.M (full symmetric). Runs forwardKinematics itself. No heap allocation.
const Eigen::MatrixXd& crba(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q);

}  // namespace flexarm
