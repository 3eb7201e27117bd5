#include "solvers/ForwardDynamicsRhs.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/Finite.hpp"

namespace flexarm {

int ForwardDynamicsRhs::rhs(double t, const double* y, double* ydot) { return evaluate(t, y, ydot, true); }

int ForwardDynamicsRhs::evaluate(double t, const double* y, double* ydot, bool without_mass) {
  for (int k = 0; k < fd_.stateSize(); ++k)
    if (!std::isfinite(y[k])) return 1;  // recoverable: the integrator retries with a smaller step
  if (fd_.evaluate(ForwardDynamics::Request::accelerations(t, y, ydot, without_mass))) return 0;
  return fd_.error().find("not positive definite") != std::string::npos ? -1 : 1;
}

int ForwardDynamicsRhs::jacobian(double t, const double* y, Eigen::Map<Eigen::MatrixXd> J) {
  ydot_.resize(fd_.stateSize());
  const int r = evaluate(t, y, ydot_.data(), false);  // the tangent and M^-1 at this state
  if (r != 0) return r;
  const int nf = fd_.stateSize() / 2;
  fd_.tangent(K_, C_);
  fd_.solveMass(K_);
  fd_.solveMass(C_);
  J.setZero();
  J.topRightCorner(nf, nf).setIdentity();
  J.bottomLeftCorner(nf, nf) = -K_;
  J.bottomRightCorner(nf, nf) = -C_;
  have_jacobian_ = false;  // K_ and C_ now hold M^-1 K_t, M^-1 C_t
  return J.allFinite() ? 0 : 1;
}

void ForwardDynamicsRhs::evaluateMatrixTerms(double t, const double* y, bool second_order) {
  const bool banded = second_order && !whole_mass_ && fd_.stateSize() / 2 >= kBandedMassFrom &&
                      fd_.system().coupling == CouplingOrder::High && !fd_.system().isRigid();
  fd_.setMassWithoutRunningTerms(banded);
  banded_ = banded;
  split_ = banded && fd_.foreshorteningColumns() > 0;
  fd_.setForeshorteningColumns(split_);
  fd_.evaluate(ForwardDynamics::Request::terms(t, y));
  fd_.setMassWithoutRunningTerms(false);
  fd_.setForeshorteningColumns(false);
  if (!split_) return;
  fd_.splitMass(split_mass_);
  const Eigen::MatrixXd& G = split_mass_.G;
  const int nf = static_cast<int>(G.rows()), L = static_cast<int>(G.cols());
  // G M~_xs^T + M~_xs G^T + G M~_ss G^T = G P^T + P G^T with P = M~_xs + G M~_ss / 2: U = [G P]
  split_U_.resize(nf, 2 * L);
  split_U_.leftCols(L) = G;
  split_U_.rightCols(L) = split_mass_.M_xs;
  split_U_.rightCols(L).noalias() += 0.5 * G * split_mass_.M_ss;
  split_C_.setZero(2 * L, 2 * L);
  split_C_.topRightCorner(L, L).setIdentity();
  split_C_.bottomLeftCorner(L, L).setIdentity();
}

int ForwardDynamicsRhs::evaluateIterationMatrices(double t, const double* y) { return evaluateMatrices(t, y, true); }

int ForwardDynamicsRhs::evaluateMatrices(double t, const double* y, bool second_order) {
  for (int k = 0; k < fd_.stateSize(); ++k)
    if (!std::isfinite(y[k])) return 1;
  evaluateMatrixTerms(t, y, second_order);
  int r = takeMatrices();
  if (r == -2) {  // split, but not sparse: the whole M
    evaluateMatrixTerms(t, y, second_order);
    r = takeMatrices();
  }
  if (r != 0 || !banded_ || sparse_) return r;
  // M without its running-integral terms only where the dense path's factorization profits from the
  // band (an envelope one; several links' couplings can fill it): tried on the iteration matrix of a
  // millisecond's step (every step's has its pattern); else the whole M from now on, at once.
  factorIteration(1e-3, 1e-6);
  if (!whole_mass_) return 0;
  evaluateMatrixTerms(t, y, second_order);
  return takeMatrices();
}

// A = M by its non-zeros (NaN and inf included), read only in `regions` when they are known.
void ForwardDynamicsRhs::sparseCopy(const Eigen::Ref<const Eigen::MatrixXd>& M, const std::vector<MatrixRegion>* regions,
                                    Eigen::SparseMatrix<double>& A) {
  if (!regions) {
    A = M.sparseView();
    return;
  }
  const int n = static_cast<int>(M.rows());
  entries_.clear();
  auto take = [&](int i, int j) {
    if (i >= 0 && j >= 0 && i < n && j < n && M(i, j) != 0.0) entries_.emplace_back(i, j, M(i, j));
  };
  for (const MatrixRegion& r : *regions) {
    if (r.pattern) {
      for (int c = 0; c < r.pattern->outerSize(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*r.pattern, c); it; ++it)
          take(r.row + static_cast<int>(it.row()), r.col + c);
      continue;
    }
    for (int j = std::max(r.col, 0); j < std::min(r.col + r.cols, n); ++j)
      for (int i = std::max(r.row, 0); i < std::min(r.row + r.rows, n); ++i) take(i, j);
  }
  A.resize(n, n);
  // Regions may overlap: an entry seen twice is the same entry of M.
  A.setFromTriplets(entries_.begin(), entries_.end(), [](double first, double) { return first; });
}

int ForwardDynamicsRhs::takeMatrices() {
  const auto M = fd_.massMatrix();
  const Eigen::Index n = M.rows();
  sparse_ = !too_full_ && (n >= SymmetricSolve::kSparseFrom || split_);  // the split is solved from sparse matrices
  if (sparse_) {
    sparseCopy(M, fd_.massRegions(), Ms_);
    fd_.tangent(Ks_, Cs_);
    Ss_ = Ms_ + Ks_ + Cs_;  // the union of their patterns
    too_full_ = Ss_.nonZeros() > SymmetricSolve::kSparseDensity * static_cast<double>(n * n);
    sparse_ = !too_full_;
  }
  if (split_ && !sparse_) {  // the split needs the sparse path: the whole M from now on
    split_ = false;
    whole_mass_ = true;
    return -2;
  }
  // Finite exactly when M, K_t and C_t all are (inf - inf and NaN give NaN): the sum, in one pass.
  if (sparse_) {
    have_jacobian_ =
        allFinite(Eigen::Map<const Eigen::VectorXd>(Ss_.valuePtr(), Ss_.nonZeros())) && (!split_ || allFinite(split_U_));
  } else {
    M_ = M;
    fd_.tangent(K_, C_);
    have_jacobian_ = allFinite(M_ + K_ + C_);
  }
  return have_jacobian_ ? 0 : 1;
}

int ForwardDynamicsRhs::factorIteration(double c_v, double c_q) {
  if (!have_jacobian_) return -1;
  if (sparse_) {
    Ss_ = Ms_ + c_v * Cs_ + c_q * Ks_;
    if (split_ && split_mass_.running_count > 0) {  // with the running terms' unknowns beside the coordinates
      const int n = static_cast<int>(Ss_.rows());
      entries_.assign(split_mass_.running.begin(), split_mass_.running.end());
      for (int c = 0; c < n; ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(Ss_, c); it; ++it)
          entries_.emplace_back(static_cast<int>(it.row()), c, it.value());
      split_system_.resize(n + split_mass_.running_count, n + split_mass_.running_count);
      split_system_.setFromTriplets(entries_.begin(), entries_.end());
      return split_solve_.compute(split_system_, split_U_, split_C_, &split_mass_.running_place) ? 0 : 1;
    }
    if (split_) return split_solve_.compute(Ss_, split_U_, split_C_) ? 0 : 1;
    return solve_.compute(Ss_) ? 0 : 1;
  }
  S_.noalias() = M_ + c_v * C_ + c_q * K_;  // one fused pass
  const bool ok = solve_.compute(S_);
  if (banded_ && !solve_.usesProfile()) whole_mass_ = true;  // see evaluateMatrices()
  return ok ? 0 : 1;
}

int ForwardDynamicsRhs::solveIteration(double* x) {
  Eigen::Map<Eigen::VectorXd> v(x, fd_.stateSize() / 2);
  if (split_)
    split_solve_.solveInPlace(v);
  else
    solve_.solveInPlace(v);
  return v.allFinite() ? 0 : 1;
}

int ForwardDynamicsRhs::accelerationResidual(double t, const double* y, const double* a, double* r, bool matrices) {
  for (int k = 0; k < fd_.stateSize(); ++k)
    if (!std::isfinite(y[k])) return 1;
  const int nf = fd_.stateSize() / 2;
  Eigen::Map<Eigen::VectorXd> res(r, nf);
  if (!matrices && fd_.abilities().mass_free_residual) {
    fd_.evaluate(ForwardDynamics::Request::residual(t, y, a, r));
    return res.allFinite() ? 0 : 1;
  }
  fd_.evaluate(ForwardDynamics::Request::terms(t, y));
  const Eigen::Map<const Eigen::VectorXd> acc(a, nf);
  const std::vector<MatrixRegion>* regions = sparse_ ? fd_.massRegions() : nullptr;
  if (regions) {  // M a by the non-zeros this evaluation wrote (geometric coupling of a fine mesh)
    sparseCopy(fd_.massMatrix(), regions, M_residual_);
    res.noalias() = M_residual_ * acc;
  } else {
    res.noalias() = fd_.massMatrix() * acc;
  }
  res -= fd_.residualForce();
  if (!res.allFinite()) return 1;
  if (!matrices) return 0;
  banded_ = split_ = false;  // the residual's whole M
  return takeMatrices();
}

int ForwardDynamicsRhs::setupNewton(double t, const double* y, double gamma, bool jacobian_ok, bool* evaluated) {
  *evaluated = false;
  if (!jacobian_ok || !have_jacobian_) {
    const int r = evaluateMatrices(t, y, false);
    if (r != 0) return r;
    *evaluated = true;
  }
  gamma_ = gamma;
  return factorIteration(gamma, gamma * gamma);
}

int ForwardDynamicsRhs::solveNewton(double* x) {
  const int nf = fd_.stateSize() / 2;
  Eigen::Map<Eigen::VectorXd> xq(x, nf), xv(x + nf, nf);
  if (sparse_) {
    rhs_v_.noalias() = Ms_ * xv;
    rhs_v_.noalias() -= gamma_ * (Ks_ * xq);
  } else {
    rhs_v_.noalias() = M_ * xv;
    rhs_v_.noalias() -= gamma_ * (K_ * xq);
  }
  solve_.solveInPlace(rhs_v_);
  xv = rhs_v_;
  xq += gamma_ * xv;
  return xv.allFinite() && xq.allFinite() ? 0 : 1;
}

}  // namespace flexarm
