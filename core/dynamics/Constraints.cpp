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

Status ConstraintSet::build(const MultibodySystem& sys, const Model& model, bool prescribed_as_constraints) {
  sys_ = &sys;
  rows_ = 0;
  groups_.clear();
  entries_.clear();
  linear_.clear();
  points_.clear();
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
      case Constraint::Kind::Point: {
        PointRows p{LinkPoint(sys, k.link, k.point), k.world, {}};
        for (int a = 0; a < 3; ++a)
          if (k.axes[static_cast<std::size_t>(a)]) p.axes.push_back(a);
        const int rows = static_cast<int>(p.axes.size());
        points_.push_back(std::move(p));
        addGroup(Group{k.name, "m", 0, rows, -1, 1.0}, Entry{Entry::Kind::Point, static_cast<int>(points_.size()) - 1, 0});
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
void ConstraintSet::forEachPointJacobianDerivative(const PointRows& p, const Eigen::VectorXd& q, Fn&& fn) const {
  Eigen::VectorXd qq = q;
  Eigen::Vector3d pos;
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jp, Jm;
  const ColumnSet moving = p.point.coordinates();
  for (int c = 0; c < moving.count; ++c) {
    const int k = moving.index[c];
    const double eps = 1e-6 * (1.0 + std::abs(q(k)));
    qq(k) = q(k) + eps;
    p.point.jacobian(qq, pos, Jp);
    qq(k) = q(k) - eps;
    p.point.jacobian(qq, pos, Jm);
    qq(k) = q(k);
    fn(k, Eigen::Matrix<double, 3, Eigen::Dynamic>((Jp - Jm) / (2.0 * eps)));
  }
}

void ConstraintSet::addForceDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& w, double scale,
                                       Eigen::Ref<Eigen::MatrixXd> out_force) const {
  for (const Entry& en : entries_) {
    if (en.kind == Entry::Kind::Point) {
      const PointRows& p = points_[static_cast<std::size_t>(en.index)];
      forEachPointJacobianDerivative(p, q, [&](int k, const Eigen::Matrix<double, 3, Eigen::Dynamic>& dJ) {
        for (std::size_t a = 0; a < p.axes.size(); ++a)
          out_force.col(k) += scale * w(en.first_row + static_cast<int>(a)) * dJ.row(p.axes[a]).transpose();
      });
    } else if (en.kind == Entry::Kind::Support) {
      // Phi_ee = 0, Phi_ed = -sigma N1, Phi_dd = sigma^2 N2 e (d: the sliding joint).
      const Support& s = supports_[static_cast<std::size_t>(en.index)];
      const Body& b = sys_->bodies[static_cast<std::size_t>(s.body)];
      const auto e = q.segment(b.e_index, b.e_count);
      forEachSupportRow(s, q, en.first_row,
                        [&](int r, const Eigen::RowVectorXd&, const Eigen::RowVectorXd& N1, const Eigen::RowVectorXd& N2) {
                          const double c = scale * w(r);
                          out_force.col(b.q_index).segment(b.e_index, b.e_count) -= c * s.sigma * N1.transpose();
                          out_force.row(b.q_index).segment(b.e_index, b.e_count) -= c * s.sigma * N1;
                          out_force(b.q_index, b.q_index) += c * s.sigma * s.sigma * N2.dot(e);
                        });
    }
  }
}

void ConstraintSet::rateDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   Eigen::Ref<Eigen::MatrixXd> out_rate) const {
  out_rate.setZero();
  for (const Entry& en : entries_) {
    if (en.kind == Entry::Kind::Point) {
      const PointRows& p = points_[static_cast<std::size_t>(en.index)];
      forEachPointJacobianDerivative(p, q, [&](int k, const Eigen::Matrix<double, 3, Eigen::Dynamic>& dJ) {
        for (std::size_t a = 0; a < p.axes.size(); ++a)
          out_rate(en.first_row + static_cast<int>(a), k) = dJ.row(p.axes[a]).dot(qd);
      });
    } else if (en.kind == Entry::Kind::Support) {
      // Phi_q qd = N ed - sigma dd N1 e: d/de = -sigma dd N1, d/dd = -sigma N1 ed + sigma^2 dd N2 e.
      const Support& s = supports_[static_cast<std::size_t>(en.index)];
      const Body& b = sys_->bodies[static_cast<std::size_t>(s.body)];
      const auto e = q.segment(b.e_index, b.e_count);
      const auto ed = qd.segment(b.e_index, b.e_count);
      const double dd = qd(b.q_index);
      forEachSupportRow(s, q, en.first_row,
                        [&](int r, const Eigen::RowVectorXd&, const Eigen::RowVectorXd& N1, const Eigen::RowVectorXd& N2) {
                          out_rate.row(r).segment(b.e_index, b.e_count) = -s.sigma * dd * N1;
                          out_rate(r, b.q_index) = -s.sigma * N1.dot(ed) + s.sigma * s.sigma * dd * N2.dot(e);
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
  Eigen::Vector3d pos, pos_p, pos_m;
  Eigen::Matrix<double, 3, Eigen::Dynamic> J, Jp, Jm;
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
      case Entry::Kind::Point: {
        const PointRows& p = points_[static_cast<std::size_t>(en.index)];
        p.point.jacobian(q, pos, J);
        // h = -(dJ/dt) qd, by central differences of J along qd (exact zero at rest).
        Eigen::Vector3d Jdot_qd = Eigen::Vector3d::Zero();
        const double speed = qd.cwiseAbs().maxCoeff();
        if (speed > 0.0) {
          const double eps = 1e-6 / speed;
          p.point.jacobian(q + eps * qd, pos_p, Jp);
          p.point.jacobian(q - eps * qd, pos_m, Jm);
          Jdot_qd = (Jp - Jm) * qd / (2.0 * eps);
        }
        for (std::size_t a = 0; a < p.axes.size(); ++a) {
          const int k = p.axes[a];
          const int r = row + static_cast<int>(a);
          out.phi(r) = pos(k) - p.world(k);
          out.Phi_q.row(r) = J.row(k);
          out.phi_t(r) = 0.0;
          out.h(r) = -Jdot_qd(k);
        }
        break;
      }
      case Entry::Kind::Support: evaluateSupport(supports_[static_cast<std::size_t>(en.index)], q, qd, row, out); break;
    }
  }
}

}  // namespace flexarm
