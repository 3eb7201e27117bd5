#pragma once
// Solves A x = b for a sparse square A whose leading nb = n - k unknowns form a band (|i - j| <= w there)
// and whose last k unknowns (the border) couple to any of them:
//   A = [B E; F D],  B banded (nb x nb),  E nb x k,  F k x nb,  D k x k.
// B is factorized by Gaussian elimination with partial pivoting inside its band (LAPACK's dgbtf2: the
// row interchanges stay within w rows, so U's band grows to 2 w), the border by its Schur complement
// S = D - F B^-1 E (dense, k x k, partial pivoting):
//   x_1 = B^-1 b_1,  x_2 = S^-1 (b_2 - F x_1),  x_1 -= (B^-1 E) x_2.
// A factorization costs O(nb w^2 + nb w k + k^3), a solve O(nb (w + k)): for the iteration matrices of
// finely meshed links (LowRankUpdatedSolve.hpp: w = 11 to 16 for spatial Hermite elements, k the joints and
// the links' distal coordinates) a fifth of a general sparse LU's, without its symbolic work. Exact up
// to round-off; B must itself be nonsingular (a zero pivot, or a band or border wider than the limits
// below, fails compute(), and the caller takes a general solver).
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <vector>

namespace flexarm {

class BorderedBandSolve {
 public:
  static constexpr int kMaxBandwidth = 40;
  static constexpr int kMaxBorder = 64;
  // Factorizes A (column-major, any pattern) with its last `border` unknowns as the border. False when
  // B's band is wider than kMaxBandwidth, the border larger than kMaxBorder, a value is not finite, or B
  // or S is singular to working precision.
  bool compute(const Eigen::SparseMatrix<double>& A, int border);
  // x <- A^-1 x.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const;
  // The stored factors' entries: the band of L and U, B^-1 E and F (for the tests: linear in nb).
  long factorNonZeros() const;
  int bandwidth() const { return w_; }

 private:
  double& at(int i, int j) { return band_[static_cast<std::size_t>(j) * ld_ + (kv_ + i - j)]; }
  const double& at(int i, int j) const { return band_[static_cast<std::size_t>(j) * ld_ + (kv_ + i - j)]; }
  void solveBand(double* x) const;  // x <- B^-1 x (nb values)
  int nb_ = 0, k_ = 0, w_ = 0, kv_ = 0;
  std::size_t ld_ = 0;
  std::vector<double> band_;   // column j holds rows j - kv_ .. j + w_ (LAPACK's band storage with fill)
  std::vector<int> pivot_;     // the row each elimination step swapped in
  Eigen::MatrixXd W_, F_, D_;  // B^-1 E, F, and D, then S
  Eigen::PartialPivLU<Eigen::MatrixXd> schur_;
  mutable Eigen::VectorXd x2_;  // work memory of a solve
};

}  // namespace flexarm
