#pragma once
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// Body poses (parent-relative and world) and parent->body motion transforms for coordinates q.
void forwardKinematics(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q);

// World pose of the distal frame of body i (call forwardKinematics first).
Eigen::Isometry3d distalFrame(const MultibodySystem& sys, const DynamicsData& data, int body);

}  // namespace flexarm
