#include "base/SymmetricSolve.hpp"

#include <vector>

namespace flexarm {

bool SymmetricSolve::gatherIntoPattern(const MatrixRef& S) {
  const int n = static_cast<int>(S.rows());
  if (lower_.rows() != n) return false;
  double* values = lower_.valuePtr();
  const int* outer = lower_.outerIndexPtr();
  const int* inner = lower_.innerIndexPtr();
  for (int j = 0; j < n; ++j) {
    const double* column = S.col(j).data();
    int p = outer[j];
    const int end = outer[j + 1];
    for (int i = j; i < n; ++i) {
      if (p < end && inner[p] == i) {
        values[p++] = column[i];
      } else if (column[i] != 0.0) {
        return false;
      }
    }
  }
  return true;
}

void SymmetricSolve::widenPattern(const MatrixRef& S) {
  const int n = static_cast<int>(S.rows());
  std::vector<Eigen::Triplet<double>> entries;  // positions only: the values are S's, set below
  if (lower_.rows() == n)                       // every entry once seen stays, also those that are zero in S now
    for (int j = 0; j < n; ++j)
      for (Sparse::InnerIterator it(lower_, j); it; ++it) entries.emplace_back(static_cast<int>(it.row()), j, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < n; ++i)
      if (S(i, j) != 0.0 || i == j) entries.emplace_back(i, j, 0.0);
  lower_.resize(n, n);
  lower_.setFromTriplets(entries.begin(), entries.end());
  lower_.makeCompressed();
  for (int j = 0; j < n; ++j)
    for (Sparse::InnerIterator it(lower_, j); it; ++it) it.valueRef() = S(it.row(), j);
}

int SymmetricSolve::computeSparse(const MatrixRef& S) {
  const int n = static_cast<int>(S.rows());
  if (n < kSparseFrom || dense_pattern_) return -1;
  if (!gatherIntoPattern(S)) {
    widenPattern(S);
    if (lower_.nonZeros() > kSparseDensity * 0.5 * n * (n + 1.0)) {
      dense_pattern_ = true;
      lower_ = Sparse();
      return -1;
    }
    sparse_llt_.analyzePattern(lower_);
  }
  sparse_llt_.factorize(lower_);
  return sparse_llt_.info() == Eigen::Success ? 1 : 0;
}

bool SymmetricSolve::computeCholesky(const MatrixRef& S) {
  use_lu_ = false;
  use_sparse_ = false;
  const int sparse = computeSparse(S);
  if (sparse >= 0) {
    use_sparse_ = sparse == 1;
    // Every non-zero of the lower triangle, NaN and inf included, is in the pattern: checking its
    // values covers what the factorization read, without another pass over S.
    return use_sparse_ && Eigen::Map<const Eigen::VectorXd>(lower_.valuePtr(), lower_.nonZeros()).allFinite();
  }
  columnwise_ = S.rows() <= kColumnwiseLimit;
  if (!columnwise_) {
    llt_.compute(S);
    return llt_.info() == Eigen::Success;
  }
  factor_ = S;
  // Eigen's own column-by-column Cholesky (LLT uses it below 32 rows): -1 when positive definite.
  return Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(factor_) < 0 && factor_.allFinite();
}

bool SymmetricSolve::compute(const MatrixRef& S) {
  if (computeCholesky(S)) return true;
  use_sparse_ = false;
  use_lu_ = true;
  lu_.compute(S);
  return S.allFinite();  // a singular S shows as non-finite solutions
}

template <typename X>
void SymmetricSolve::solve(X& x) const {
  if (use_lu_) {
    x = lu_.solve(x).eval();
  } else if (use_sparse_) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      work_ = sparse_llt_.solve(x.col(c));
      x.col(c) = work_;
    }
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
