#include "base/SymmetricSolve.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/Finite.hpp"

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

bool SymmetricSolve::inPattern(int i, int j) const {
  const int* inner = lower_.innerIndexPtr();
  const int* begin = inner + lower_.outerIndexPtr()[j];
  const int* end = inner + lower_.outerIndexPtr()[j + 1];
  return std::binary_search(begin, end, i);
}

bool SymmetricSolve::gatherIntoPattern(const MatrixRef& S, const std::vector<MatrixRegion>& regions) {
  const int n = static_cast<int>(S.rows());
  if (lower_.rows() != n) return false;
  double* values = lower_.valuePtr();
  const int* outer = lower_.outerIndexPtr();
  const int* inner = lower_.innerIndexPtr();
  for (int j = 0; j < n; ++j) {
    const double* column = S.col(j).data();
    for (int p = outer[j]; p < outer[j + 1]; ++p) values[p] = column[inner[p]];
  }
  // A non-zero of the lower triangle outside the pattern can only be in a region.
  for (const MatrixRegion& r : regions) {
    if (r.pattern) {
      for (int c = 0; c < r.pattern->outerSize(); ++c)
        for (Sparse::InnerIterator it(*r.pattern, c); it; ++it) {
          const int i = r.row + static_cast<int>(it.row()), j = r.col + c;
          if (i >= j && j >= 0 && i < n && S(i, j) != 0.0 && !inPattern(i, j)) return false;
        }
      continue;
    }
    const int c0 = std::max(r.col, 0), c1 = std::min(r.col + r.cols, n);
    for (int j = c0; j < c1; ++j) {
      const double* column = S.col(j).data();
      int p = outer[j];
      const int end = outer[j + 1];
      for (int i = std::max(r.row, j), i1 = std::min(r.row + r.rows, n); i < i1; ++i) {
        while (p < end && inner[p] < i) ++p;
        if (column[i] != 0.0 && !(p < end && inner[p] == i)) return false;
      }
    }
  }
  return true;
}

bool SymmetricSolve::gatherIntoPattern(const Sparse& S) {
  const int n = static_cast<int>(S.rows());
  if (lower_.rows() != n) return false;
  double* values = lower_.valuePtr();
  const int* outer = lower_.outerIndexPtr();
  const int* inner = lower_.innerIndexPtr();
  std::fill(values, values + lower_.nonZeros(), 0.0);  // pattern entries that S does not store
  for (int j = 0; j < n; ++j) {
    int p = outer[j];
    const int end = outer[j + 1];
    for (Sparse::InnerIterator it(S, j); it; ++it) {
      const int i = static_cast<int>(it.row());
      if (i < j) continue;
      while (p < end && inner[p] < i) ++p;
      if (p < end && inner[p] == i)
        values[p] = it.value();
      else if (it.value() != 0.0)
        return false;
    }
  }
  return true;
}

void SymmetricSolve::widenPattern(const Sparse& S) {
  const int n = static_cast<int>(S.rows());
  std::vector<Eigen::Triplet<double>> entries;
  if (lower_.rows() == n)
    for (int j = 0; j < n; ++j)
      for (Sparse::InnerIterator it(lower_, j); it; ++it) entries.emplace_back(static_cast<int>(it.row()), j, 0.0);
  for (int j = 0; j < n; ++j) {
    entries.emplace_back(j, j, 0.0);
    for (Sparse::InnerIterator it(S, j); it; ++it)
      if (it.row() > j && it.value() != 0.0) entries.emplace_back(static_cast<int>(it.row()), j, 0.0);
  }
  lower_.resize(n, n);
  lower_.setFromTriplets(entries.begin(), entries.end());
  lower_.makeCompressed();
  gatherIntoPattern(S);  // every nonzero of S is in the pattern now
}

bool SymmetricSolve::acceptWidenedPattern() {
  const double n = static_cast<double>(lower_.rows());
  if (lower_.nonZeros() > kSparseDensity * 0.5 * n * (n + 1.0)) {
    dense_pattern_ = true;
    lower_ = Sparse();
    return false;
  }
  sparse_llt_.analyzePattern(lower_);
  return true;
}

int SymmetricSolve::computeSparse(const MatrixRef& S) {
  const int n = static_cast<int>(S.rows());
  if (n < kSparseFrom || dense_pattern_) return -1;
  if (!gatherIntoPattern(S)) {
    widenPattern(S);
    if (!acceptWidenedPattern()) return -1;
  }
  sparse_llt_.factorize(lower_);
  return sparse_llt_.info() == Eigen::Success ? 1 : 0;
}

