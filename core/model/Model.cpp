#include "model/Model.hpp"

#include "model/SolverMethods.hpp"

#include <cmath>

namespace flexarm {

Eigen::Isometry3d Placement::transform() const {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = xyz;
  X.linear() = (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
                Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  return X;
}

Placement Placement::fromTransform(const Eigen::Isometry3d& X) {
  Placement p;
  p.xyz = X.translation();
  const Eigen::Matrix3d R = X.linear();
  // R = Rz(yaw) Ry(pitch) Rx(roll): R(2,0) = -sin(pitch), R(0,0) = cos(pitch) cos(yaw), R(1,0) = cos(pitch) sin(yaw).
  const double cos_pitch = std::hypot(R(0, 0), R(1, 0));
  const double pitch = std::atan2(-R(2, 0), cos_pitch);
  // At pitch = +-pi/2 only roll -+ yaw is defined: yaw = 0 there. Roll from what is left once yaw and
  // pitch are undone, so that a yaw spoiled by round-off near the singularity still rebuilds R.
  const double yaw = cos_pitch > 1e-14 ? std::atan2(R(1, 0), R(0, 0)) : 0.0;
  const Eigen::Matrix3d rest =
      (Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()).inverse() * Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).inverse())
          .toRotationMatrix() *
      R;
  p.rpy = Eigen::Vector3d(std::atan2(rest(2, 1), rest(2, 2)), pitch, yaw);
  return p;
}

const char* jointTypeName(JointType type) { return type == JointType::Revolute ? "revolute" : "prismatic"; }

RigidInertia Link::rigidInertia() const {
  if (shape) return inertiaFromShape(*shape, mass, length);
  RigidInertia r;
  r.mass = mass;
  r.com = com;
  r.inertia_com = inertia;
  return r;
}

int Model::linkIndex(const std::string& name) const {
  for (std::size_t i = 0; i < links.size(); ++i)
    if (links[i].name == name) return static_cast<int>(i);
  return -1;
}

int Model::jointIndex(const std::string& name) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace flexarm

#include "model/Project.hpp"

namespace flexarm {
const char* couplingName(CouplingOrder order) {
  switch (order) {
    case CouplingOrder::Zero: return "zero";
    case CouplingOrder::Geometric: return "geometric";
    case CouplingOrder::High: return "high";
  }
  return "?";
}

const char* methodName(SimulationSettings::Method method) {
  for (const SolverMethodInfo& m : solverMethods())
    if (m.method == method) return m.name;
  return "?";
}

const char* jacobianName(SimulationSettings::Jacobian jacobian) {
  switch (jacobian) {
    case SimulationSettings::Jacobian::Analytic: return "analytic";
    case SimulationSettings::Jacobian::DifferenceQuotient: return "difference";
  }
  return "?";
}
int Model::parentOf(int i) const {
  const int p = joints[static_cast<std::size_t>(i)].parent;
  return p == Joint::kPreviousLink ? i - 1 : p;
}

bool Model::branches() const {
  std::vector<int> children(links.size() + 1, 0);  // [0]: the world
  for (int i = 0; i < static_cast<int>(joints.size()); ++i)
    if (++children[static_cast<std::size_t>(parentOf(i) + 1)] > 1) return true;
  return false;
}

}  // namespace flexarm
