#include "dynamics/Constraints.hpp"

#include <algorithm>
#include <cmath>

#include "discretization/ConstraintCheck.hpp"
#include "base/NumberFormat.hpp"
#include "base/Text.hpp"
#include "model/Names.hpp"

namespace flexarm {

const char* constraintKindName(Constraint::Kind kind) {
  switch (kind) {
    case Constraint::Kind::Coordinates: return "coordinates";
    case Constraint::Kind::Point: return "point";
    case Constraint::Kind::SlidingSupport: return "sliding_support";
    case Constraint::Kind::Revolute: return "revolute";
    case Constraint::Kind::Prismatic: return "prismatic";
  }
  return "?";
}

Eigen::VectorXd jointsFirstCorrection(const Eigen::MatrixXd& G, const Eigen::VectorXd& r, const std::vector<bool>& joint) {
  const Eigen::Index n = G.cols();
  Eigen::VectorXd dx = Eigen::VectorXd::Zero(n);
  std::vector<Eigen::Index> cols;
  for (Eigen::Index c = 0; c < n; ++c)
    if (joint[static_cast<std::size_t>(c)]) cols.push_back(c);
  Eigen::VectorXd left = r;
  if (!cols.empty()) {
    Eigen::MatrixXd GJ(G.rows(), static_cast<Eigen::Index>(cols.size()));
    for (std::size_t k = 0; k < cols.size(); ++k) GJ.col(static_cast<Eigen::Index>(k)) = G.col(cols[k]);
    const Eigen::VectorXd dj = GJ.completeOrthogonalDecomposition().solve(r);
    for (std::size_t k = 0; k < cols.size(); ++k) dx(cols[k]) = dj(static_cast<Eigen::Index>(k));
    left = r - GJ * dj;
  }
  if (left.size() > 0 && left.cwiseAbs().maxCoeff() > 1e-12 * std::max(1.0, r.cwiseAbs().maxCoeff()))
    dx += G.completeOrthogonalDecomposition().solve(left);
  return dx;
}

namespace {

// Two unit vectors normal to the unit vector a, and to each other: (a, n_1, n_2) is right-handed.
Eigen::Matrix3d directions(const Eigen::Vector3d& a) {
  Eigen::Matrix3d f;
  f.col(0) = a;
  Eigen::Index k;
  a.cwiseAbs().minCoeff(&k);  // the world axis least along a
  f.col(1) = a.cross(Eigen::Vector3d::Unit(k)).normalized();
  f.col(2) = a.cross(f.col(1));
  return f;
}

}  // namespace

Result<ConstraintSet::Closure> ConstraintSet::closure(const MultibodySystem& sys, const Model& model, const Constraint& k) {
  Closure c{k.kind,
            LinkPoint(sys, k.link, k.point),
            std::nullopt,
            k.world,
            Eigen::Matrix3d::Identity(),
            Eigen::Matrix3d::Identity(),
            {},
            {}};
  if (k.other_link >= 0) c.b.emplace(sys, k.other_link, k.other_point);
  Eigen::VectorXd q0, qd0;
  sys.initialState(model, q0, qd0);
  if (k.kind != Constraint::Kind::Point) {  // B's directions: A's, carried into B's frame in the initial state
    c.f = directions(k.axis.normalized());
    const Eigen::Matrix3d R_A = c.a.frame(q0).linear();
    const Eigen::Matrix3d R_B = c.b ? Eigen::Matrix3d(c.b->frame(q0).linear()) : Eigen::Matrix3d::Identity();
    c.g = R_B.transpose() * R_A * c.f;
  }
  std::vector<int> moving;
  for (const LinkPoint* lp : {&c.a, c.b ? &*c.b : nullptr}) {
    if (!lp) continue;
    const ColumnSet cols = lp->coordinates();
    moving.insert(moving.end(), cols.index, cols.index + cols.count);
  }
  std::sort(moving.begin(), moving.end());
  moving.erase(std::unique(moving.begin(), moving.end()), moving.end());
  c.moving = std::move(moving);

  // The rows that something in the model can move: a row whose Jacobian is zero in the initial state
  // and in two states about it (the joints turned by up to half a radian or moved by half a metre, the
  // links deflected) holds nothing: the out-of-plane rows of a closure in a planar mechanism. It is
  // left out if the initial state satisfies it, and refused if not (nothing could bring it there).
  const int all = k.kind == Constraint::Kind::Point ? 3 : 5;
  Eigen::VectorXd phi0(all), phi(all);
  Eigen::MatrixXd J(all, sys.nq);
  allRows(c, q0, phi0, J);
  Eigen::VectorXd moved = J.cwiseAbs().rowwise().maxCoeff();
  for (int sample = 1; sample <= 2; ++sample) {
    Eigen::VectorXd q = q0;
    for (int i = 0; i < sys.nq; ++i)
      q(i) += (sys.coordinates.kinds[static_cast<std::size_t>(i)] == CoordinateKind::Elastic ? 1e-3 : 0.5) *
              std::sin(1.7 * (i + 1) * sample + 0.3);
    allRows(c, q, phi, J);
    moved = moved.cwiseMax(J.cwiseAbs().rowwise().maxCoeff());
  }
  const double floor = 1e-10 * (1.0 + moved.maxCoeff());
  static const char* const what[3][5] = {
      {"the point's x", "the point's y", "the point's z", "", ""},
      {"the point's x", "the point's y", "the point's z", "the tilt of its axis about one normal",
       "the tilt of its axis about the other normal"},
      {"the distance from its line along one normal", "the distance from its line along the other normal",
       "its turn about the axis", "its turn about one normal", "its turn about the other normal"}};
  const int table = k.kind == Constraint::Kind::Point ? 0 : k.kind == Constraint::Kind::Revolute ? 1 : 2;
  const double size = 1.0 + k.world.norm() + k.point.norm() + k.other_point.norm();
  for (int r = 0; r < all; ++r) {
    if (k.kind == Constraint::Kind::Point && !k.axes[static_cast<std::size_t>(r)]) continue;
    if (moved(r) > floor) {
      c.kept.push_back(r);
    } else if (std::abs(phi0(r)) > 1e-9 * size) {
      return errorAt("constraint '" + excerpt(k.name) + "'", std::string("nothing in the model can change ") + what[table][r] +
                                                                 ", and the initial state is off by " + formatShort(phi0(r), 4) +
                                                                 (r < 3 && table < 2 ? " m" : ""));
    }
  }
  if (c.kept.empty()) return errorAt("constraint '" + excerpt(k.name) + "'", "holds nothing that the model can move");
  return c;
}

void ConstraintSet::closureRows(const Closure& c, const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi,
                                Eigen::Ref<Eigen::MatrixXd> J) const {
  thread_local Eigen::VectorXd phi_all;
  thread_local Eigen::MatrixXd J_all;
  const int all = c.kind == Constraint::Kind::Point ? 3 : 5;
  phi_all.resize(all);
  J_all.resize(all, q.size());
  allRows(c, q, phi_all, J_all);
  for (std::size_t i = 0; i < c.kept.size(); ++i) {
    phi(static_cast<Eigen::Index>(i)) = phi_all(c.kept[i]);
    J.row(static_cast<Eigen::Index>(i)) = J_all.row(c.kept[i]);
  }
}

void ConstraintSet::allRows(const Closure& c, const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi,
                            Eigen::Ref<Eigen::MatrixXd> J) {
  thread_local Eigen::Matrix<double, 3, Eigen::Dynamic> Ja, Wa, Jb, Wb, Jd;
  Eigen::Isometry3d Xa, Xb = Eigen::Isometry3d::Identity();
  const bool turns = c.kind != Constraint::Kind::Point;
  c.a.jacobian(q, Xa, Ja, turns ? &Wa : nullptr);
  if (c.b) {
    c.b->jacobian(q, Xb, Jb, &Wb);
    Ja -= Jb;             // d(p_A - p_B)/dq
    if (turns) Wa -= Wb;  // the rates of A's turn relative to B's
  } else {
    Xb.translation() = c.world;
  }
  const Eigen::Vector3d d = Xa.translation() - Xb.translation();
  const Eigen::Matrix3d F = Xa.linear() * c.f, G = Xb.linear() * c.g;  // world directions
  // a . b for directions turning with A and B: d(a . b) = (a x b) . (omega_A - omega_B).
  auto dotRow = [&](int r, const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    phi(r) = a.dot(b);
    J.row(r).noalias() = a.cross(b).transpose() * Wa;
  };
  // The position rows: d in B's axes, R_B^T d, whose rate is R_B^T (d' + d x omega_B); what moves A and
  // B alike (a joint before both) drops out, exactly, at any state.
  auto positionRows = [&] {
    if (!c.b) {
      phi.head<3>() = d;
      J.topRows<3>() = Ja;
      return;
    }
    const Eigen::Matrix3d Rt = Xb.linear().transpose();
    phi.head<3>() = Rt * d;
    Jd = Ja;
    for (int k : c.moving) Jd.col(k) += d.cross(Wb.col(k));
    J.topRows<3>().noalias() = Rt * Jd;
  };
  switch (c.kind) {
    case Constraint::Kind::Point: positionRows(); break;
    case Constraint::Kind::Revolute:
      positionRows();
      dotRow(3, F.col(0), G.col(1));
      dotRow(4, F.col(0), G.col(2));
      break;
    case Constraint::Kind::Prismatic: {
      // n . d with n turning with A: d(n . d) = (n x d) . omega_A + n . d(d).
      for (int i = 0; i < 2; ++i) {
        const Eigen::Vector3d n = F.col(i + 1);
        phi(i) = n.dot(d);
        J.row(i).noalias() = n.transpose() * Ja;
        if (!c.b) {
          J.row(i).noalias() += n.cross(d).transpose() * Wa;
        } else {  // omega_A = (omega_A - omega_B) + omega_B
          J.row(i).noalias() += n.cross(d).transpose() * (Wa + Wb);
        }
      }
      dotRow(2, F.col(1), G.col(2));
      dotRow(3, F.col(2), G.col(0));
      dotRow(4, F.col(0), G.col(1));
      break;
    }
    default: break;
  }
}

Status ConstraintSet::build(const MultibodySystem& sys, const Model& model, bool prescribed_as_constraints) {
  sys_ = &sys;
  rows_ = 0;
  groups_.clear();
  entries_.clear();
  linear_.clear();
  closures_.clear();
  supports_.clear();
  auto addGroup = [&](Group g, Entry e) {
    g.first_row = rows_;
    e.first_row = rows_;
    rows_ += g.rows;
    groups_.push_back(std::move(g));
    entries_.push_back(e);
  };

  if (Status checked = checkConstraints(model, sys.coordinates); !checked) return checked;
  for (const Constraint& k : model.constraints) {
    switch (k.kind) {
      case Constraint::Kind::Coordinates: {
        Linear lin;
        lin.a = Eigen::VectorXd::Zero(sys.nq);
        lin.law = k.value;
        lin.law.prepare();
        std::string first_unit;
        for (const auto& [name, coef] : k.terms) {
          const int i = sys.coordinateIndex(name);
          const std::string unit = sys.coordinates.unit(i);
          if (first_unit.empty()) first_unit = unit;
          if (unit != first_unit) first_unit = "m or rad";
          lin.a(i) += coef;
        }
        linear_.push_back(std::move(lin));
        addGroup(Group{k.name, first_unit, 0, 1, -1, 1.0}, Entry{Entry::Kind::Linear, static_cast<int>(linear_.size()) - 1, 0});
        break;
      }
      case Constraint::Kind::Point:
      case Constraint::Kind::Revolute:
      case Constraint::Kind::Prismatic: {
        Result<Closure> c = closure(sys, model, k);
        if (!c) return c.error();
        closures_.push_back(std::move(*c));
        const char* unit = k.kind == Constraint::Kind::Point ? "m" : "m or rad";
        addGroup(Group{k.name, unit, 0, closures_.back().rows(), -1, 1.0},
                 Entry{Entry::Kind::Closure, static_cast<int>(closures_.size()) - 1, 0});
        break;
      }
      case Constraint::Kind::SlidingSupport: {
        const Body& b = sys.bodies[static_cast<std::size_t>(k.link)];
        Support s;
        s.body = k.link;
        s.position = k.position;
        s.sigma = b.axis.x() > 0 ? 1.0 : -1.0;
        s.slope = k.clamp_slope;
        ShapeRows r;
        b.flexible->evaluate(0.5 * b.length, r);
        s.lateral_w = r.w.size() > 0 && r.w.cwiseAbs().maxCoeff() > 0.0;
        supports_.push_back(s);
        const int rows = (s.lateral_w ? 2 : 1) * (s.slope ? 2 : 1);
        addGroup(Group{k.name, "m", 0, rows, -1, 1.0}, Entry{Entry::Kind::Support, static_cast<int>(supports_.size()) - 1, 0});
        break;
      }
    }
  }
  if (prescribed_as_constraints) {
    for (std::size_t j = 0; j < sys.bodies.size(); ++j) {
      const Body& b = sys.bodies[j];
      if (b.drive.kind != JointDrive::Kind::Prescribed) continue;
      Linear lin;
      lin.a = Eigen::VectorXd::Zero(sys.nq);
      lin.a(b.drivenIndex()) = 1.0;
      lin.law = b.drive.law;
      lin.gain = 1.0 / b.driveScale();  // a prescribed flexible joint drives its motor: q_m = N q(t)
      linear_.push_back(std::move(lin));
      // Constraint force on the coordinate: -lambda; the drive supplies it.
      addGroup(Group{names::driveConstraint(b.joint_name), b.joint_type == JointType::Revolute ? "rad" : "m", 0, 1,
                     static_cast<int>(j), -1.0},
               Entry{Entry::Kind::Linear, static_cast<int>(linear_.size()) - 1, 0});
    }
  }
  return {};
}

template <class Fn>
void ConstraintSet::forEachSupportRow(const Support& s, const Eigen::VectorXd& q, int row, Fn&& fn) const {
  const Body& b = sys_->bodies[static_cast<std::size_t>(s.body)];
  const FlexibleBody& fb = *b.flexible;
  const double x = std::clamp(s.sigma * (s.position - q(b.q_index)), 0.0, b.length);
  // Shape rows N, N', N'', N''' at x for the deflection along y (and z); N''' (slope rows only) by
  // central differences of N''. The rows are kept per thread: this runs in every residual of the
  // constrained solvers, and new rows allocated ten vectors each.
  thread_local ShapeRows r, rp, rm;
  fb.evaluate(x, r);
  fn(row++, r.v, r.v1, r.v2);
  if (s.lateral_w) fn(row++, r.w, r.w1, r.w2);
  if (s.slope) {
    const double delta = 1e-6 * b.length;
    fb.evaluate(std::min(x + delta, b.length), rp);
    fb.evaluate(std::max(x - delta, 0.0), rm);
    const double span = std::min(x + delta, b.length) - std::max(x - delta, 0.0);
    fn(row++, r.v1, r.v2, Eigen::RowVectorXd((rp.v2 - rm.v2) / span));
    if (s.lateral_w) fn(row++, r.w1, r.w2, Eigen::RowVectorXd((rp.w2 - rm.w2) / span));
  }
}

void ConstraintSet::evaluateSupport(const Support& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, int row,
                                    ConstraintRows& out) const {
  const Body& b = sys_->bodies[static_cast<std::size_t>(s.body)];
  const double d = q(b.q_index), dd = qd(b.q_index);
  const double xD = s.sigma * (s.position - d);
  if ((xD < 0.0 || xD > b.length) && out.error.empty())
    out.error = "link '" + b.name + "' left its support at " + formatShort(s.position) +
                " m: the support's material point is x = " + formatShort(xD, 6) + " m, outside [0, " + formatShort(b.length) +
                "] m";
  const auto e = q.segment(b.e_index, b.e_count);
  const auto ed = qd.segment(b.e_index, b.e_count);
  // Row for a field N (with N' = N1, N'' = N2): Phi = N e, dPhi/dq_joint = -sigma N1 e,
  // h = 2 sigma qd N1 ed - qd^2 N2 e (x_D moves at -sigma qd).
  forEachSupportRow(s, q, row,
                    [&](int r, const Eigen::RowVectorXd& N, const Eigen::RowVectorXd& N1, const Eigen::RowVectorXd& N2) {
                      out.phi(r) = N.dot(e);
                      out.Phi_q.row(r).setZero();
                      out.Phi_q.row(r).segment(b.e_index, b.e_count) = N;
                      out.Phi_q(r, b.q_index) = -s.sigma * N1.dot(e);
                      out.phi_t(r) = 0.0;
                      out.h(r) = 2.0 * s.sigma * dd * N1.dot(ed) - dd * dd * N2.dot(e);
                    });
}

template <class Fn>
void ConstraintSet::forEachClosureJacobianDerivative(const Closure& c, const Eigen::VectorXd& q, Fn&& fn) const {
  Eigen::VectorXd qq = q;
  thread_local Eigen::VectorXd phi;
  thread_local Eigen::MatrixXd Jp, Jm;
  phi.resize(c.rows());
  Jp.resize(c.rows(), q.size());
  Jm.resize(c.rows(), q.size());
  for (const int k : c.moving) {
    const double eps = 1e-6 * (1.0 + std::abs(q(k)));
    qq(k) = q(k) + eps;
    closureRows(c, qq, phi, Jp);
    qq(k) = q(k) - eps;
    closureRows(c, qq, phi, Jm);
    qq(k) = q(k);
    fn(k, Eigen::MatrixXd((Jp - Jm) / (2.0 * eps)));
  }
}

void ConstraintSet::addForceDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& w, double scale,
                                       Eigen::Ref<Eigen::MatrixXd> out_force) const {
  std::vector<ForceTerm> force{{w, scale, out_force}};
  addDerivatives(q, force, q, nullptr);
}

