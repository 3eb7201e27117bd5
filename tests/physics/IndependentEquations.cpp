#include "IndependentEquations.hpp"

#include <algorithm>
#include <cmath>

namespace flexarm::test {

// A quantity along the path q(t): its value, first and second derivative in t at t = 0.
struct Jet {
  double v = 0.0, d = 0.0, dd = 0.0;
  Jet() = default;
  Jet(double value) : v(value) {}  // NOLINT: a constant is a jet without derivatives
  Jet(double value, double d1, double d2) : v(value), d(d1), dd(d2) {}
};
inline Jet operator+(const Jet& a, const Jet& b) { return {a.v + b.v, a.d + b.d, a.dd + b.dd}; }
inline Jet operator-(const Jet& a, const Jet& b) { return {a.v - b.v, a.d - b.d, a.dd - b.dd}; }
inline Jet operator-(const Jet& a) { return {-a.v, -a.d, -a.dd}; }
inline Jet operator*(const Jet& a, const Jet& b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2.0 * a.d * b.d + a.v * b.dd};
}
inline Jet operator/(const Jet& a, const Jet& b) {  // a * (1 / b)
  const double r = 1.0 / b.v;
  const Jet inverse{r, -b.d * r * r, (2.0 * b.d * b.d * r - b.dd) * r * r};
  return a * inverse;
}
inline Jet& operator+=(Jet& a, const Jet& b) { return a = a + b; }
inline Jet& operator-=(Jet& a, const Jet& b) { return a = a - b; }
inline Jet& operator*=(Jet& a, const Jet& b) { return a = a * b; }
inline Jet& operator/=(Jet& a, const Jet& b) { return a = a / b; }
inline bool operator==(const Jet& a, const Jet& b) { return a.v == b.v && a.d == b.d && a.dd == b.dd; }
inline bool operator!=(const Jet& a, const Jet& b) { return !(a == b); }
// f(x(t)): f' x', f'' x'^2 + f' x''.
inline Jet sin(const Jet& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {s, c * a.d, -s * a.d * a.d + c * a.dd};
}
inline Jet cos(const Jet& a) {
  const double s = std::sin(a.v), c = std::cos(a.v);
  return {c, -s * a.d, -c * a.d * a.d - s * a.dd};
}

}  // namespace flexarm::test

namespace Eigen {
template <>
struct NumTraits<flexarm::test::Jet> : NumTraits<double> {
  using Real = flexarm::test::Jet;
  using NonInteger = flexarm::test::Jet;
  using Nested = flexarm::test::Jet;
  using Literal = flexarm::test::Jet;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 3, AddCost = 3, MulCost = 9 };
};
}  // namespace Eigen

namespace flexarm::test {
namespace {

using Vec3 = Eigen::Matrix<Jet, 3, 1>;
using Mat3 = Eigen::Matrix<Jet, 3, 3>;

struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Pose operator*(const Pose& b) const { return {R * b.R, p + R * b.p}; }
};

Pose constant(const Eigen::Isometry3d& X) { return {X.linear().cast<Jet>(), X.translation().cast<Jet>()}; }
Pose shift(const Vec3& r) { return {Mat3::Identity(), r}; }
// Rotation by `angle` about the unit vector k: cos I + sin [k]x + (1 - cos) k k^T.
Pose turn(const Eigen::Vector3d& k, const Jet& angle) {
  Eigen::Matrix3d K;
  K << 0.0, -k.z(), k.y(), k.z(), 0.0, -k.x(), -k.y(), k.x(), 0.0;
  const Jet c = cos(angle), s = sin(angle);
  Pose X;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) X.R(i, j) = c * Jet(i == j ? 1.0 : 0.0) + s * Jet(K(i, j)) + (Jet(1.0) - c) * Jet(k(i) * k(j));
  return X;
}
Jet dot(const Eigen::RowVectorXd& row, const std::vector<Jet>& e, int e0) {
  Jet sum;
  for (Eigen::Index k = 0; k < row.size(); ++k)
    if (row(k) != 0.0) sum += Jet(row(k)) * e[static_cast<std::size_t>(e0 + k)];
  return sum;
}