int SymmetricSolve::computeProfile(const MatrixRef& S) {
  const int n = static_cast<int>(S.rows());
  if (n < kProfileFrom) return -1;
  // One scan of the lower triangle, column by column: each row's first non-zero column (the natural
  // order's envelope) and each column's last non-zero row (the reversed order's: its row n - 1 - j).
  // Both are final once found (the columns come in order), so the costs summed over what is found
  // only grow. When the reversed order's exceeds the bound, the natural one's so far is summed once:
  // a dense matrix stops there, after about four of its columns.
  first_.resize(static_cast<std::size_t>(n));
  last_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) first_[i] = i;
  const double nd = n, bound = nd * nd * nd / 12.0;
  double reversed = 0.0;
  bool natural_checked = false;
  for (int j = 0; j < n; ++j) {
    const double* column = S.col(j).data();
    int last = j;
    for (int i = j + 1; i < n; ++i)
      if (column[i] != 0.0) {
        last = i;
        first_[i] = std::min(first_[i], j);
      }
    last_[j] = last;
    reversed += static_cast<double>(last - j) * (last - j);
    if (reversed > bound && !natural_checked) {
      natural_checked = true;
      double natural_so_far = 0.0;
      for (int i = 0; i < n; ++i) natural_so_far += static_cast<double>(i - first_[i]) * (i - first_[i]);
      if (natural_so_far > bound) return -1;
    }
  }
  double natural = 0.0;
  for (int i = 0; i < n; ++i) natural += static_cast<double>(i - first_[i]) * (i - first_[i]);
  if (std::min(natural, reversed) > bound) return -1;
  profile_reversed_ = reversed < natural;
  if (profile_reversed_)
    for (int i = 0; i < n; ++i) first_[i] = n - 1 - last_[n - 1 - i];
  row_start_.resize(static_cast<std::size_t>(n));
  std::size_t size = 0;
  for (int i = 0; i < n; ++i) {
    row_start_[i] = size;
    size += static_cast<std::size_t>(i - first_[i] + 1);
  }
  profile_.assign(size, 0.0);  // the envelope's zeros
  double* L = profile_.data();
  // Entry (i, j), j <= i, of the factor's row i is at L[row_start_[i] + j - first_[i]].
  for (int j = 0; j < n; ++j) {
    const double* column = S.col(j).data();  // rows j .. last_[j] of the lower triangle
    if (profile_reversed_) {
      const int i = n - 1 - j;  // this column is row i, entry (i, n - 1 - r) at its row r
      for (int r = j; r <= last_[j]; ++r) L[row_start_[i] + (n - 1 - r) - first_[i]] = column[r];
    } else {
      for (int r = j; r <= last_[j]; ++r)
        if (column[r] != 0.0) L[row_start_[r] + j - first_[r]] = column[r];  // then j >= first_[r]
    }
  }
  // Row by row: L(i, j) = (S(i, j) - sum_k L(i, k) L(j, k)) / L(j, j) over the columns both rows hold;
  // the diagonal is kept as 1 / L(i, i) (products instead of divisions, here and in the solves).
  inverse_diagonal_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    double* Li = L + row_start_[i];
    const int fi = first_[i];
    for (int j = fi; j < i; ++j) {
      const double* Lj = L + row_start_[j];
      const int fj = first_[j], k0 = std::max(fi, fj);
      double sum = Li[j - fi];
      for (int k = k0; k < j; ++k) sum -= Li[k - fi] * Lj[k - fj];
      Li[j - fi] = sum * inverse_diagonal_[j];
    }
    double diagonal = Li[i - fi];
    for (int k = fi; k < i; ++k) diagonal -= Li[k - fi] * Li[k - fi];
    if (!(diagonal > 0.0) || !std::isfinite(diagonal)) return 0;  // not positive definite, NaN or inf
    inverse_diagonal_[i] = 1.0 / std::sqrt(diagonal);
  }
  return 1;
}

