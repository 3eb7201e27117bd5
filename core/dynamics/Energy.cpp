#include "dynamics/Energy.hpp"

#include "dynamics/Kinematics.hpp"

namespace flexarm {

Energies computeEnergies(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  forwardKinematics(sys, data, q);
  Energies e;
  const int n = static_cast<int>(sys.bodies.size());
  for (int i = 0; i < n; ++i) {
    const Body& b = sys.bodies[i];
    const Vector6d vJ = b.S * qd(b.q_index);
    data.v[i] = b.parent < 0 ? vJ : Vector6d(data.X_up[i] * data.v[b.parent] + vJ);
    e.kinetic += 0.5 * data.v[i].dot(b.inertia * data.v[i]);
    e.potential -= b.mass * sys.gravity.dot(data.X_world_body[i] * b.com);
  }
  return e;
}

}  // namespace flexarm

#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"

namespace flexarm {

Energies systemEnergies(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  if (sys.isRigid()) return computeEnergies(sys, data, q, qd);
  compositeEquations(sys, data, q, qd, Eigen::VectorXd::Zero(sys.nq), true);
  internalForces(sys, data, q, qd);
  Energies e;
  e.kinetic = 0.5 * qd.dot(data.M * qd);
  e.potential = data.gravity_potential + data.elastic_potential;
  return e;
}

}  // namespace flexarm