// A piece of mass: its frame, and in that frame its mass, centre of mass and inertia about it.
struct MassElement {
  Pose frame;
  std::size_t body = 0;
  double m = 0.0;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  Eigen::Matrix3d I_c = Eigen::Matrix3d::Zero();
};

// From a spatial inertia about the frame origin, [[I_o, m [c]x], [m [c]x^T, m]].
MassElement fromSpatial(const Pose& frame, std::size_t body, const Matrix6d& I) {
  MassElement el{frame, body};
  el.m = I(3, 3);
  const Eigen::Matrix3d mC = I.topRightCorner<3, 3>();
  if (el.m > 0.0) el.c = Eigen::Vector3d(mC(2, 1), mC(0, 2), mC(1, 0)) / el.m;
  const Eigen::Matrix3d C = skew(el.c);
  el.I_c = I.topLeftCorner<3, 3>() - el.m * C * C.transpose();
  return el;
}

// Every mass element and distal frame along the path q(t) = q + t dq + t^2/2 ddq.
struct Placement {
  std::vector<MassElement> elements;
  std::vector<Pose> body, distal;
};

Placement place(const MultibodySystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& dq, const Eigen::VectorXd& ddq) {
  std::vector<Jet> x(static_cast<std::size_t>(sys.nq));
  for (int k = 0; k < sys.nq; ++k) x[static_cast<std::size_t>(k)] = Jet(q(k), dq(k), ddq(k));
  const bool high = sys.coupling == CouplingOrder::High;
  Placement out;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    const Jet& qj = x[static_cast<std::size_t>(b.q_index)];
    const Pose motion = b.joint_type == JointType::Revolute ? turn(b.axis, qj) : shift(b.axis.cast<Jet>() * qj);
    // On its parent's distal frame (an earlier body's: a chain's previous link, a tree's branching one), or the world.
    const Pose parent_distal = b.parent < 0 ? Pose() : out.distal[static_cast<std::size_t>(b.parent)];
    const Pose body = parent_distal * constant(b.placement) * motion;
    out.body.push_back(body);
    if (b.inertia.norm() > 0.0) out.elements.push_back(fromSpatial(body, i, b.inertia));
    if (!b.isFlexible()) {
      out.distal.push_back(body * constant(b.X_body_distal));
      continue;
    }
    const FlexibleBody& fb = *b.flexible;
    // s over the slope points [begin, begin + count).
    auto foreshortening = [&](int begin, int count) {
      Jet s;
      for (int k = begin; k < begin + count; ++k) {
        const FlexibleBody::SlopePoint& sp = fb.slopes[static_cast<std::size_t>(k)];
        const Jet v1 = dot(sp.v1, x, b.e_index), w1 = dot(sp.w1, x, b.e_index);
        s += Jet(0.5 * sp.weight) * (v1 * v1 + w1 * w1);
      }
      return s;
    };
    for (const FlexibleBody::Station& st : fb.stations) {
      Jet s;
      if (high) {
        for (int j = 0; j < st.interval; ++j) s += foreshortening(fb.intervals[j].full_begin, fb.intervals[j].full_count);
        s += foreshortening(st.inner_begin, st.inner_count);
      }
      const Vec3 r(Jet(st.x) + dot(st.u, x, b.e_index) - s, dot(st.v, x, b.e_index), dot(st.w, x, b.e_index));
      MassElement el{body * shift(r) * turn(Eigen::Vector3d::UnitX(), dot(st.phi, x, b.e_index)), i};
      el.m = fb.rhoA * st.weight;
      el.I_c(0, 0) = fb.rhoIp * st.weight;  // about the section's axis only
      out.elements.push_back(el);
    }
    Jet s_tip;
    if (high)
      for (const FlexibleBody::Interval& iv : fb.intervals) s_tip += foreshortening(iv.full_begin, iv.full_count);
    const Vec3 r_tip(Jet(fb.length) + dot(fb.tip.u, x, b.e_index) - s_tip, dot(fb.tip.v, x, b.e_index),
                     dot(fb.tip.w, x, b.e_index));
    // Rz(v'(L)) Ry(-w'(L)) Rx(phi(L)): the rows of distal_rotation are [phi(L); -w'(L); v'(L)].
    Pose tip = body * shift(r_tip);
    for (int axis : {2, 1, 0}) tip = tip * turn(Eigen::Vector3d::Unit(axis), dot(fb.distal_rotation.row(axis), x, b.e_index));
    if (b.distal_mass > 0.0) out.elements.push_back(fromSpatial(tip, i, b.distal_inertia));
    // A payload on a section x: the distal frame's construction at x, with its own quadrature of
    // s(x) (Gauss-Legendre on each interval's part of [0, x]) and the basis' rows there.
    for (const Body::SectionMass& sm : b.section_masses) {
      const double xs = sm.section.x;
      ShapeRows at, slope;
      fb.evaluate(xs, at);
      Jet s;
      if (high) {
        std::vector<double> xi, wi;
        for (const FlexibleBody::Interval& iv : fb.intervals) {
          if (!(iv.a < xs)) break;
          gaussLegendre(FlexibleBody::kSlopePoints, iv.a, std::min(iv.b, xs), xi, wi);
          for (std::size_t k = 0; k < xi.size(); ++k) {
            fb.evaluate(xi[k], slope);
            const Jet v1 = dot(slope.v1, x, b.e_index), w1 = dot(slope.w1, x, b.e_index);
            s += Jet(0.5 * wi[k]) * (v1 * v1 + w1 * w1);
          }
        }
      }
      const Vec3 r(Jet(xs) + dot(at.u, x, b.e_index) - s, dot(at.v, x, b.e_index), dot(at.w, x, b.e_index));
      const Pose section = body * shift(r) * turn(Eigen::Vector3d::UnitZ(), dot(at.v1, x, b.e_index)) *
                           turn(Eigen::Vector3d::UnitY(), -dot(at.w1, x, b.e_index)) *
                           turn(Eigen::Vector3d::UnitX(), dot(at.phi, x, b.e_index));
      out.elements.push_back(fromSpatial(section, i, sm.inertia));
    }
    out.distal.push_back(tip);
  }
  return out;
}

