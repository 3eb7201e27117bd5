#pragma once
// Recursive Newton-Euler inverse dynamics: tau = M(q) qdd + C(q, qd) qd + g(q).
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// Writes data.tau. Runs forwardKinematics itself. With with_gravity = false the gravity term is left out.
// No heap allocation.
const Eigen::VectorXd& rnea(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& qdd, bool with_gravity = true);

}  // namespace flexarm
