#pragma once
// Solves S x = b for S = A + U C U^T: A symmetric and sparse, U n x r and C r x r with r small, by the
// Woodbury identity:
//   S^-1 b = A^-1 b - Z (I + C U^T Z)^-1 C U^T A^-1 b,   Z = A^-1 U,
// which needs C to be neither definite nor invertible (here C = [0 I; I 0], the rank-2L update of
// ForeshorteningColumns.hpp). A may come as the Schur complement of a larger sparse symmetric system
//   [A0 X; X^T Y] (n + p unknowns),   A = A0 - X Y^-1 X^T,
// whose extra unknowns keep it sparse where A is not (the running-integral terms of the foreshortening,
// ForeshorteningColumns.hpp): A^-1 b is then the first n unknowns of its solution with [b; 0], by
// Gaussian elimination in the band of a banded order with its border (BorderedBandSolve.hpp), or a
// sparse LU where the band is wide or singular without its border (the system is indefinite). Without extra unknowns A is
// factorized by SymmetricSolve (a sparse Cholesky; its dense path when A is small, full or indefinite). The factorization costs
// A's own, r solves with it and an r x r LU; a solve costs one with A and O(n r). S must be nonsingular (then I + C U^T Z is
// too); a capacitance that is not (S singular to working precision) fails compute().
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

#include "base/BorderedBandSolve.hpp"
#include "base/SymmetricSolve.hpp"

namespace flexarm {

class LowRankUpdatedSolve {
 public:
  // Factorizes A + U C U^T, A given as the whole sparse system (n + p unknowns, n = U.rows(); p = 0: A
  // itself). False when a value is not finite, the system is singular, or the capacitance matrix is.
  // `place`: for each extra unknown, the coordinate it sits beside in a banded order of the system. The
  // LU takes the unknowns in that order, the rows with many non-zeros (the joints' border) last, so that
  // its fill stays in the band and the border.
  bool compute(const SymmetricSolve::Sparse& A, const Eigen::MatrixXd& U, const Eigen::MatrixXd& C,
               const std::vector<int>* place = nullptr);
  // x <- S^-1 x (n values).
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const;
  // The non-zeros of the factorization of A (L and U of the LU, or the Cholesky factor), for the tests.
  long factorNonZeros() const;
  // Whether the larger system was factorized in its band (BorderedBandSolve), for the tests.
  bool banded() const { return extended_ && banded_; }

 private:
  void solveBase(Eigen::Ref<Eigen::VectorXd> x) const;  // x <- A^-1 x
  bool extended_ = false;                               // A is the Schur complement of a larger system
  SymmetricSolve base_;                                 // of A, without extra unknowns
  // of the larger system: a fill-reducing ordering of its symmetric pattern, pivots on the diagonal
  // where they are not too small
  Eigen::SparseLU<SymmetricSolve::Sparse, Eigen::NaturalOrdering<int>> lu_;
  // ... or, where its leading unknowns form a narrow band (the usual case), by the band and its border
  BorderedBandSolve band_;
  bool banded_ = false;
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order_;  // new position of each unknown
  SymmetricSolve::Sparse ordered_;
  Eigen::MatrixXd U_, CUt_, Z_;                       // U, C U^T, A^-1 U
  Eigen::PartialPivLU<Eigen::MatrixXd> capacitance_;  // of I + C U^T Z
  mutable Eigen::VectorXd y_, padded_;
};

}  // namespace flexarm