// What a mass element's motion reads from its jets: the centre of mass's position, velocity and
// acceleration (world), the angular velocity and acceleration in the element's axes.
struct Motion {
  Eigen::Vector3d r, v, a, w, wdot;
};
Eigen::Vector3d vee(const Eigen::Matrix3d& S) {  // the axial vector of the skew part
  return 0.5 * Eigen::Vector3d(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
}
Motion motionOf(const Pose& X, const Eigen::Vector3d& c) {
  const Vec3 r = X.p + X.R * c.cast<Jet>();
  Motion mo;
  Eigen::Matrix3d R, Rd, Rdd;
  for (int i = 0; i < 3; ++i) {
    mo.r(i) = r(i).v, mo.v(i) = r(i).d, mo.a(i) = r(i).dd;
    for (int j = 0; j < 3; ++j) R(i, j) = X.R(i, j).v, Rd(i, j) = X.R(i, j).d, Rdd(i, j) = X.R(i, j).dd;
  }
  mo.w = vee(R.transpose() * Rd);      // R^T R' = [w]x
  mo.wdot = vee(R.transpose() * Rdd);  // R^T R'' = [wdot]x + [w]x^2, whose skew part is [wdot]x
  return mo;
}

// A frame's spatial velocity and acceleration in its own axes, gravity as an upward base acceleration:
// [w; R^T r'] and [wdot; R^T (r'' - g) - w x R^T r'].
void spatialMotion(const Pose& X, Vector6d& v, Vector6d& a) {
  const Motion mo = motionOf(X, Eigen::Vector3d::Zero());
  Eigen::Matrix3d R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = X.R(i, j).v;
  const Eigen::Vector3d v_O = R.transpose() * mo.v;
  v << mo.w, v_O;
  a << mo.wdot, R.transpose() * mo.a - mo.w.cross(v_O);
}

}  // namespace

