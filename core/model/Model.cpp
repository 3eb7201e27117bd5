#include "model/Model.hpp"

namespace flexarm {

Eigen::Isometry3d Placement::transform() const {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = xyz;
  X.linear() = (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
                Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  return X;
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
  switch (method) {
    case SimulationSettings::Method::Bdf: return "bdf";
    case SimulationSettings::Method::Adams: return "adams";
    case SimulationSettings::Method::Ida: return "ida";
    case SimulationSettings::Method::Newmark: return "newmark";
    case SimulationSettings::Method::Dirk: return "dirk";
    case SimulationSettings::Method::GeneralizedAlpha: return "galpha";
  }
  return "?";
}

const char* jacobianName(SimulationSettings::Jacobian jacobian) {
  switch (jacobian) {
    case SimulationSettings::Jacobian::Analytic: return "analytic";
    case SimulationSettings::Jacobian::DifferenceQuotient: return "difference";
  }
  return "?";
}
}  // namespace flexarm
