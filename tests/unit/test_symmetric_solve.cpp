// SymmetricSolve against Eigen's own LU, on each side of its size limits (Eigen's blocked Cholesky
// from 32 rows, its own column-wise one up to kColumnwiseLimit), for positive definite and for
// indefinite symmetric matrices (the LU path).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include <Eigen/SparseCore>

#include "base/Finite.hpp"
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

// The column-wise factorization refuses a matrix with a NaN or an infinity anywhere (the integrators
// then shrink the step): on the diagonal, in the first and last columns, inside, in either triangle.
TEST(SymmetricSolve, CholeskyRefusesNonFiniteEntries) {
  const int n = 42;
  const Eigen::MatrixXd S = symmetric(n, 0.1, 7u);
  SymmetricSolve solve;
  ASSERT_TRUE(solve.computeCholesky(S));
  for (auto [i, j] : {std::pair{0, 0}, {n - 1, 0}, {0, n - 1}, {n - 1, n - 2}, {20, 10}, {10, 20}, {n - 1, n - 1}})
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      Eigen::MatrixXd T = S;
      T(i, j) = bad;
      EXPECT_FALSE(solve.computeCholesky(T)) << i << ", " << j << ": " << bad;
    }
}

// base/Finite.hpp's one-pass test agrees with Eigen's entry-by-entry one: NaN and both infinities
// anywhere, the largest finite values (x * 0 stays 0), denormals, empty matrices and vectors.
TEST(SymmetricSolve, AllFiniteFindsEveryNonFiniteEntry) {
  const Eigen::MatrixXd S = symmetric(9, 0.1, 3u);
  EXPECT_TRUE(allFinite(S));
  EXPECT_TRUE(allFinite(Eigen::MatrixXd(0, 0)));
  EXPECT_TRUE(allFinite(Eigen::VectorXd(0)));
  for (double big :
       {std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()}) {
    Eigen::MatrixXd T = S;
    T.setConstant(big);
    EXPECT_TRUE(allFinite(T)) << big;
  }
  for (int k = 0; k < S.size(); ++k)
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
      Eigen::MatrixXd T = S;
      T.data()[k] = bad;
      EXPECT_FALSE(allFinite(T)) << k << ": " << bad;
      EXPECT_EQ(allFinite(T), T.allFinite());
      EXPECT_FALSE(allFinite(T.col(k / 9))) << k;
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

// The mass matrix of a finely meshed link without foreshortening: banded element blocks plus a few
// full rows and columns (the joints), positive definite.
Eigen::MatrixXd bandedWithBorder(int n, int band, int border, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = j; i < std::min(n, j + band + 1); ++i)
      S(i, j) = S(j, i) = i == j ? 2.0 * band + 2.0 : Eigen::internal::random<double>(-1.0, 1.0);
  for (int k = 0; k < border; ++k) {
    const Eigen::VectorXd row = 0.5 * Eigen::VectorXd::Random(n) / std::sqrt(n);
    S.row(n - 1 - k) += row.transpose();
    S.col(n - 1 - k) += row;
    S(n - 1 - k, n - 1 - k) += 4.0;
  }
  return S;
}

