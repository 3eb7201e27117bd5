#pragma once
// Relative frame poses and the propagation of spatial velocity and acceleration across them, shared
// by the evaluations of the equations (EquationsOfMotion.cpp, LinkInertia.cpp).
#include "dynamics/Spatial.hpp"

namespace flexarm {

inline Eigen::Isometry3d translation(const Eigen::Vector3d& r) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = r;
  return X;
}

inline Eigen::Isometry3d rotation(int axis, double angle) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = Eigen::AngleAxisd(angle, Eigen::Vector3d::Unit(axis)).toRotationMatrix();
  return X;
}

// Advances a frame by a relative pose X_rel (child in parent) whose relative velocity in child
// coordinates is vrel and whose velocity-product relative acceleration is crel:
//   v' = X v + vrel,   a' = X a + crel + v' x vrel.   Returns the motion transform X.
inline Matrix6d advanceMotion(const Eigen::Isometry3d& X_rel, const Vector6d& vrel, const Vector6d& crel, Vector6d& v,
                              Vector6d& a) {
  const Matrix6d X = motionTransform(X_rel);
  v = X * v + vrel;
  a = X * a + crel + crossMotion(v, vrel);
  return X;
}

}  // namespace flexarm
