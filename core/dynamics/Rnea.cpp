#include "dynamics/Rnea.hpp"

#include "dynamics/Kinematics.hpp"

namespace flexarm {

const Eigen::VectorXd& rnea(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& qdd, bool with_gravity) {
  forwardKinematics(sys, data, q);
  data.composite_frames = false;
  // Gravity enters as a fictitious upward acceleration of the base.
  Vector6d a_base = Vector6d::Zero();
  if (with_gravity) a_base.tail<3>() = -sys.gravity;

  const int n = static_cast<int>(sys.bodies.size());
  for (int i = 0; i < n; ++i) {
    const Body& b = sys.bodies[i];
    const Vector6d vJ = b.S * qd(b.q_index);
    if (b.parent < 0) {
      data.v[i] = vJ;
      data.a[i] = data.X_up[i] * a_base + b.S * qdd(b.q_index);
    } else {
      data.v[i] = data.X_up[i] * data.v[b.parent] + vJ;
      data.a[i] = data.X_up[i] * data.a[b.parent] + b.S * qdd(b.q_index) + crossMotion(data.v[i], vJ);
    }
    data.f[i] = b.inertia * data.a[i] + crossForce(data.v[i], b.inertia * data.v[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = sys.bodies[i];
    data.tau(b.q_index) = b.S.dot(data.f[i]);
    if (b.parent >= 0) data.f[b.parent] += data.X_up[i].transpose() * data.f[i];
  }
  return data.tau;
}

}  // namespace flexarm
