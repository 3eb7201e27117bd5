#pragma once
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

struct Energies {
  double kinetic = 0.0;    // [J] 1/2 qd^T M qd (links, payloads, rotors)
  double potential = 0.0;  // [J] gravity (zero at the world origin) + elastic (links, joint springs)
  double total() const { return kinetic + potential; }
};

// Rigid chains only: kinetic and gravitational potential energy. Runs forwardKinematics itself.
Energies computeEnergies(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

// Any system: for flexible ones through the equations of motion (leaves data.frames at this state).
Energies systemEnergies(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

}  // namespace flexarm