void SymmetricSolve::solveProfile(double* x) const {
  const int n = static_cast<int>(first_.size());
  if (profile_reversed_) std::reverse(x, x + n);
  for (int i = 0; i < n; ++i) {  // L y = b
    const int fi = first_[i];
    const double* row = profile_.data() + row_start_[i] - fi;  // row[k], k in [fi, i]
    double sum = x[i];
    for (int k = fi; k < i; ++k) sum -= row[k] * x[k];
    x[i] = sum * inverse_diagonal_[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T x = y, by the rows of L
    const int fi = first_[i];
    const double* row = profile_.data() + row_start_[i] - fi;
    const double xi = x[i] * inverse_diagonal_[i];
    x[i] = xi;
    for (int k = fi; k < i; ++k) x[k] -= row[k] * xi;
  }
  if (profile_reversed_) std::reverse(x, x + n);
}

bool SymmetricSolve::compute(const Sparse& S) {
  if (!S.isCompressed()) return compute(Sparse(S).pruned(0.0));  // pruned() compresses
  if (!Eigen::Map<const Eigen::VectorXd>(S.valuePtr(), S.nonZeros()).allFinite()) return false;
  use_lu_ = false;
  use_sparse_ = false;
  use_profile_ = false;
  if (S.rows() >= kSparseFrom && !dense_pattern_) {
    bool ready = gatherIntoPattern(S);
    if (!ready) {
      widenPattern(S);
      ready = acceptWidenedPattern();
    }
    if (ready) {
      sparse_llt_.factorize(lower_);
      use_sparse_ = sparse_llt_.info() == Eigen::Success;
      if (use_sparse_) return true;
    }
  }
  const Eigen::MatrixXd dense(S);  // small, too full, or not positive definite (then the LU)
  return compute(dense);
}

bool SymmetricSolve::computeCholesky(const MatrixRef& S) {
  use_lu_ = false;
  use_sparse_ = false;
  use_profile_ = false;
  const int sparse = computeSparse(S);
  if (sparse >= 0) {
    use_sparse_ = sparse == 1;
    // Every non-zero of the lower triangle, NaN and inf included, is in the pattern: checking its
    // values covers what the factorization read, without another pass over S.
    return use_sparse_ && Eigen::Map<const Eigen::VectorXd>(lower_.valuePtr(), lower_.nonZeros()).allFinite();
  }
  if (const int profile = computeProfile(S); profile >= 0) {
    use_profile_ = profile == 1;  // a NaN or an inf anywhere in the lower triangle reaches a diagonal
    return use_profile_;
  }
  columnwise_ = S.rows() <= kColumnwiseLimit;
  if (!columnwise_) {
    llt_.compute(S);
    return llt_.info() == Eigen::Success;
  }
  factor_ = S;
  // Eigen's own column-by-column Cholesky (LLT uses it below 32 rows): -1 when positive definite.
  return Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(factor_) < 0 && allFinite(factor_);
}

bool SymmetricSolve::computeCholesky(const MatrixRef& S, const std::vector<MatrixRegion>& regions) {
  if (S.rows() >= kSparseFrom && !dense_pattern_ && gatherIntoPattern(S, regions)) {
    use_lu_ = false;
    use_profile_ = false;
    sparse_llt_.factorize(lower_);
    use_sparse_ = sparse_llt_.info() == Eigen::Success;
    return use_sparse_ && Eigen::Map<const Eigen::VectorXd>(lower_.valuePtr(), lower_.nonZeros()).allFinite();
  }
  return computeCholesky(S);  // a new non-zero, or not the sparse path: the whole matrix
}

bool SymmetricSolve::compute(const MatrixRef& S) {
  if (computeCholesky(S)) return true;
  use_sparse_ = false;
  use_profile_ = false;
  use_lu_ = true;
  lu_.compute(S);
  return S.allFinite();  // a singular S shows as non-finite solutions
}

template <typename X>
void SymmetricSolve::solve(X& x) const {
  if (use_lu_) {
    x = lu_.solve(x).eval();
  } else if (use_profile_) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) solveProfile(x.col(c).data());  // columns are contiguous
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

long SymmetricSolve::factorNonZeros() const {
  if (use_sparse_) return static_cast<long>(sparse_llt_.matrixL().nestedExpression().nonZeros());
  if (use_profile_) return static_cast<long>(profile_.size());
  const long n = use_lu_       ? static_cast<long>(lu_.rows())
                 : columnwise_ ? static_cast<long>(factor_.rows())
                               : static_cast<long>(llt_.rows());
  return n * n;
}

void SymmetricSolve::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const { solve(x); }
void SymmetricSolve::solveColumnsInPlace(Eigen::Ref<Eigen::MatrixXd> x) const { solve(x); }

}  // namespace flexarm
