#include "base/SymmetricSolve.hpp"

namespace flexarm {

bool SymmetricSolve::computeCholesky(const Eigen::MatrixXd& S) {
  use_lu_ = false;
  columnwise_ = S.rows() <= kColumnwiseLimit;
  if (!columnwise_) {
    llt_.compute(S);
    return llt_.info() == Eigen::Success;
  }
  factor_ = S;
  // Eigen's own column-by-column Cholesky (LLT uses it below 32 rows): -1 when positive definite.
  return Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(factor_) < 0 && factor_.allFinite();
}

bool SymmetricSolve::compute(const Eigen::MatrixXd& S) {
  if (computeCholesky(S)) return true;
  use_lu_ = true;
  lu_.compute(S);
  return S.allFinite();  // a singular S shows as non-finite solutions
}

template <typename X>
void SymmetricSolve::solve(X& x) const {
  if (use_lu_) {
    x = lu_.solve(x).eval();
  } else if (columnwise_) {
    const auto L = factor_.triangularView<Eigen::Lower>();
    L.solveInPlace(x);
    L.adjoint().solveInPlace(x);
  } else {
    llt_.solveInPlace(x);
  }
}

void SymmetricSolve::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const { solve(x); }
void SymmetricSolve::solveColumnsInPlace(Eigen::Ref<Eigen::MatrixXd> x) const { solve(x); }

}  // namespace flexarm
