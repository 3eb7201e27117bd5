#pragma once
// A section of a flexible link at x along it, as the equations read it: the shape rows there, the
// rows of its small rotation, and the sub-quadrature of [0, x] for the foreshortening
// s(x) = 1/2 int_0^x (v'^2 + w'^2). On the deformed link the section sits at
//   r(x) = [x + u(x) - c s(x), v(x), w(x)]   (c = 1 for `high` coupling, 0 otherwise)
// turned by Rz(v'(x)) Ry(-w'(x)) Rx(phi(x)): the distal frame's construction at x = L
// (EquationsOfMotion.hpp). Loads (LoadPoint.hpp) act there, and payloads at a section ride on it.
#include <Eigen/Geometry>
#include <vector>

#include "discretization/FlexibleBody.hpp"

namespace flexarm {

struct SectionPoint {
  double x = 0.0;
  ShapeRows rows;  // at x
  // [phi(x); -w'(x); v'(x)]: the section's rotation about its x, y and z axes, non-zero on the columns
  // [rotation_first, rotation_first + rotation_count).
  Eigen::Matrix<double, 3, Eigen::Dynamic> rotation;
  int rotation_first = 0, rotation_count = 0;
  // The sub-quadrature of [0, x] per interval window.
  struct SlopeWindow {
    int first = 0;           // the elastic coordinates [first, first + v1.cols()) of the rows
    Eigen::VectorXd weight;  // per quadrature point
    Eigen::MatrixXd v1, w1;  // slope rows of the points, on the window
  };
  std::vector<SlopeWindow> slopes;

  // The section at x of `fb` (x clamped to [0, length]).
  static SectionPoint build(const FlexibleBody& fb, double x);

  // s(x) at elastic coordinates e.
  double foreshortening(const Eigen::Ref<const Eigen::VectorXd>& e) const;
  // The section's frame in the link's body frame at elastic coordinates e: at r(x), turned by
  // Rz(v'(x)) Ry(-w'(x)) Rx(phi(x)); `high` coupling foreshortens it.
  Eigen::Isometry3d pose(const Eigen::Ref<const Eigen::VectorXd>& e, bool high) const;
  // s(x), sdd = int_0^x (ve'^2 + we'^2) (the velocity-product part of d^2 s / dt^2) and g = ds/de (m).
  // No heap allocation.
  void foreshortening(const Eigen::Ref<const Eigen::VectorXd>& e, const Eigen::Ref<const Eigen::VectorXd>& ed, double& s,
                      double& sdd, Eigen::Ref<Eigen::VectorXd> g) const;
  // With K = P int_0^x (v1^T v1 + w1^T w1), the geometric stiffness of a tension P carried from the
  // link's root to this section: out -= K e and potential += 1/2 e^T K e, on the link's m coordinates.
  void addSlopeForce(double P, const Eigen::Ref<const Eigen::VectorXd>& e, Eigen::Ref<Eigen::VectorXd> out,
                     double& potential) const;
};

}  // namespace flexarm
