#include "dynamics/ConstrainedDynamics.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "base/NumberFormat.hpp"

namespace flexarm {

ConstrainedDynamics::ConstrainedDynamics(const MultibodySystem& sys, const ConstraintSet& constraints)
    : sys_(sys), cs_(constraints), fd_(sys, ForwardDynamics::Prescribed::Constrained) {
  y_ = Eigen::VectorXd::Zero(2 * sys.nq);
  kkt_ = Eigen::MatrixXd::Zero(sys.nq + cs_.size(), sys.nq + cs_.size());
  kkt_rhs_ = Eigen::VectorXd::Zero(sys.nq + cs_.size());
}

void ConstrainedDynamics::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  y_.head(sys_.nq) = q;
  y_.tail(sys_.nq) = qd;
  fd_.evaluate(ForwardDynamics::Request::terms(t, y_.data()));
  cs_.evaluate(t, q, qd, rows_);
}

void ConstrainedDynamics::inertialResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& qdd, Eigen::Ref<Eigen::VectorXd> r) {
  y_.head(sys_.nq) = q;
  y_.tail(sys_.nq) = qd;
  // Every coordinate is free here: the pass takes qdd for all of them, the prescribed joints' included
  // (what evaluate() puts into f as M[:, p] qdd_p comes out of M qdd the same).
  fd_.evaluate(ForwardDynamics::Request::residual(t, y_.data(), qdd.data(), r.data()));
  cs_.evaluate(t, q, qd, rows_);
}

bool ConstrainedDynamics::solveAccelerations(const Eigen::VectorXd& c, Eigen::VectorXd& qdd, Eigen::VectorXd& lambda) {
  const int n = sys_.nq, m = cs_.size();
  kkt_.topLeftCorner(n, n) = M();
  kkt_.topRightCorner(n, m) = rows_.Phi_q.transpose();
  kkt_.bottomLeftCorner(m, n) = rows_.Phi_q;
  kkt_.bottomRightCorner(m, m).setZero();
  kkt_rhs_.head(n) = f();
  kkt_rhs_.tail(m) = c;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(kkt_);
  if (!lu.isInvertible()) return false;
  const Eigen::VectorXd x = lu.solve(kkt_rhs_);
  if (!x.allFinite()) return false;
  qdd = x.head(n);
  lambda = x.tail(m);
  return true;
}

void ConstrainedDynamics::prepareRecord(const Eigen::VectorXd& qdd, const Eigen::VectorXd& lambda) {
  fd_.setAccelerations(qdd);
  for (const ConstraintSet::Group& g : cs_.groups())
    if (g.joint >= 0) fd_.setEffort(g.joint, g.effort_scale * lambda(g.first_row));
}

double ConstrainedDynamics::positionViolation(int g) const {
  const ConstraintSet::Group& grp = cs_.groups()[static_cast<std::size_t>(g)];
  return rows_.phi.segment(grp.first_row, grp.rows).norm();
}

double ConstrainedDynamics::velocityViolation(int g, const Eigen::VectorXd& qd) const {
  const ConstraintSet::Group& grp = cs_.groups()[static_cast<std::size_t>(g)];
  return (rows_.Phi_q.middleRows(grp.first_row, grp.rows) * qd + rows_.phi_t.segment(grp.first_row, grp.rows)).norm();
}

