#pragma once
// A load of the model (model/Model.hpp, Load) as the discretized system keeps it: where its point
// sits on its body, and for a flexible link the shape rows there (ExternalLoads.hpp uses it).
#include <vector>

#include "discretization/FlexibleBody.hpp"
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
  // Flexible link: the shape rows at x, and the sub-quadrature of [0, x] for s(x) per interval window.
  ShapeRows rows;
  struct SlopeWindow {
    int first = 0;           // the elastic coordinates [first, first + v1.cols()) of the rows
    Eigen::VectorXd weight;  // per quadrature point
    Eigen::MatrixXd v1, w1;  // slope rows of the points, on the window
  };
  std::vector<SlopeWindow> slopes;

  // The load on body `body`, a flexible link when `flexible` is not null.
  static LoadPoint build(const Load& load, int body, const FlexibleBody* flexible);
};

}  // namespace flexarm
