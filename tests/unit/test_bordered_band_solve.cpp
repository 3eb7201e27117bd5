// The bordered band solver (base/BorderedBandSolve.hpp) against Eigen's dense LU: a band that needs its
// row interchanges (zero diagonal entries, an indefinite block like the running-integral unknowns'),
// with and without a border, and the cases it declines (a band too wide, a band singular without its
// border) so that the caller takes a general solver.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <array>
#include <limits>
#include <random>
#include <vector>

#include "base/BorderedBandSolve.hpp"

using namespace flexarm;

namespace {

// n unknowns, the first n - k within half-bandwidth w (every other diagonal entry zero), the last k
// coupled to every other one. Nonsingular with probability one.
Eigen::MatrixXd borderedBand(int n, int w, int k, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  const int nb = n - k;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const bool in_band = i < nb && j < nb && std::abs(i - j) <= w;
      const bool in_border = i >= nb || j >= nb;
      if (in_band || in_border) A(i, j) = u(gen);
    }
  for (int i = 0; i < nb; i += 2) A(i, i) = 0.0;  // only the interchanges find the pivots there
  return A;
}

}  // namespace

TEST(BorderedBandSolve, EqualsTheDenseLuWithInterchangesAndABorder) {
  for (const auto& [n, w, k] : std::vector<std::array<int, 3>>{{40, 3, 0}, {60, 5, 4}, {200, 11, 15}, {16, 1, 10}}) {
    const Eigen::MatrixXd A = borderedBand(n, w, k, static_cast<unsigned>(n + w + k));
    const Eigen::SparseMatrix<double> S = A.sparseView();
    BorderedBandSolve solve;
    ASSERT_TRUE(solve.compute(S, k)) << n << " " << w << " " << k;
    EXPECT_EQ(solve.bandwidth(), w);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0).array().sin();
    Eigen::VectorXd x = b;
    solve.solveInPlace(x);
    const Eigen::VectorXd dense = A.partialPivLu().solve(b);
    EXPECT_LE((x - dense).norm(), 1e-11 * dense.norm()) << n << " " << w << " " << k;
    EXPECT_LE((A * x - b).norm(), 1e-11 * b.norm());
    // Its stored factors grow with the band part, not with its square.
    EXPECT_LE(solve.factorNonZeros(), (3L * w + 1) * n + 2L * n * k + static_cast<long>(k) * k);
  }
}

TEST(BorderedBandSolve, DeclinesWhatItCannotFactorize) {
  BorderedBandSolve solve;
  // A band wider than the limit.
  const int wide = BorderedBandSolve::kMaxBandwidth + 1;
  EXPECT_FALSE(solve.compute(borderedBand(3 * wide, wide, 2, 1).sparseView(), 2));
  // A band singular on its own (a zero column), the whole matrix not: the border carries that unknown.
  Eigen::MatrixXd A = borderedBand(30, 2, 3, 2);
  A.col(10).head(27).setZero();
  A(27, 10) = 1.0;
  ASSERT_GT(std::abs(A.determinant()), 0.0);
  EXPECT_FALSE(solve.compute(A.sparseView(), 3));
  // Values that are not finite.
  Eigen::MatrixXd B = borderedBand(20, 2, 2, 3);
  B(5, 5) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(solve.compute(B.sparseView(), 2));
  // ... and it factorizes again afterwards.
  EXPECT_TRUE(solve.compute(borderedBand(20, 2, 2, 4).sparseView(), 2));
}