Status ConstrainedDynamics::initialConditions(const Model& model, double t0, Eigen::VectorXd& q, Eigen::VectorXd& qd,
                                              Eigen::VectorXd& qdd, Eigen::VectorXd& lambda) {
  sys_.initialState(model, q, qd);
  const int m = cs_.size();
  cs_.evaluate(t0, q, qd, rows_);
  if (!rows_.error.empty()) return errorAt("initial state", rows_.error);
  if (Status loaded = applyInitialLoads(sys_, model, &rows_, q); !loaded) return loaded;
  // Positions: q <- q - Phi_q^+ Phi, until Phi = 0.
  auto worstGroup = [&]() {
    int worst = 0;
    double v = -1.0;
    for (std::size_t g = 0; g < cs_.groups().size(); ++g) {
      const double n = positionViolation(static_cast<int>(g));
      if (n > v) v = n, worst = static_cast<int>(g);
    }
    return cs_.groups().empty() ? std::string() : cs_.groups()[static_cast<std::size_t>(worst)].name;
  };
  // The joints close the loops where they can: an arm that starts undeformed stays so (jointsFirstCorrection).
  std::vector<bool> joint(static_cast<std::size_t>(sys_.nq));
  for (int k = 0; k < sys_.nq; ++k)
    joint[static_cast<std::size_t>(k)] = sys_.coordinates.kinds[static_cast<std::size_t>(k)] != CoordinateKind::Elastic;
  if (m > 0) {
    bool converged = false;
    for (int it = 0; it < 50 && !converged; ++it) {
      cs_.evaluate(t0, q, qd, rows_);
      if (!rows_.error.empty()) return errorAt("initial state", rows_.error);
      const double scale = 1.0 + q.cwiseAbs().maxCoeff();
      if (rows_.phi.cwiseAbs().maxCoeff() <= 1e-13 * scale) {
        converged = true;
        break;
      }
      q -= jointsFirstCorrection(rows_.Phi_q, rows_.phi, joint);
    }
    if (!converged)
      return error("the initial configuration cannot satisfy the constraints (largest violation in '" + worstGroup() +
                   "': " + formatShort(rows_.phi.cwiseAbs().maxCoeff(), 3) +
                   " after 50 Gauss-Newton iterations); check their positions and the joints' q0");
    // Rates: the least change that satisfies Phi_q qd + Phi_t = 0, by the joints first.
    qd -= jointsFirstCorrection(rows_.Phi_q, rows_.Phi_q * qd + rows_.phi_t, joint);
  }
  evaluate(t0, q, qd);
  if (!rows_.error.empty()) return errorAt("initial state", rows_.error);
  if (!solveAccelerations(rows_.h, qdd, lambda))
    return error(
        "the constraint equations are singular at the initial state: redundant or conflicting constraints "
        "(two constraints holding the same coordinate?), or a coordinate without mass that nothing holds");
  return {};
}

Status applyInitialLoads(const MultibodySystem& sys, const Model& model, const ConstraintRows* rows, Eigen::VectorXd& q) {
  std::vector<int> coords;
  Eigen::VectorXd F;
  std::vector<const Body*> loaded;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    if (!b.isFlexible() || !model.links[i].flex || !model.links[i].flex->initial_load) continue;
    loaded.push_back(&b);
    for (int k = 0; k < b.e_count; ++k) coords.push_back(b.e_index + k);
  }
  if (loaded.empty()) return {};
  const int n = static_cast<int>(coords.size());
  // Generalized load F = int (p_y N_v + p_z N_w) dx over the Gauss stations, and the stiffness K e.
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
  int offset = 0;
  for (std::size_t l = 0; l < loaded.size(); ++l) {
    const Body& b = *loaded[l];
    const FlexibleBody& fb = *b.flexible;
    const std::size_t i = static_cast<std::size_t>(&b - sys.bodies.data());
    const Eigen::Vector3d p = *model.links[i].flex->initial_load;
    for (const FlexibleBody::Station& st : fb.stations)
      rhs.segment(offset, fb.m) += st.weight * (p.y() * st.v.transpose() + p.z() * st.w.transpose());
    K.block(offset, offset, fb.m, fb.m) = fb.K;
    rhs.segment(offset, fb.m) -= fb.K * q.segment(b.e_index, fb.m);
    offset += fb.m;
  }
  // Constraint rows that involve the loaded coordinates.
  std::vector<int> sel;
  if (rows)
    for (int r = 0; r < rows->Phi_q.rows(); ++r) {
      double norm = 0.0;
      for (int c : coords) norm += std::abs(rows->Phi_q(r, c));
      if (norm > 0.0) sel.push_back(r);
    }
  const int m = static_cast<int>(sel.size());
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + m, n + m);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n + m);
  A.topLeftCorner(n, n) = K;
  b.head(n) = rhs;
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c) {
      A(n + r, c) = rows->Phi_q(sel[static_cast<std::size_t>(r)], coords[static_cast<std::size_t>(c)]);
      A(c, n + r) = A(n + r, c);
    }
    b(n + r) = -rows->phi(sel[static_cast<std::size_t>(r)]);
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
  if (!lu.isInvertible())
    return errorAt("link '" + loaded.front()->name + "'",
                   "the initial load has no static equilibrium (a free root needs supports that hold it)");
  const Eigen::VectorXd x = lu.solve(b);
  for (int c = 0; c < n; ++c) q(coords[static_cast<std::size_t>(c)]) += x(c);
  return {};
}

}  // namespace flexarm
