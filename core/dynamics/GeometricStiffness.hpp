#pragma once
// The axial force of a flexible link under the rigid motion of its body frame (Pan et al. 1990 eq. (17)),
// and the geometric stiffness it gives through the axial shortening s(x) = 1/2 int_0^x (v'^2 + w'^2):
//   P(x) = P_tip - rhoA (a0x (L - x) - 1/2 k2 (L^2 - x^2)),
//   K_G  = int_0^L P(x) (Psi_v'^T Psi_v' + Psi_w'^T Psi_w') dx,
// where P_tip is the axial component of the d'Alembert force of everything outboard (payloads on
// the distal frame, the later links), a0x the body origin's classical acceleration along the link
// (gravity included as an upward acceleration: the weight is a load of the same axial force) and k2 = omega_y^2 + omega_z^2 the
// centrifugal term of the body's angular velocity. `geometric` coupling puts the potential 1/2 e^T K_G e into the equations;
// `high` coupling carries the same stiffening through the foreshortening terms of the inertia, and the implicit integrators use
// K_G in their iteration matrix for both.
#include <Eigen/SparseCore>
#include <vector>

#include "dynamics/DynamicsData.hpp"

namespace flexarm {

struct AxialForce {
  double P_tip = 0.0;   // [N] tension at the distal end
  double a0x = 0.0;     // [m/s^2]
  double k2 = 0.0;      // [1/s^2]
  double rhoA = 0.0;    // [kg/m]
  double length = 0.0;  // [m]
  // Tension at x along the link [N].
  double at(double x) const { return P_tip - rhoA * (a0x * (length - x) - 0.5 * k2 * (length * length - x * x)); }
  // The same as c0 + c1 x + c2 x^2.
  double c0() const { return P_tip - rhoA * (a0x * length - 0.5 * k2 * length * length); }
  double c1() const { return rhoA * a0x; }
  double c2() const { return -0.5 * rhoA * k2; }
};

// The axial force of flexible body i from the frames and d'Alembert forces of an evaluation of the
// equations at the current state (EquationsOfMotion.hpp, whose accelerations are the motion's) and the
// weight of the link and of everything outboard (the gravity term's load, Gravity.cpp).
AxialForce axialForce(const MultibodySystem& sys, const DynamicsData& data, int i);

// The tension a payload on section k of flexible body i (Body::section_masses) adds between the link's
// root and that section: the axial component of the payload's d'Alembert force and weight, as P_tip's.
double sectionMassTension(const MultibodySystem& sys, const DynamicsData& data, int i, std::size_t k);

// Adds K_G of link `fb` under the axial force P to the m x m block K.
void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, Eigen::Ref<Eigen::MatrixXd> K);
// The same as entries (offset + row, offset + column, value), one interval window at a time (banded
// for elements): `window` is the work matrix, `out` receives the entries.
void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int offset, Eigen::MatrixXd& window,
                           std::vector<Eigen::Triplet<double>>& out);

}  // namespace flexarm
