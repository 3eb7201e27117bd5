#include "dynamics/DynamicsData.hpp"

namespace flexarm {

DynamicsData::DynamicsData(const MultibodySystem& sys) {
  const std::size_t n = sys.bodies.size();
  X_parent_body.assign(n, Eigen::Isometry3d::Identity());
  X_world_body.assign(n, Eigen::Isometry3d::Identity());
  X_up.assign(n, Matrix6d::Identity());
  v.assign(n, Vector6d::Zero());
  a.assign(n, Vector6d::Zero());
  f.assign(n, Vector6d::Zero());
  I_composite.assign(n, Matrix6d::Zero());
  M = Eigen::MatrixXd::Zero(sys.nq, sys.nq);
  tau = Eigen::VectorXd::Zero(sys.nq);
}

}  // namespace flexarm
