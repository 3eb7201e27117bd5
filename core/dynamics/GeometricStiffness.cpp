#include "dynamics/GeometricStiffness.hpp"

#include "dynamics/ForceTerms.hpp"

namespace flexarm {

namespace {
// The mass of body j: its rigid part, its stations and its payloads.
double bodyMass(const Body& b) {
  double m = b.mass + b.distal_mass + (b.isFlexible() ? b.flexible->station_mass : 0.0);
  for (const Body::SectionMass& sm : b.section_masses) m += sm.mass;
  return m;
}

// gamma_x = g . e_x: gravity along link i's axis.
double gravityAlong(const MultibodySystem& sys, const DynamicsData& d, int i) {
  return d.frames[static_cast<std::size_t>(i)].X_world_body.linear().col(0).dot(sys.gravity);
}
}  // namespace

AxialForce axialForce(const MultibodySystem& sys, const DynamicsData& d, int i) {
  const BodyFrames& fr = d.frames[static_cast<std::size_t>(i)];
  const Body& b = sys.bodies[static_cast<std::size_t>(i)];
  const FlexibleBody& fb = *b.flexible;
  Eigen::Vector3d outboard = fr.force_distal_world;
  double outboard_mass = b.distal_mass;
  // The bodies beyond link i: those whose parents lead back to it (all that follow it, in a chain).
  for (std::size_t j = static_cast<std::size_t>(i) + 1; j < sys.bodies.size(); ++j) {
    int up = sys.bodies[j].parent;
    while (up > i) up = sys.bodies[static_cast<std::size_t>(up)].parent;
    if (up != i) continue;
    outboard += d.frames[j].force_world;
    outboard_mass += bodyMass(sys.bodies[j]);
  }
  AxialForce P;
  P.P_tip = -(fr.X_world_body.linear().transpose() * outboard).x();
  const Eigen::Vector3d w = fr.v_body.head<3>(), vO = fr.v_body.tail<3>();
  P.a0x = fr.a_body(3) + w.cross(vO).x();  // classical acceleration of the origin along x
  P.k2 = w.y() * w.y() + w.z() * w.z();
  P.rhoA = fb.rhoA;
  P.length = fb.length;
  // The weight, as an upward acceleration of everything.
  const double gamma_x = gravityAlong(sys, d, i);
  P.P_tip += gamma_x * outboard_mass;
  P.a0x -= gamma_x;
  return P;
}

double sectionMassTension(const MultibodySystem& sys, const DynamicsData& d, int i, std::size_t k) {
  const BodyFrames& fr = d.frames[static_cast<std::size_t>(i)];
  const double tension = -(fr.X_world_body.linear().transpose() * fr.force_section_world[k]).x();
  return tension + gravityAlong(sys, d, i) * sys.bodies[static_cast<std::size_t>(i)].section_masses[k].mass;
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

namespace {

// K += the geometric stiffness of link i under the axial force of the rigid motion, and of the tension
// each payload on one of its sections adds between the root and that section: P times
// int_0^x (v1^T v1 + w1^T w1), one window of coordinates at a time.
void addAxialForceStiffness(const MultibodySystem& sys, const DynamicsData& data, int i, TangentSink& sink) {
  const Body& b = sys.bodies[static_cast<std::size_t>(i)];
  sink.addGeometricStiffness(*b.flexible, axialForce(sys, data, i), b.e_index);
  for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
    const double P = sectionMassTension(sys, data, i, k);
    for (const SectionPoint::SlopeWindow& sw : b.section_masses[k].section.slopes) {
      const int n = static_cast<int>(sw.v1.cols()), e0 = b.e_index + sw.first;
      for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r) {
          const double value = P * (sw.weight.array() *
                                    (sw.v1.col(r).array() * sw.v1.col(c).array() + sw.w1.col(r).array() * sw.w1.col(c).array()))
                                       .sum();
          if (value != 0.0) sink.add(false, e0 + r, e0 + c, value);
        }
    }
  }
}

// `geometric` coupling's term (ForceTerms.hpp; Pan et al. 1990 eqs. (16)-(18)): V = 1/2 int P(x) (v'^2 + w'^2) dx
// with the axial force P of the rigid motion (inertial and gravity loads of the beam beyond x and of
// everything outboard, and of the payloads on its sections), Q = -dV/de with P held, K_t = K_G.
class GeometricStiffening final : public ForceTerm {
 public:
  const char* name() const override { return "geometric stiffening"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.geometric_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData& d, const TermState& s,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    if (sys.coupling != CouplingOrder::Geometric) return 0.0;
    double potential = 0.0;
    for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
      const Body& b = sys.bodies[i];
      if (!b.isFlexible()) continue;
      const FlexibleBody& fb = *b.flexible;
      const auto e = s.q.segment(b.e_index, fb.m);
      auto out = force.segment(b.e_index, fb.m);
      const AxialForce P = axialForce(sys, d, static_cast<int>(i));
      for (const FlexibleBody::Interval& iv : fb.intervals) {
        const auto e_w = e.segment(iv.first, iv.count);
        auto out_w = out.segment(iv.first, iv.count);
        for (int k = iv.full_begin; k < iv.full_begin + iv.full_count; ++k) {
          const FlexibleBody::SlopePoint& sp = fb.slopes[static_cast<std::size_t>(k)];
          const auto v1r = sp.v1.segment(iv.first, iv.count), w1r = sp.w1.segment(iv.first, iv.count);
          const double Px = P.at(sp.x);
          const double v1 = v1r.dot(e_w), w1 = w1r.dot(e_w);
          out_w.noalias() -= (sp.weight * Px * v1) * v1r.transpose() + (sp.weight * Px * w1) * w1r.transpose();
          potential += 0.5 * sp.weight * Px * (v1 * v1 + w1 * w1);
        }
      }
      for (std::size_t k = 0; k < b.section_masses.size(); ++k)
        b.section_masses[k].section.addSlopeForce(sectionMassTension(sys, d, static_cast<int>(i), k), e, out, potential);
    }
    return potential;
  }

  void addTangent(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink) const override {
    if (sys.coupling != CouplingOrder::Geometric) return;
    for (std::size_t i = 0; i < sys.bodies.size(); ++i)
      if (sys.bodies[i].isFlexible()) addAxialForceStiffness(sys, data, static_cast<int>(i), sink);
  }
};

}  // namespace

const ForceTerm& geometricStiffening() {
  static const GeometricStiffening term;
  return term;
}

void addInertiaTangent(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink) {
  if (sys.coupling != CouplingOrder::High) return;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i)
    if (sys.bodies[i].isFlexible()) addAxialForceStiffness(sys, data, static_cast<int>(i), sink);
}

}  // namespace flexarm
