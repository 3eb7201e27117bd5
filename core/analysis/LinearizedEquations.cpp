#include "analysis/LinearizedEquations.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <optional>

namespace flexarm {

namespace {
bool stopped(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }
}  // namespace

LinearizedEquations::LinearizedEquations(ForwardDynamics& fd, ForwardDynamics* zero_coupling) : fd_(fd), zero_(zero_coupling) {}

bool LinearizedEquations::residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a, Eigen::VectorXd& r) {
  const int nf = static_cast<int>(fd_.freeCoordinates().size());
  r.resize(nf);
  ++evaluations_;
  if (fd_.abilities().exact_residual || a.cwiseAbs().maxCoeff() == 0.0) {
    fd_.evaluate(ForwardDynamics::Request::residual(t, y.data(), a.data(), r.data()));
  } else {
    // `geometric` coupling: b - Q with the axial force of the motion without the free accelerations,
    // plus M(q) a from the zero-coupling equations (the same mass matrix), which are linear in a.
    if (!zero_) {
      error_ = "the linearization of geometric coupling with free accelerations needs the zero-coupling equations";
      return false;
    }
    const Eigen::VectorXd none = Eigen::VectorXd::Zero(nf);
    fd_.evaluate(ForwardDynamics::Request::residual(t, y.data(), none.data(), r.data()));
    work_.resize(nf);
    zero_->evaluate(ForwardDynamics::Request::residual(t, y.data(), a.data(), work_.data()));
    r += work_;
    zero_->evaluate(ForwardDynamics::Request::residual(t, y.data(), none.data(), work_.data()));
    r -= work_;
  }
  if (r.allFinite()) return true;
  error_ = "the equations are not finite near the state linearized about";
  return false;
}

bool LinearizedEquations::jacobianColumns(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a,
                                          const std::vector<int>& columns, Eigen::MatrixXd& J, const std::atomic<bool>* cancel) {
  const int nf = static_cast<int>(fd_.freeCoordinates().size());
  J.resize(nf, static_cast<int>(columns.size()));
  Eigen::VectorXd yp = y, rp, rm;
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (stopped(cancel)) {
      cancelled_ = true;
      error_ = "cancelled";
      return false;
    }
    const int c = columns[j];
    const double h = differenceStep(y(c));
    yp(c) = y(c) + h;
    if (!residual(t, yp, a, rp)) return false;
    yp(c) = y(c) - h;
    if (!residual(t, yp, a, rm)) return false;
    yp(c) = y(c);
    J.col(static_cast<int>(j)) = (rp - rm) / (2 * h);
  }
  return true;
}

bool LinearizedEquations::groupedStiffness(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a,
                                           const RestStiffnessPattern& pattern, Eigen::MatrixXd& K, bool& consistent,
                                           const std::atomic<bool>* cancel) {
  const int nf = static_cast<int>(fd_.freeCoordinates().size());
  consistent = false;
  Eigen::MatrixXd J;
  if (!jacobianColumns(t, y, a, pattern.dense, J, cancel)) return false;
  K.setZero(nf, nf);
  for (std::size_t j = 0; j < pattern.dense.size(); ++j) K.col(pattern.dense[j]) = J.col(static_cast<int>(j));
  Eigen::VectorXd yp = y, rp, rm;
  for (const std::vector<int>& group : pattern.groups) {
    if (stopped(cancel)) {
      cancelled_ = true;
      error_ = "cancelled";
      return false;
    }
    for (int sign : {1, -1}) {
      for (int c : group) yp(c) = y(c) + sign * differenceStep(y(c));
      if (!residual(t, yp, a, sign > 0 ? rp : rm)) return false;
    }
    for (int c : group) {
      yp(c) = y(c);
      const double h = differenceStep(y(c));
      for (int i : pattern.rows[static_cast<std::size_t>(c)]) K(i, c) = (rp(i) - rm(i)) / (2 * h);
    }
  }
  for (int d : pattern.dense)  // the dense rows of the grouped columns, by symmetry
    for (int c = 0; c < nf; ++c)
      if (!pattern.rows[static_cast<std::size_t>(c)].empty()) K(d, c) = K(c, d);

  // The check along z, which moves every coordinate by a generic fraction of its difference step.
  Eigen::VectorXd z = Eigen::VectorXd::Zero(y.size());  // [dq; 0]
  for (int c = 0; c < nf; ++c) z(c) = differenceStep(y(c)) * std::sin(1.0 + 2.3 * c);
  if (!residual(t, y + z, a, rp) || !residual(t, y - z, a, rm)) return false;
  const Eigen::VectorXd difference = 0.5 * (rp - rm), product = K * z.head(nf);
  const Eigen::VectorXd size = K.cwiseAbs() * z.head(nf).cwiseAbs();
  const double floor = 1e-12 * size.maxCoeff();
  consistent = ((difference - product).cwiseAbs().array() <= kCheckTolerance * size.array() + floor).all();
  return true;
}

