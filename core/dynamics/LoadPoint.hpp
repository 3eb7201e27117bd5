#pragma once
// A load of the model (model/Model.hpp, Load) as the discretized system keeps it: where its point
// sits on its body, and for a flexible link the section there (ExternalLoads.hpp uses it).
#include "dynamics/SectionPoint.hpp"
#include "model/Model.hpp"

namespace flexarm {

// A load of the model, with what its point needs precomputed (MultibodySystem::loads).
struct LoadPoint {
  int body = 0;
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), torque = Eigen::Vector3d::Zero();
  bool link_axes = false;  // in the section's axes (a follower load), else in the world's
  TimeFunction law;
  // Rigid link: the point in the body frame. Flexible link: the section x = point.x() and the offset
  // (0, point.y(), point.z()) across it.
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  SectionPoint section;  // flexible link: the section at x

  // The load on body `body`, a flexible link when `flexible` is not null.
  static LoadPoint build(const Load& load, int body, const FlexibleBody* flexible);
};

}  // namespace flexarm