// From kSparseFrom rows a mostly-zero matrix is factorized as a sparse one and solves as the dense
// LU does; entries that appear later outside the pattern widen it; a matrix that fills in (the
// foreshortening of `high` coupling) goes to the dense path; an indefinite one to the LU.
TEST(SymmetricSolve, SparseMatricesSolveAsTheDenseOnes) {
  const int n = 2 * SymmetricSolve::kSparseFrom;
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
  auto expectSolves = [&](SymmetricSolve& solve, const Eigen::MatrixXd& S, const char* what) {
    const Eigen::VectorXd expected = S.partialPivLu().solve(b);
    Eigen::VectorXd x = b;
    solve.solveInPlace(x);
    EXPECT_LE((x - expected).norm(), 1e-12 * expected.norm()) << what;
    Eigen::MatrixXd X(n, 2);
    X << b, -b;
    solve.solveColumnsInPlace(X);
    EXPECT_LE((X.col(1) + expected).norm(), 1e-12 * expected.norm()) << what;
  };
  SymmetricSolve solve;
  Eigen::MatrixXd S = bandedWithBorder(n, 6, 2, 3);
  ASSERT_TRUE(solve.computeCholesky(S));
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S, "banded with a border");
  S(n / 2 + 20, n / 2) = S(n / 2, n / 2 + 20) = 0.5;  // a new entry outside the pattern
  ASSERT_TRUE(solve.computeCholesky(S));
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S, "a new entry");
  S(n / 2 + 20, n / 2) = S(n / 2, n / 2 + 20) = 0.0;  // an entry of the pattern that is zero now
  ASSERT_TRUE(solve.computeCholesky(S));
  expectSolves(solve, S, "a zero in the pattern");
  Eigen::MatrixXd indefinite = S;
  indefinite.diagonal().array() -= 40.0;
  ASSERT_FALSE(solve.computeCholesky(indefinite));
  ASSERT_TRUE(solve.compute(indefinite));
  EXPECT_TRUE(solve.usesLu());
  expectSolves(solve, indefinite, "indefinite");
  const Eigen::MatrixXd full = S + 1e-3 * symmetric(n, 0.0, 5);  // fills in: dense from now on
  ASSERT_TRUE(solve.computeCholesky(full));
  EXPECT_FALSE(solve.usesSparse());
  expectSolves(solve, full, "filled in");
  ASSERT_TRUE(solve.computeCholesky(S));
  EXPECT_FALSE(solve.usesSparse());
  expectSolves(solve, S, "sparse again, after the fill");
  SymmetricSolve nonfinite;  // a NaN or an inf on the sparse path, in the pattern or outside it, is refused
  const Eigen::MatrixXd banded = bandedWithBorder(n, 6, 2, 3);
  ASSERT_TRUE(nonfinite.computeCholesky(banded));
  ASSERT_TRUE(nonfinite.usesSparse());
  for (auto [i, j, value] :
       {std::tuple{n / 2, n / 2, std::nan("")}, std::tuple{n / 2 + 1, n / 2, std::numeric_limits<double>::infinity()},
        std::tuple{n / 2 + 30, n / 2, std::nan("")}}) {
    Eigen::MatrixXd bad = banded;
    bad(i, j) = bad(j, i) = value;
    EXPECT_FALSE(nonfinite.computeCholesky(bad)) << i << ", " << j;
    EXPECT_FALSE(nonfinite.compute(bad)) << i << ", " << j;
  }
  SymmetricSolve small;  // below kSparseFrom rows: always dense
  const Eigen::MatrixXd S_small = bandedWithBorder(SymmetricSolve::kSparseFrom - 1, 6, 1, 4);
  ASSERT_TRUE(small.computeCholesky(S_small));
  EXPECT_FALSE(small.usesSparse());
}

// `solve` (of S) solves S x = b as Eigen's LU does, for b = (-1 ... 2).
void expectSolves(const SymmetricSolve& solve, const Eigen::MatrixXd& S, const char* what) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(S.rows(), -1.0, 2.0);
  const Eigen::VectorXd expected = S.partialPivLu().solve(b);
  Eigen::VectorXd x = b;
  solve.solveInPlace(x);
  EXPECT_LE((x - expected).norm(), 1e-12 * expected.norm()) << what;
}

