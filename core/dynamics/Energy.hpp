#pragma once
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

struct Energies {
  double kinetic = 0.0;    // [J]
  double potential = 0.0;  // [J] gravity, zero at the world origin
  double total() const { return kinetic + potential; }
};

// Kinetic and gravitational potential energy at (q, qd). Runs forwardKinematics itself.
Energies computeEnergies(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& qd);

}  // namespace flexarm
