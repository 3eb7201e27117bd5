// SymmetricSolve against Eigen's own LU, on each side of its size limits (Eigen's blocked Cholesky
// from 32 rows, its own column-wise one up to kColumnwiseLimit), for positive definite and for
// indefinite symmetric matrices (the LU path).
#include <gtest/gtest.h>

#include "base/SymmetricSolve.hpp"

namespace flexarm {
namespace {

Eigen::MatrixXd symmetric(int n, double shift, unsigned seed) {
  std::srand(seed);
  const Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
  return A * A.transpose() / n + shift * Eigen::MatrixXd::Identity(n, n);
}

TEST(SymmetricSolve, EqualsLuForDefiniteAndIndefiniteMatrices) {
  for (int n : {1, 5, 31, 32, 42, SymmetricSolve::kColumnwiseLimit, SymmetricSolve::kColumnwiseLimit + 1, 200}) {
    for (double shift : {0.1, -0.5}) {  // -0.5: indefinite (eigenvalues of A A^T / n from about 0 to 4/3)
      if (n == 1 && shift < 0.0) continue;
      const Eigen::MatrixXd S = symmetric(n, shift, static_cast<unsigned>(n));
      SymmetricSolve solve;
      ASSERT_TRUE(solve.compute(S)) << n;
      EXPECT_EQ(solve.usesLu(), shift < 0.0) << n;
      const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
      const Eigen::VectorXd expected = S.partialPivLu().solve(b);
      Eigen::VectorXd x = b;
      solve.solveInPlace(x);
      EXPECT_LE((x - expected).norm(), 1e-9 * expected.norm()) << "n = " << n << ", shift " << shift;
      Eigen::MatrixXd X(n, 2);
      X << b, 2.0 * b;
      solve.solveColumnsInPlace(X);
      EXPECT_LE((X.col(1) - 2.0 * expected).norm(), 1e-9 * expected.norm()) << n;
      EXPECT_EQ(solve.computeCholesky(S), shift > 0.0) << n;
    }
  }
}

TEST(SymmetricSolve, CholeskyRefusesAnIndefiniteMatrix) {
  Eigen::MatrixXd S(2, 2);
  S << 1.0, 2.0, 2.0, 1.0;  // eigenvalues 3 and -1
  SymmetricSolve solve;
  EXPECT_FALSE(solve.computeCholesky(S));
  EXPECT_TRUE(solve.compute(S));
  Eigen::VectorXd x(2);
  x << 3.0, 3.0;  // S (1, 1) = (3, 3)
  solve.solveInPlace(x);
  EXPECT_NEAR(x(0), 1.0, 1e-14);
  EXPECT_NEAR(x(1), 1.0, 1e-14);
}

}  // namespace
}  // namespace flexarm