bool LinearizedEquations::linearize(double t, const Eigen::VectorXd& y, const std::atomic<bool>* cancel,
                                    const Eigen::VectorXd* accelerations) {
  const int nf = static_cast<int>(fd_.freeCoordinates().size());
  Eigen::VectorXd ydot(2 * nf);
  if (!fd_.evaluate(ForwardDynamics::Request::accelerations(t, y.data(), ydot.data()))) {
    error_ = fd_.error();
    return false;
  }
  if (stopped(cancel)) {
    cancelled_ = true;
    error_ = "cancelled";
    return false;
  }
  M_ = fd_.massMatrix();
  a_ = accelerations ? *accelerations : Eigen::VectorXd(ydot.tail(nf));
  // At rest (no velocity at all, not even a prescribed one), the velocity terms of the inertia are
  // quadratic and drop out of C: it is the integrators' analytic tangent damping.
  const bool at_rest = fd_.qd().cwiseAbs().maxCoeff() == 0.0;
  if (at_rest) {
    Eigen::MatrixXd K_t;
    fd_.tangent(K_t, C_);
    const double force_scale = fd_.largestForceTerm();
    const std::optional<RestStiffnessPattern> pattern =
        nf >= kGroupedFrom ? restStiffnessPattern(fd_.system(), fd_.freeCoordinates()) : std::nullopt;
    if (pattern && pattern->passes() < 2 * nf && (M_ * a_).cwiseAbs().maxCoeff() <= kNegligibleInertia * force_scale) {
      bool consistent = false;
      if (!groupedStiffness(t, y, a_, *pattern, K_, consistent, cancel)) return false;
      if (consistent) return true;
    }
  }
  std::vector<int> columns;
  for (int c = 0; c < (at_rest ? nf : 2 * nf); ++c) columns.push_back(c);
  Eigen::MatrixXd J;
  if (!jacobianColumns(t, y, a_, columns, J, cancel)) return false;
  K_ = J.leftCols(nf);
  if (!at_rest) C_ = J.rightCols(nf);
  return true;
}

void LinearizedEquations::restrictTo(const Eigen::MatrixXd& N, const Eigen::MatrixXd& K_lambda) {
  M_ = N.transpose() * M_ * N;
  K_ = N.transpose() * (K_ + K_lambda) * N;
  C_ = N.transpose() * C_ * N;
}

bool LinearizedEquations::analyticStiffness(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& K) {
  const int nf = static_cast<int>(fd_.freeCoordinates().size());
  Eigen::VectorXd ydot(2 * nf);
  if (!fd_.evaluate(ForwardDynamics::Request::accelerations(t, y.data(), ydot.data()))) {
    error_ = fd_.error();
    return false;
  }
  Eigen::MatrixXd C;
  fd_.tangent(K, C);
  return true;
}

bool sparseTangentAt(ForwardDynamics& fd, double t, const double* y, Eigen::SparseMatrix<double>& K,
                     Eigen::SparseMatrix<double>& C) {
  fd.setMassWithoutRunningTerms(true);
  const bool evaluated = fd.evaluate(ForwardDynamics::Request::terms(t, y));
  fd.setMassWithoutRunningTerms(false);
  if (evaluated) fd.tangent(K, C);
  return evaluated;
}

bool LinearizedEquations::analyticStiffness(double t, const Eigen::VectorXd& y, const std::vector<int>& rows, SymmetricSolve& K) {
  Eigen::SparseMatrix<double> K_ff, C_ff;
  if (!sparseTangentAt(fd_, t, y.data(), K_ff, C_ff)) {
    error_ = fd_.error();
    return false;
  }
  // K_t(rows, rows) = P K_t P^T with P the rows' selection.
  Eigen::SparseMatrix<double> P(static_cast<Eigen::Index>(rows.size()), K_ff.rows());
  std::vector<Eigen::Triplet<double>> ones;
  for (std::size_t i = 0; i < rows.size(); ++i) ones.emplace_back(static_cast<int>(i), rows[i], 1.0);
  P.setFromTriplets(ones.begin(), ones.end());
  const Eigen::SparseMatrix<double> K_rows = P * K_ff * P.transpose();
  return K.compute(K_rows) && !K.usesLu();
}

bool LinearizedEquations::stateMatrix(Eigen::MatrixXd& A, const std::atomic<bool>* cancel) {
  const int nf = static_cast<int>(M_.rows());
  const Eigen::LLT<Eigen::MatrixXd> mass(M_);
  if (mass.info() != Eigen::Success) {
    error_ = "the mass matrix of the free coordinates is not positive definite at the state linearized about";
    return false;
  }
  A.setZero(2 * nf, 2 * nf);
  A.topRightCorner(nf, nf).setIdentity();
  // In blocks of columns, so that a large model answers `cancel` between them.
  constexpr int kBlock = 64;
  for (int part = 0; part < 2; ++part) {
    const Eigen::MatrixXd& source = part == 0 ? K_ : C_;
    for (int c = 0; c < nf; c += kBlock) {
      if (stopped(cancel)) {
        cancelled_ = true;
        error_ = "cancelled";
        return false;
      }
      const int w = std::min(kBlock, nf - c);
      A.block(nf, part * nf + c, nf, w) = -mass.solve(source.middleCols(c, w));
    }
  }
  return true;
}

}  // namespace flexarm