// The same through compute(Sparse), for matrices stored sparse: no dense pass, the same solutions,
// the same paths (a widened pattern, the LU when indefinite, dense once filled in, NaN refused).
TEST(SymmetricSolve, StoredSparseMatricesSolveAsTheDenseOnes) {
  const int n = 2 * SymmetricSolve::kSparseFrom;
  using Sparse = SymmetricSolve::Sparse;
  SymmetricSolve solve;
  Eigen::MatrixXd S = bandedWithBorder(n, 6, 2, 3);
  ASSERT_TRUE(solve.compute(Sparse(S.sparseView())));
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S, "banded with a border");
  S(n / 2 + 20, n / 2) = S(n / 2, n / 2 + 20) = 0.5;  // a new entry outside the pattern
  ASSERT_TRUE(solve.compute(Sparse(S.sparseView())));
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S, "a new entry");
  S(n / 2 + 20, n / 2) = S(n / 2, n / 2 + 20) = 0.0;  // in the pattern, not stored now
  ASSERT_TRUE(solve.compute(Sparse(S.sparseView())));
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S, "a zero in the pattern");
  Sparse lower = S.sparseView();  // the lower triangle alone is enough
  lower = lower.triangularView<Eigen::Lower>();
  ASSERT_TRUE(solve.compute(lower));
  expectSolves(solve, S, "the lower triangle");
  Eigen::MatrixXd indefinite = S;
  indefinite.diagonal().array() -= 40.0;
  ASSERT_TRUE(solve.compute(Sparse(indefinite.sparseView())));
  EXPECT_TRUE(solve.usesLu());
  expectSolves(solve, indefinite, "indefinite");
  for (auto [i, j, value] :
       {std::tuple{n / 2, n / 2, std::nan("")}, std::tuple{n / 2 + 30, n / 2, std::numeric_limits<double>::infinity()}}) {
    Eigen::MatrixXd bad = S;
    bad(i, j) = bad(j, i) = value;
    EXPECT_FALSE(solve.compute(Sparse(bad.sparseView()))) << i << ", " << j;
  }
  const Eigen::MatrixXd full = S + 1e-3 * symmetric(n, 0.0, 5);  // fills in: dense from now on
  ASSERT_TRUE(solve.compute(Sparse(full.sparseView())));
  EXPECT_FALSE(solve.usesSparse());
  expectSolves(solve, full, "filled in");
  ASSERT_TRUE(solve.compute(Sparse(S.sparseView())));
  EXPECT_FALSE(solve.usesSparse());
  expectSolves(solve, S, "sparse again, after the fill");
  SymmetricSolve small;  // below kSparseFrom rows: dense
  const Eigen::MatrixXd S_small = bandedWithBorder(SymmetricSolve::kSparseFrom - 1, 6, 1, 4);
  ASSERT_TRUE(small.compute(Sparse(S_small.sparseView())));
  EXPECT_FALSE(small.usesSparse());
}

// With the regions where S may hold non-zeros, the sparse path reads S only there: the same solutions;
// a new non-zero in a region widens the pattern; NaN in a region is refused.
TEST(SymmetricSolve, RegionsOfTheNonZerosSolveAsTheWholeMatrix) {
  const int n = 2 * SymmetricSolve::kSparseFrom;
  // A band (as a sparse pattern) and two bordering rows and columns (dense blocks).
  const Eigen::MatrixXd S0 = bandedWithBorder(n, 6, 2, 3);
  Eigen::MatrixXd band = S0;
  band.bottomRows(2).setZero();
  band.rightCols(2).setZero();
  const Eigen::SparseMatrix<double> band_pattern = (band + Eigen::MatrixXd::Identity(n, n)).sparseView();
  const std::vector<MatrixRegion> regions = {{0, 0, n, n, &band_pattern}, {n - 2, 0, 2, n, nullptr}, {0, n - 2, n, 2, nullptr}};
  SymmetricSolve solve;
  ASSERT_TRUE(solve.computeCholesky(S0, regions));  // the first time: the whole matrix, for the pattern
  EXPECT_TRUE(solve.usesSparse());
  expectSolves(solve, S0, "first");
  Eigen::MatrixXd S = S0;
  S(n / 2 + 1, n / 2) = S(n / 2, n / 2 + 1) = 0.25;  // in the band's pattern, a new value
  S(n - 1, 3) = S(3, n - 1) = 0.4;
  ASSERT_TRUE(solve.computeCholesky(S, regions));
  expectSolves(solve, S, "new values in the regions");
  S(n - 2, 5) = S(5, n - 2) = 0.0;  // a zero where a non-zero was: still in the pattern
  S(n - 1, n / 3) = S(n / 3, n - 1) = 0.0;
  ASSERT_TRUE(solve.computeCholesky(S, regions));
  expectSolves(solve, S, "zeros in the pattern");
  Eigen::MatrixXd widened = S;  // a non-zero of a dense region outside the pattern so far
  widened(n - 1, 10) = widened(10, n - 1) = 0.3;
  ASSERT_TRUE(solve.computeCholesky(widened, regions));
  expectSolves(solve, widened, "a new non-zero in a region");
  Eigen::MatrixXd bad = S;
  bad(n - 1, 20) = bad(20, n - 1) = std::nan("");
  EXPECT_FALSE(solve.computeCholesky(bad, regions));
  bad = S;
  bad(n / 2, n / 2) = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(solve.computeCholesky(bad, regions));
}