void ConstraintSet::rateDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   Eigen::Ref<Eigen::MatrixXd> out_rate) const {
  std::vector<ForceTerm> none;
  addDerivatives(q, none, qd, &out_rate);
}

void ConstraintSet::addDerivatives(const Eigen::VectorXd& q, std::vector<ForceTerm>& force, const Eigen::VectorXd& qd,
                                   Eigen::Ref<Eigen::MatrixXd>* out_rate) const {
  if (out_rate) out_rate->setZero();
  for (const Entry& en : entries_) {
    if (en.kind == Entry::Kind::Closure) {
      const Closure& c = closures_[static_cast<std::size_t>(en.index)];
      forEachClosureJacobianDerivative(c, q, [&](int k, const Eigen::MatrixXd& dJ) {
        for (ForceTerm& f : force) f.out.col(k).noalias() += f.scale * dJ.transpose() * f.w.segment(en.first_row, c.rows());
        if (out_rate) out_rate->col(k).segment(en.first_row, c.rows()).noalias() = dJ * qd;
      });
    } else if (en.kind == Entry::Kind::Support) {
      // Phi_ee = 0, Phi_ed = -sigma N1, Phi_dd = sigma^2 N2 e (d: the sliding joint);
      // Phi_q qd = N ed - sigma dd N1 e: d/de = -sigma dd N1, d/dd = -sigma N1 ed + sigma^2 dd N2 e.
      const Support& s = supports_[static_cast<std::size_t>(en.index)];
      const Body& b = sys_->bodies[static_cast<std::size_t>(s.body)];
      const auto e = q.segment(b.e_index, b.e_count);
      const auto ed = qd.segment(b.e_index, b.e_count);
      const double dd = qd(b.q_index);
      forEachSupportRow(s, q, en.first_row,
                        [&](int r, const Eigen::RowVectorXd&, const Eigen::RowVectorXd& N1, const Eigen::RowVectorXd& N2) {
                          for (ForceTerm& f : force) {
                            const double c = f.scale * f.w(r);
                            f.out.col(b.q_index).segment(b.e_index, b.e_count) -= c * s.sigma * N1.transpose();
                            f.out.row(b.q_index).segment(b.e_index, b.e_count) -= c * s.sigma * N1;
                            f.out(b.q_index, b.q_index) += c * s.sigma * s.sigma * N2.dot(e);
                          }
                          if (out_rate) {
                            out_rate->row(r).segment(b.e_index, b.e_count) = -s.sigma * dd * N1;
                            (*out_rate)(r, b.q_index) = -s.sigma * N1.dot(ed) + s.sigma * s.sigma * dd * N2.dot(e);
                          }
                        });
    }
  }
}

