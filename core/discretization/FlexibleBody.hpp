#pragma once
// Everything about one flexible link that does not change during a run: its basis evaluated at
// Gauss stations, the sub-quadrature for the foreshortening integral s(x) = 1/2 int_0^x (v'^2 + w'^2),
// and its structural mass, stiffness and damping matrices.
#include <memory>
#include <array>
#include <vector>

#include <Eigen/SparseCore>

#include "discretization/LinkBasis.hpp"

namespace flexarm {

struct FlexibleBody {
  // Gauss points of the foreshortening sub-quadrature per interval (Interval::full_count).
  static constexpr int kSlopePoints = 6;
  // A mass station: a Gauss point of the beam carrying mass rhoA * weight and polar inertia rhoIp * weight.
  struct Station {
    double x = 0.0, weight = 0.0;
    Eigen::RowVectorXd u, v, w, phi;  // shape rows at x
    // The same four rows on the station's interval window (Interval::first, count), stored together:
    // the composite evaluation's per-station products (LinkInertia.cpp) read only these.
    Eigen::Matrix<double, 4, Eigen::Dynamic> window;
    int inner_begin = 0, inner_count = 0;  // sub-quadrature of [interval start, x] for s(x)
    int interval = 0;
    // sum over that sub-quadrature of weight (v1^T v1 + w1^T w1) on the interval's window, on its
    // slope coordinates only (Interval::slope_dofs): the foreshortening of [interval start, x] is
    // 1/2 e_s^T S e_s, its gradient S e_s, with e_s the elastic coordinates there.
    Eigen::MatrixXd inner_slopes;
  };
  // A point of the sub-quadrature for s(x): weight and slope rows.
  struct SlopePoint {
    double x = 0.0, weight = 0.0;
    Eigen::RowVectorXd v1, w1;
  };
  struct Interval {
    double a = 0.0, b = 0.0;
    int full_begin = 0, full_count = 0;  // sub-quadrature of the whole interval
    // The elastic coordinates [first, first + count) that any row of the interval's stations and
    // slope points can be non-zero on: one element's nodes for finite elements, all for global modes.
    int first = 0, count = 0;
    // The window's coordinates (0-based within it) on which a slope row v1 or w1 can be non-zero: the
    // lateral displacements and bending rotations for elements (8 of a spatial element's 12), all for
    // global modes. The slope sums are stored on these only.
    std::vector<int> slope_dofs;
    Eigen::MatrixXd full_slopes;  // the same sum as Station::inner_slopes over the whole interval
    // The whole interval's sums of weight x^k (v1^T v1 + w1^T w1) over its slope points, k = 1, 2
    // (k = 0 is full_slopes): an axial force quadratic in x gives the geometric stiffness from them.
    Eigen::MatrixXd slope_moment1, slope_moment2;
    // When the window's coordinates are grouped by field, as global modes are (axial, bending along
    // y, bending along z, torsion): the lengths of the blocks [0, A), [A, A + V), ... on which the
    // stations' rows u, v, w, phi are non-zero, each on its own, with the slope coordinates within the
    // bending blocks. All zero otherwise (finite elements interleave their nodes' coordinates).
    std::array<int, 4> fields{};
    // When the slope rows v1 and w1 share no coordinate: slope_dofs lists v1's first, then w1's, and
    // this is how many of v1's there are (the slope sums are then diag(S_vv, S_ww)); 0 otherwise.
    int slope_split = 0;
    // When the window is one or two nodes of a spatial Hermite element, each carrying (u, v, w, phi,
    // v', w'): the stations' rows u, v, w, phi non-zero only at the nodes' offsets 0, {1, 4}, {2, 5}
    // and 3, the slope coordinates at {1, 4} (v') then {2, 5} (w') of each node, slope_split twice
    // the nodes. The number of nodes, or 0 otherwise.
    int spatial_nodes = 0;
  };

  double length = 0.0;
  BeamSection section;
  Material material;
  double rhoA = 0.0, rhoIp = 0.0, EA = 0.0, EIy = 0.0, EIz = 0.0, GJ = 0.0;
  // Outer-fibre distances from the neutral axis along y and z [m], for surface strains: from the
  // section's dimensions, or for a raw section those of the solid rectangle with the same A and I
  // (sqrt(3 I / A)). A round section (tube) has one radius: fibre_y = fibre_z.
  double fibre_y = 0.0, fibre_z = 0.0;
  bool round_section = false;
  std::unique_ptr<LinkBasis> basis;
  int m = 0;  // elastic coordinates

  std::vector<Interval> intervals;
  std::vector<Station> stations;
  std::vector<SlopePoint> slopes;
  ShapeRows tip;                                             // rows at x = L
  Eigen::Matrix<double, 3, Eigen::Dynamic> distal_rotation;  // [phi(L); -w'(L); v'(L)] rows: small rotation of the distal frame
  // The columns [distal_first, distal_first + distal_count) hold every non-zero of distal_rotation
  // (the last node's slopes and twist for elements, all m for global modes).
  int distal_first = 0, distal_count = 0;

  Eigen::MatrixXd M, K, C;                                   // structural mass, stiffness and damping of the clamped link
  Eigen::SparseMatrix<double> M_sparse, K_sparse, C_sparse;  // the same without their zeros (banded for elements)
  // Sum over the stations of rhoA w (Psi_v^T Psi_v + Psi_w^T Psi_w) + rhoIp w Psi_phi^T Psi_phi, and the same
  // with the axial term rhoA w Psi_u^T Psi_u added (= M): the state-independent parts of the elastic mass block.
  Eigen::MatrixXd M_transverse;
  // What gravity needs of the stations (dynamics/Gravity.cpp): their mass sum dm [kg] with dm = rhoA weight,
  // the mass-weighted shape rows sum dm [Psi_u; Psi_v; Psi_w] (3 x m: the first moment's gradient without
  // foreshortening), and D = sum dm S(x) with s(x) = 1/2 e^T S(x) e the foreshortening at each station
  // (m x m, banded for elements): sum dm s = 1/2 e^T D e, the first moment's axial part shortens by it.
  double station_mass = 0.0;
  Eigen::Matrix<double, 3, Eigen::Dynamic> mass_shape;
  Eigen::SparseMatrix<double> mass_slopes;
  // The lowest clamped-free natural frequencies [rad/s] of the link alone, min(m, max(kKeptModes, number of
  // modal damping ratios)) of them, and their mass-normalized mode shapes (columns).
  static constexpr int kKeptModes = 12;
  Eigen::VectorXd frequencies;
  Eigen::MatrixXd modes;

  // Builds the link; the FlexibleLink must have been validated.
  static std::shared_ptr<const FlexibleBody> build(const FlexibleLink& link, double length);

  // Shape rows at any x (for sampling the centreline).
  void evaluate(double x, ShapeRows& rows) const { basis->evaluate(x, rows); }
};

// Gauss-Legendre rule with n points on [a, b] (n <= 8).
void gaussLegendre(int n, double a, double b, std::vector<double>& x, std::vector<double>& w);

// The number of elastic coordinates FlexibleBody::build gives the link (its basis's size, or the modes
// a finite-element mesh is reduced to), without building it.
int elasticCoordinateCount(const FlexibleLink& link, double length);

}  // namespace flexarm