// Below kSparseFrom rows a banded matrix is factorized in its envelope: in the natural order when the
// border rows come last, in the reversed one when they come first (the joints of an arm), and it
// solves as the LU does. A full matrix stays dense; an indefinite one goes to the LU; NaN and inf
// are refused; a matrix given by its lower triangle alone (stored sparse) solves as the whole one.
TEST(SymmetricSolve, EnvelopeFactorizationSolvesAsTheDenseOne) {
  const int n = SymmetricSolve::kSparseFrom - 1;
  const Eigen::MatrixXd last = bandedWithBorder(n, 6, 2, 3);
  Eigen::MatrixXd first = last.reverse();  // the border rows and columns first
  SymmetricSolve solve;
  ASSERT_TRUE(solve.computeCholesky(last));
  EXPECT_TRUE(solve.usesProfile());
  expectSolves(solve, last, "border last");
  ASSERT_TRUE(solve.computeCholesky(first));
  EXPECT_TRUE(solve.usesProfile());
  expectSolves(solve, first, "border first");
  Eigen::MatrixXd X(n, 2);
  X << Eigen::VectorXd::LinSpaced(n, -1.0, 2.0), Eigen::VectorXd::LinSpaced(n, 3.0, 0.5);
  const Eigen::MatrixXd expected = first.partialPivLu().solve(X);
  solve.solveColumnsInPlace(X);
  EXPECT_LE((X - expected).norm(), 1e-12 * expected.norm()) << "two columns";
  Eigen::MatrixXd full = last;
  full.row(0).setConstant(0.01);
  full.col(0).setConstant(0.01);
  full.bottomRows(2).array() += 0.01;
  full.rightCols(2).array() += 0.01;
  full(0, 0) = last(0, 0);
  ASSERT_TRUE(solve.computeCholesky(full));
  EXPECT_FALSE(solve.usesProfile());
  expectSolves(solve, full, "border at both ends");
  Eigen::MatrixXd indefinite = last;
  indefinite.diagonal().array() -= 40.0;
  ASSERT_FALSE(solve.computeCholesky(indefinite));
  ASSERT_TRUE(solve.compute(indefinite));
  EXPECT_TRUE(solve.usesLu());
  expectSolves(solve, indefinite, "indefinite");
  for (auto [i, j, value] : {std::tuple{n / 2, n / 2, std::nan("")}, std::tuple{n / 2 + 3, n / 2, std::nan("")},
                             std::tuple{n - 1, 0, std::numeric_limits<double>::infinity()}}) {
    Eigen::MatrixXd bad = last;
    bad(i, j) = bad(j, i) = value;
    EXPECT_FALSE(solve.computeCholesky(bad)) << i << ", " << j;
    EXPECT_FALSE(solve.compute(bad)) << i << ", " << j;
  }
  Eigen::SparseMatrix<double> lower = first.sparseView();
  lower = lower.triangularView<Eigen::Lower>();
  ASSERT_TRUE(solve.compute(lower));
  EXPECT_TRUE(solve.usesProfile());
  expectSolves(solve, first, "the lower triangle");
}

}  // namespace
}  // namespace flexarm