void ConstraintSet::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, ConstraintRows& out) const {
  const int nq = sys_->nq;
  if (out.phi.size() != rows_ || out.Phi_q.cols() != nq) {
    out.phi.resize(rows_);
    out.phi_t.resize(rows_);
    out.h.resize(rows_);
    out.Phi_q.resize(rows_, nq);
  }
  out.error.clear();
  thread_local Eigen::VectorXd rows_p;
  thread_local Eigen::MatrixXd Jp, Jm;
  for (const Entry& en : entries_) {
    const int row = en.first_row;
    switch (en.kind) {
      case Entry::Kind::Linear: {
        const Linear& lin = linear_[static_cast<std::size_t>(en.index)];
        const TimeSample f = lin.law.evaluate(t);
        out.phi(row) = lin.a.dot(q) - lin.gain * f.value;
        out.Phi_q.row(row) = lin.a.transpose();
        out.phi_t(row) = -lin.gain * f.rate;
        out.h(row) = lin.gain * f.accel;
        break;
      }
      case Entry::Kind::Closure: {
        const Closure& c = closures_[static_cast<std::size_t>(en.index)];
        auto phi = out.phi.segment(row, c.rows());
        closureRows(c, q, phi, out.Phi_q.middleRows(row, c.rows()));
        // h = -(dPhi_q/dt) qd, by central differences of Phi_q along qd (exact zero at rest).
        out.phi_t.segment(row, c.rows()).setZero();
        out.h.segment(row, c.rows()).setZero();
        const double speed = qd.cwiseAbs().maxCoeff();
        if (speed > 0.0) {
          const double eps = 1e-6 / speed;
          rows_p.resize(c.rows());
          Jp.resize(c.rows(), nq);
          Jm.resize(c.rows(), nq);
          closureRows(c, q + eps * qd, rows_p, Jp);
          closureRows(c, q - eps * qd, rows_p, Jm);
          out.h.segment(row, c.rows()).noalias() = -(Jp - Jm) * qd / (2.0 * eps);
        }
        break;
      }
      case Entry::Kind::Support: evaluateSupport(supports_[static_cast<std::size_t>(en.index)], q, qd, row, out); break;
    }
  }
}

}  // namespace flexarm
