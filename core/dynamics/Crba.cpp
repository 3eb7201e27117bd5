#include "dynamics/Crba.hpp"

#include "dynamics/Kinematics.hpp"

namespace flexarm {

const Eigen::MatrixXd& crba(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q) {
  forwardKinematics(sys, data, q);
  data.M_regions_valid = false;  // assigned entry by entry, not where the flexible evaluation wrote
  const int n = static_cast<int>(sys.bodies.size());
  for (int i = 0; i < n; ++i) data.I_composite[i] = sys.bodies[i].inertia;
  for (int i = n - 1; i >= 0; --i) {
    const int p = sys.bodies[i].parent;
    if (p >= 0) data.I_composite[p] += data.X_up[i].transpose() * data.I_composite[i] * data.X_up[i];
  }
  for (int i = 0; i < n; ++i) {
    const Body& bi = sys.bodies[i];
    Vector6d F = data.I_composite[i] * bi.S;
    data.M(bi.q_index, bi.q_index) = bi.S.dot(F);
    int j = i;
    while (sys.bodies[j].parent >= 0) {
      F = data.X_up[j].transpose() * F;
      j = sys.bodies[j].parent;
      const Body& bj = sys.bodies[j];
      data.M(bi.q_index, bj.q_index) = F.dot(bj.S);
      data.M(bj.q_index, bi.q_index) = data.M(bi.q_index, bj.q_index);
    }
  }
  return data.M;
}

}  // namespace flexarm
