#include "base/LowRankUpdatedSolve.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace flexarm {

namespace {
// The order of the LU: each unknown at its key (a coordinate at its index, an extra unknown just after the
// coordinate it sits beside), the rows with more than four times the median's non-zeros last. Returns
// how many those are (the border).
int bandedOrder(const SymmetricSolve::Sparse& A, int n, const std::vector<int>* place,
                Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>& order) {
  const int N = static_cast<int>(A.rows());
  std::vector<int> count(static_cast<std::size_t>(N));
  for (int c = 0; c < N; ++c)
    count[static_cast<std::size_t>(c)] = static_cast<int>(A.outerIndexPtr()[c + 1] - A.outerIndexPtr()[c]);
  std::vector<int> sorted = count;
  std::nth_element(sorted.begin(), sorted.begin() + N / 2, sorted.end());
  const int border = 4 * std::max(sorted[static_cast<std::size_t>(N / 2)], 1);
  std::vector<std::pair<double, int>> keys;
  int in_border = 0;
  for (int i = 0; i < N; ++i) {
    double key =
        i < n ? i
              : (place && static_cast<std::size_t>(i - n) < place->size() ? (*place)[static_cast<std::size_t>(i - n)] + 0.5 : i);
    if (count[static_cast<std::size_t>(i)] > border) key += 2.0 * N, ++in_border;
    keys.emplace_back(key, i);
  }
  std::stable_sort(keys.begin(), keys.end());
  order.resize(N);
  for (int k = 0; k < N; ++k) order.indices()[keys[static_cast<std::size_t>(k)].second] = k;
  return in_border;
}
}  // namespace

bool LowRankUpdatedSolve::compute(const SymmetricSolve::Sparse& A, const Eigen::MatrixXd& U, const Eigen::MatrixXd& C,
                                  const std::vector<int>* place) {
  const Eigen::Index n = U.rows();
  extended_ = A.rows() > n;
  if (extended_) {
    if (!Eigen::Map<const Eigen::VectorXd>(A.valuePtr(), A.nonZeros()).allFinite()) return false;
    const int border = bandedOrder(A, static_cast<int>(n), place, order_);
    ordered_ = A.twistedBy(order_);
    banded_ = band_.compute(ordered_, border);
    if (!banded_) {  // a wider band, or a band singular without its border: the general LU
      lu_.isSymmetric(true);
      lu_.setPivotThreshold(1e-2);  // the diagonal where it is not too small: the band kept
      lu_.compute(ordered_);
      if (lu_.info() != Eigen::Success) return false;
    }
  } else if (!base_.compute(A)) {  // a Cholesky, or the LU where A is not positive definite
    return false;
  }
  U_ = U;
  CUt_.noalias() = C * U.transpose();
  Z_.resize(n, U.cols());
  for (Eigen::Index c = 0; c < U.cols(); ++c) {
    Z_.col(c) = U.col(c);
    solveBase(Z_.col(c));
  }
  const Eigen::Index r = U.cols();
  Eigen::MatrixXd K = Eigen::MatrixXd::Identity(r, r);
  K.noalias() += CUt_ * Z_;
  if (!K.allFinite() || !Z_.allFinite()) return false;
  capacitance_.compute(K);
  // The LU's reciprocal condition: a singular capacitance means a singular S.
  return r == 0 || capacitance_.rcond() > 1e-14;
}

void LowRankUpdatedSolve::solveBase(Eigen::Ref<Eigen::VectorXd> x) const {
  if (!extended_) {
    base_.solveInPlace(x);
    return;
  }
  padded_.setZero(ordered_.rows());
  padded_.head(x.size()) = x;
  padded_ = order_ * padded_;
  if (banded_)
    band_.solveInPlace(padded_);
  else
    padded_ = lu_.solve(padded_).eval();
  padded_ = order_.transpose() * padded_;
  x = padded_.head(x.size());
}

void LowRankUpdatedSolve::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const {
  solveBase(x);
  if (U_.cols() == 0) return;
  y_.noalias() = CUt_ * x;
  y_ = capacitance_.solve(y_).eval();
  x.noalias() -= Z_ * y_;
}

long LowRankUpdatedSolve::factorNonZeros() const {
  if (extended_) return banded_ ? band_.factorNonZeros() : static_cast<long>(lu_.nnzL() + lu_.nnzU());
  return base_.factorNonZeros();
}

}  // namespace flexarm
