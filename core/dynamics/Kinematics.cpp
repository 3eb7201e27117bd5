#include "dynamics/Kinematics.hpp"

namespace flexarm {

void forwardKinematics(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q) {
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    data.X_parent_body[i] = b.X_parent_joint * MultibodySystem::jointMotion(b.joint_type, b.axis, q(b.q_index));
    data.X_world_body[i] = b.parent < 0 ? data.X_parent_body[i] : data.X_world_body[b.parent] * data.X_parent_body[i];
    data.X_up[i] = motionTransform(data.X_parent_body[i]);
  }
}

Eigen::Isometry3d distalFrame(const MultibodySystem& sys, const DynamicsData& data, int body) {
  return data.X_world_body[body] * sys.bodies[body].X_body_distal;
}

}  // namespace flexarm