IndependentEquations independentEquations(const MultibodySystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          const Eigen::VectorXd& qdd) {
  const int n = sys.nq;
  IndependentEquations out;
  out.M = Eigen::MatrixXd::Zero(n, n);
  out.tau = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  out.inertial_force.assign(sys.bodies.size(), Eigen::Vector3d::Zero());

  // The motion along the path, and one pass per coordinate for the velocity Jacobians' columns.
  const Placement path = place(sys, q, qd, qdd);
  std::vector<Placement> columns;
  for (int k = 0; k < n; ++k) columns.push_back(place(sys, q, Eigen::VectorXd::Unit(n, k), zero));

  for (std::size_t e = 0; e < path.elements.size(); ++e) {
    const MassElement& el = path.elements[e];
    const Motion mo = motionOf(el.frame, el.c);
    std::vector<Motion> J;  // column k: J_v e_k (world) and J_w e_k (element axes)
    for (int k = 0; k < n; ++k) J.push_back(motionOf(columns[static_cast<std::size_t>(k)].elements[e].frame, el.c));
    const Eigen::Vector3d force = el.m * (mo.a - sys.gravity);
    const Eigen::Vector3d moment = el.I_c * mo.wdot + mo.w.cross(el.I_c * mo.w);
    for (int i = 0; i < n; ++i) {
      out.tau(i) += J[i].v.dot(force) + J[i].w.dot(moment);
      for (int j = 0; j < n; ++j) out.M(i, j) += el.m * J[i].v.dot(J[j].v) + J[i].w.dot(el.I_c * J[j].w);
    }
    out.inertial_force[el.body] += el.m * mo.a;
    out.kinetic += 0.5 * (el.m * mo.v.squaredNorm() + mo.w.dot(el.I_c * mo.w));
    out.gravity_potential -= el.m * sys.gravity.dot(mo.r);
  }
  for (const Body& b : sys.bodies) {  // a rotor turns with its motor coordinate only
    if (b.motor_index < 0) continue;
    const double J = b.joint_flex.rotor_inertia;
    out.M(b.motor_index, b.motor_index) += J;
    out.tau(b.motor_index) += J * qdd(b.motor_index);
    out.kinetic += 0.5 * J * qd(b.motor_index) * qd(b.motor_index);
  }

  for (std::size_t i = 0; i < path.distal.size(); ++i) {
    Vector6d v, a;
    spatialMotion(path.body[i], v, a);
    out.body_velocity.push_back(v);
    out.body_acceleration.push_back(a);
    spatialMotion(path.distal[i], v, a);
    out.distal_velocity.push_back(v);
    out.distal_acceleration.push_back(a);
    const Pose& X = path.distal[i];
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    for (int r = 0; r < 3; ++r) {
      pose.translation()(r) = X.p(r).v;
      for (int c = 0; c < 3; ++c) pose.linear()(r, c) = X.R(r, c).v;
    }
    out.distal.push_back(pose);
    Eigen::MatrixXd J(6, n);
    for (int k = 0; k < n; ++k) {
      const Motion mo = motionOf(columns[static_cast<std::size_t>(k)].distal[i], Eigen::Vector3d::Zero());
      J.col(k) << mo.w, pose.linear().transpose() * mo.v;
    }
    out.distal_jacobian.push_back(J);
  }
  return out;
}

}  // namespace flexarm::test
