#include "discretization/LowestModes.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace flexarm {
namespace {

LowestModes dense(const Eigen::MatrixXd& K, const Eigen::MatrixXd& M, int count) {
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(K, M);
  return {eig.eigenvalues().head(count), eig.eigenvectors().leftCols(count)};
}

// A fixed, well-spread start: every column touches every coordinate, independent of the global rand().
Eigen::MatrixXd startingBlock(int m, int p) {
  Eigen::MatrixXd X(m, p);
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int j = 0; j < p; ++j)
    for (int i = 0; i < m; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      X(i, j) = static_cast<double>(s >> 11) / 9007199254740992.0 - 0.5;
    }
  return X;
}

}  // namespace

LowestModes lowestModes(const Eigen::MatrixXd& K, const Eigen::MatrixXd& M, int count, int dense_limit) {
  const int m = static_cast<int>(K.rows());
  count = std::clamp(count, 0, m);
  if (count == 0) return {Eigen::VectorXd(0), Eigen::MatrixXd(m, 0)};
  if (m <= dense_limit) return dense(K, M, count);

  const Eigen::SparseMatrix<double> Ks = K.sparseView(), Ms = M.sparseView();
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(Ks);
  if (ldlt.info() != Eigen::Success || (ldlt.vectorD().array() <= 0.0).any()) return dense(K, M, count);

  // Subspace iteration with a Rayleigh-Ritz step (Bathe): a block of p > count vectors, so that mode i
  // converges as (lambda_i / lambda_{p+1})^n. The measure is the largest inverse-iteration residual of
  // the wanted pairs, |x - lambda K^-1 M x|_M / |x|_M, which is invariant under rotations within a
  // repeated eigenvalue's space (a round section's two bending planes). It falls to 1e-10, or on a fine
  // mesh to the round-off of the solves with K (condition ~ (L/h)^4: 5e-8 at 200 elements), where it
  // stops decreasing: converged then too, the pairs being as exact as the matrices allow.
  const int p = std::min(m, std::max(2 * count, count + 8));
  constexpr double kTolerance = 1e-10, kRoundOffCeiling = 1e-6;
  constexpr int kMaxIterations = 200;
  Eigen::MatrixXd X = startingBlock(m, p);
  Eigen::VectorXd lambda;
  double previous = std::numeric_limits<double>::infinity();
  for (int it = 0; it < kMaxIterations; ++it) {
    const Eigen::MatrixXd Y = ldlt.solve(Ms * X);
    if (it > 0) {
      double worst = 0.0;
      for (int i = 0; i < count; ++i) {
        const Eigen::VectorXd r = X.col(i) - lambda(i) * Y.col(i);
        worst = std::max(worst, std::sqrt(r.dot(Ms * r) / X.col(i).dot(Ms * X.col(i))));
      }
      if (worst < kTolerance || (worst < kRoundOffCeiling && worst > 0.5 * previous))
        return {lambda.head(count), X.leftCols(count)};
      previous = worst;
    }
    Eigen::MatrixXd Kr = Y.transpose() * (Ks * Y), Mr = Y.transpose() * (Ms * Y);
    Kr = 0.5 * (Kr + Kr.transpose());
    Mr = 0.5 * (Mr + Mr.transpose());
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> ritz(Kr, Mr);
    if (ritz.info() != Eigen::Success) return dense(K, M, count);
    lambda = ritz.eigenvalues();
    X = Y * ritz.eigenvectors();  // M-orthonormal: Q^T Mr Q = I
  }
  return dense(K, M, count);
}

}  // namespace flexarm
