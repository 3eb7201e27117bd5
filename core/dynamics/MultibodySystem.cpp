#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

Eigen::Isometry3d MultibodySystem::jointMotion(JointType type, const Eigen::Vector3d& axis, double q) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  if (type == JointType::Revolute)
    X.linear() = Eigen::AngleAxisd(q, axis).toRotationMatrix();
  else
    X.translation() = q * axis;
  return X;
}

MultibodySystem MultibodySystem::fromModel(const Model& model) {
  MultibodySystem sys;
  sys.gravity = model.gravity;
  const int n = static_cast<int>(model.links.size());
  sys.nq = n;
  sys.bodies.resize(n);
  for (int i = 0; i < n; ++i) {
    const Link& link = model.links[i];
    const Joint& joint = model.joints[i];
    Body& b = sys.bodies[i];
    b.name = link.name;
    b.parent = i - 1;
    Eigen::Isometry3d parent_distal = Eigen::Isometry3d::Identity();
    if (i > 0) parent_distal = sys.bodies[i - 1].X_body_distal;
    b.X_parent_joint = parent_distal * joint.placement.transform();
    b.joint_type = joint.type;
    b.axis = joint.axis.normalized();
    if (joint.type == JointType::Revolute)
      b.S.head<3>() = b.axis;
    else
      b.S.tail<3>() = b.axis;
    b.X_body_distal = Eigen::Isometry3d::Identity();
    b.X_body_distal.translation() = Eigen::Vector3d(link.length, 0.0, 0.0);
    b.q_index = i;

    const RigidInertia ri = link.rigidInertia();
    b.inertia = spatialInertia(ri.mass, ri.com, ri.inertia_com);
    b.mass = ri.mass;
    Eigen::Vector3d first_moment = ri.mass * ri.com;
    for (const Payload& p : model.payloads) {
      if (p.link != i) continue;
      const Eigen::Vector3d c = p.frame == Payload::Frame::Distal ? Eigen::Vector3d(b.X_body_distal * p.offset) : p.offset;
      b.inertia += spatialInertia(p.mass, c, p.inertia);
      b.mass += p.mass;
      first_moment += p.mass * c;
    }
    b.com = b.mass > 0.0 ? Eigen::Vector3d(first_moment / b.mass) : Eigen::Vector3d::Zero();

    sys.drives.push_back(joint.drive);
    sys.drives.back().law.prepare();
    sys.joint_damping.push_back(joint.damping);
    sys.coordinate_names.push_back(joint.name);
    sys.coordinate_types.push_back(joint.type);
  }
  return sys;
}

}  // namespace flexarm
