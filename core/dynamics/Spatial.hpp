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
// products of six rows spend most of their time packing and dispatching. A product runs over the
// columns of a ColumnSet: those on which the Jacobian can be non-zero (MultibodySystem::jacobianColumns:
// a frame's Jacobian is zero on the motor coordinates, which move no frame). The others are left as
// they are (zero).
struct ColumnSet {
  const int* index = nullptr;  // ascending
  int count = 0;
};

// out.col(c) = X in.col(c) for the columns c of the set (out and in distinct).
inline void transformColumns(const Matrix6d& X, const Eigen::MatrixXd& in, ColumnSet cols, Eigen::MatrixXd& out) {
  for (int k = 0; k < cols.count; ++k) {
    const int c = cols.index[k];
    Eigen::Map<Vector6d>(out.col(c).data()).noalias() = X * Eigen::Map<const Vector6d>(in.col(c).data());
  }
}

// tau += J^T f on the columns of the set: the generalized force of wrench f.
inline void addProjectedForce(const Eigen::MatrixXd& J, ColumnSet cols, const Vector6d& f, Eigen::Ref<Eigen::VectorXd> tau) {
  for (int k = 0; k < cols.count; ++k) {
    const int c = cols.index[k];
    tau(c) += Eigen::Map<const Vector6d>(J.col(c).data()).dot(f);
  }
}

}  // namespace flexarm
