#pragma once
// Everything the dynamics algorithms compute for one state: one per thread/run, allocated once.
#include <Eigen/Cholesky>
#include <vector>

#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

struct DynamicsData {
  explicit DynamicsData(const MultibodySystem& sys);

  std::vector<Eigen::Isometry3d> X_parent_body;  // body pose in its parent's body frame
  std::vector<Eigen::Isometry3d> X_world_body;   // body pose in the world
  std::vector<Matrix6d> X_up;                    // motion transform parent -> body
  std::vector<Vector6d> v, a, f;                 // body velocity, acceleration, force (body frame)
  std::vector<Matrix6d> I_composite;             // composite rigid-body inertia (CRBA)

  Eigen::MatrixXd M;    // mass matrix
  Eigen::VectorXd tau;  // RNEA output
};

}  // namespace flexarm
