#pragma once
// Spatial (6D) algebra in Featherstone's convention, ordering [angular; linear].
// Motion vectors v = [omega; v_O], force vectors f = [n_O; f], both expressed at the frame origin O.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace flexarm {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

inline Eigen::Matrix3d skew(const Eigen::Vector3d& w) {
  Eigen::Matrix3d S;
  S << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return S;
}

// Motion transform X_{C<-P} for a child frame C whose pose in the parent frame P is X_PC = (R, p):
// v_C = X v_P. Its transpose maps forces from C to P: f_P = X^T f_C.
inline Matrix6d motionTransform(const Eigen::Isometry3d& X_PC) {
  const Eigen::Matrix3d Rt = X_PC.linear().transpose();
  Matrix6d X;
  X.topLeftCorner<3, 3>() = Rt;
  X.topRightCorner<3, 3>().setZero();
  X.bottomLeftCorner<3, 3>() = -Rt * skew(X_PC.translation());
  X.bottomRightCorner<3, 3>() = Rt;
  return X;
}

// Spatial inertia about the frame origin of a body with mass m, centre of mass c and
// rotational inertia I_c about c (all in that frame).
inline Matrix6d spatialInertia(double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& I_c) {
  const Eigen::Matrix3d C = skew(c);
  Matrix6d I;
  I.topLeftCorner<3, 3>() = I_c + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Eigen::Matrix3d::Identity();
  return I;
}

// v x m (motion cross product)
inline Vector6d crossMotion(const Vector6d& v, const Vector6d& m) {
  Vector6d out;
  out.head<3>() = v.head<3>().cross(m.head<3>());
  out.tail<3>() = v.head<3>().cross(m.tail<3>()) + v.tail<3>().cross(m.head<3>());
  return out;
}

// v x* f (force cross product)
inline Vector6d crossForce(const Vector6d& v, const Vector6d& f) {
  Vector6d out;
  out.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  out.tail<3>() = v.head<3>().cross(f.tail<3>());
  return out;
}

// Six-row Jacobians (6 x n, column-major), column by column with fixed-size products: general matrix
// products of six rows spend most of their time packing and dispatching.
// out.leftCols(p) = X in.leftCols(p) (out and in distinct).
inline void transformColumns(const Matrix6d& X, const Eigen::MatrixXd& in, int p, Eigen::MatrixXd& out) {
  for (int c = 0; c < p; ++c)
    Eigen::Map<Vector6d>(out.col(c).data()).noalias() = X * Eigen::Map<const Vector6d>(in.col(c).data());
}

// tau.head(p) += J.leftCols(p)^T f: the generalized force of wrench f.
inline void addProjectedForce(const Eigen::MatrixXd& J, int p, const Vector6d& f, Eigen::VectorXd& tau) {
  for (int c = 0; c < p; ++c) tau(c) += Eigen::Map<const Vector6d>(J.col(c).data()).dot(f);
}

}  // namespace flexarm
