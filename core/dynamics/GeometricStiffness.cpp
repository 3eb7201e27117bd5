#include "dynamics/GeometricStiffness.hpp"

namespace flexarm {

AxialForce rigidMotionAxialForce(const MultibodySystem& sys, const DynamicsData& d, int i) {
  const BodyFrames& fr = d.frames[static_cast<std::size_t>(i)];
  const FlexibleBody& fb = *sys.bodies[static_cast<std::size_t>(i)].flexible;
  Eigen::Vector3d outboard = fr.force_distal_world;
  for (std::size_t j = static_cast<std::size_t>(i) + 1; j < sys.bodies.size(); ++j) outboard += d.frames[j].force_world;
  AxialForce P;
  P.P_tip = -(fr.X_world_body.linear().transpose() * outboard).x();
  const Eigen::Vector3d w = fr.v_body.head<3>(), vO = fr.v_body.tail<3>();
  P.a0x = fr.a_body(3) + w.cross(vO).x();  // classical acceleration of the origin along x (incl. -g)
  P.k2 = w.y() * w.y() + w.z() * w.z();
  P.rhoA = fb.rhoA;
  P.length = fb.length;
  return P;
}

double sectionMassTension(const MultibodySystem&, const DynamicsData& d, int i, std::size_t k) {
  const BodyFrames& fr = d.frames[static_cast<std::size_t>(i)];
  return -(fr.X_world_body.linear().transpose() * fr.force_section_world[k]).x();
}

namespace {
// K_w += the interval's slope points' P(x) weight (v1^T v1 + w1^T w1) on its window of coordinates. The
// axial force is quadratic in x, so this is c0 S0 + c1 S1 + c2 S2 with the interval's sums
// S_k = sum weight x^k (v1^T v1 + w1^T w1) (Interval::full_slopes, slope_moment1, slope_moment2), stored
// on the slope coordinates only (Interval::slope_dofs), where the rows can be non-zero.
template <typename Window>
void addIntervalStiffness(const FlexibleBody::Interval& iv, const AxialForce& P, Window&& K_w) {
  const double c0 = P.c0(), c1 = P.c1(), c2 = P.c2();
  const int k_s = static_cast<int>(iv.slope_dofs.size());
  for (int b = 0; b < k_s; ++b) {
    const int col = iv.slope_dofs[static_cast<std::size_t>(b)];
    for (int a = 0; a < k_s; ++a)
      K_w(iv.slope_dofs[static_cast<std::size_t>(a)], col) +=
          c0 * iv.full_slopes(a, b) + c1 * iv.slope_moment1(a, b) + c2 * iv.slope_moment2(a, b);
  }
}
}  // namespace

void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, Eigen::Ref<Eigen::MatrixXd> K) {
  // A slope point's rows are non-zero only on its interval's window of coordinates.
  for (const FlexibleBody::Interval& iv : fb.intervals)
    addIntervalStiffness(iv, P, K.block(iv.first, iv.first, iv.count, iv.count));
}

void addGeometricStiffness(const FlexibleBody& fb, const AxialForce& P, int offset, Eigen::MatrixXd& window,
                           std::vector<Eigen::Triplet<double>>& out) {
  for (const FlexibleBody::Interval& iv : fb.intervals) {
    if (window.rows() < iv.count) window.resize(iv.count, iv.count);  // grows once, to the widest window
    auto W = window.topLeftCorner(iv.count, iv.count);
    W.setZero();
    addIntervalStiffness(iv, P, W);
    for (int c = 0; c < iv.count; ++c)
      for (int r = 0; r < iv.count; ++r)
        if (W(r, c) != 0.0) out.emplace_back(offset + iv.first + r, offset + iv.first + c, W(r, c));
  }
}

}  // namespace flexarm
