#include "base/BorderedBandSolve.hpp"

#include <algorithm>
#include <cmath>

namespace flexarm {

bool BorderedBandSolve::compute(const Eigen::SparseMatrix<double>& A, int border) {
  const int n = static_cast<int>(A.rows());
  if (A.cols() != n || border < 0 || border > kMaxBorder || border >= n) return false;
  nb_ = n - border;
  k_ = border;
  // The band of B, from the pattern.
  int w = 0;
  for (int c = 0; c < nb_; ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, c); it; ++it)
      if (it.row() < nb_) w = std::max(w, std::abs(static_cast<int>(it.row()) - c));
  if (w > kMaxBandwidth) return false;
  w_ = w;
  kv_ = 2 * w;  // U's band with the interchanges' fill
  ld_ = static_cast<std::size_t>(kv_ + w + 1);
  band_.assign(ld_ * static_cast<std::size_t>(nb_), 0.0);
  W_.setZero(nb_, k_);
  F_.setZero(k_, nb_);
  Eigen::MatrixXd& D = D_;
  D.setZero(k_, k_);
  for (int c = 0; c < n; ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, c); it; ++it) {
      const int r = static_cast<int>(it.row());
      const double v = it.value();
      if (!std::isfinite(v)) return false;
      if (c < nb_)
        (r < nb_ ? at(r, c) : F_(r - nb_, c)) = v;
      else
        (r < nb_ ? W_(r, c - nb_) : D(r - nb_, c - nb_)) = v;  // W_ holds E until it is solved
    }
  // B = P L U, unblocked (dgbtf2): in column j the pivot among rows j .. j + w, the swap over the
  // columns U reaches so far, the multipliers, the update of those columns.
  pivot_.resize(static_cast<std::size_t>(nb_));
  int ju = 0;  // the last column U reaches
  for (int j = 0; j < nb_; ++j) {
    const int km = std::min(w_, nb_ - 1 - j);
    int p = j;
    double best = std::abs(at(j, j));
    for (int i = j + 1; i <= j + km; ++i)
      if (std::abs(at(i, j)) > best) best = std::abs(at(i, j)), p = i;
    pivot_[static_cast<std::size_t>(j)] = p;
    if (!(best > 0.0)) return false;  // B singular: the general solver
    ju = std::max(ju, std::min(p + w_, nb_ - 1));
    if (p != j)
      for (int c = j; c <= ju; ++c) std::swap(at(j, c), at(p, c));
    const double inverse = 1.0 / at(j, j);
    for (int i = j + 1; i <= j + km; ++i) at(i, j) *= inverse;
    for (int c = j + 1; c <= ju; ++c) {
      const double f = at(j, c);
      if (f == 0.0) continue;
      for (int i = j + 1; i <= j + km; ++i) at(i, c) -= at(i, j) * f;
    }
  }
  // The border: W = B^-1 E and S = D - F W.
  for (int c = 0; c < k_; ++c) solveBand(W_.col(c).data());
  if (k_ > 0) {
    D.noalias() -= F_ * W_;
    if (!D.allFinite() || !W_.allFinite()) return false;
    schur_.compute(D);
    if (!(schur_.rcond() > 1e-14)) return false;
  }
  return true;
}

void BorderedBandSolve::solveBand(double* x) const {
  using Column = Eigen::Map<const Eigen::VectorXd>;
  using Part = Eigen::Map<Eigen::VectorXd>;
  for (int j = 0; j < nb_; ++j) {  // L, with the interchanges in their order
    const int p = pivot_[static_cast<std::size_t>(j)];
    if (p != j) std::swap(x[j], x[p]);
    const int km = std::min(w_, nb_ - 1 - j);
    if (x[j] != 0.0 && km > 0) Part(x + j + 1, km).noalias() -= x[j] * Column(&at(j + 1, j), km);
  }
  for (int j = nb_ - 1; j >= 0; --j) {  // U
    x[j] /= at(j, j);
    const int i0 = std::max(0, j - kv_);
    if (x[j] != 0.0 && j > i0) Part(x + i0, j - i0).noalias() -= x[j] * Column(&at(i0, j), j - i0);
  }
}

void BorderedBandSolve::solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const {
  auto x1 = x.head(nb_);
  solveBand(x1.data());
  if (k_ == 0) return;
  x2_ = x.tail(k_);
  x2_.noalias() -= F_ * x1;
  x2_ = schur_.solve(x2_).eval();
  x1.noalias() -= W_ * x2_;
  x.tail(k_) = x2_;
}

long BorderedBandSolve::factorNonZeros() const {
  return static_cast<long>(ld_) * nb_ + 2L * nb_ * k_ + static_cast<long>(k_) * k_;
}

}  // namespace flexarm
