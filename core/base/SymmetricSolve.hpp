#pragma once
// Solves S x = b for a dense symmetric matrix S that is positive definite (a mass matrix, an
// iteration matrix M + c_v C_t + c_q K_t), by Cholesky, with a pivoted LU when S is not positive
// definite (a compressive axial force can soften K_t below zero).
//
// Eigen's LLT factorizes from 32 rows up by blocks, with matrix products that pack their operands
// into buffers: for the 30-100 coordinates of a flexible arm that costs several times the
// factorization itself. Up to kColumnwiseLimit rows the column-by-column algorithm is used instead;
// both give the same factor. No heap allocation once sized, except on the LU path.
#include <Eigen/Dense>

namespace flexarm {

class SymmetricSolve {
 public:
  static constexpr int kColumnwiseLimit = 128;

  // Factorizes S. Returns false when S is not finite.
  bool compute(const Eigen::MatrixXd& S);
  // Factorizes S by Cholesky only: false when S is not positive definite (no LU).
  bool computeCholesky(const Eigen::MatrixXd& S);
  // x <- S^-1 x: one vector (the triangular solves of a vector, not those of a matrix that pack
  // their operands), or any number of columns.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const;
  void solveColumnsInPlace(Eigen::Ref<Eigen::MatrixXd> x) const;
  bool usesLu() const { return use_lu_; }

 private:
  template <typename X>
  void solve(X& x) const;
  Eigen::MatrixXd factor_;  // lower Cholesky factor in the lower triangle
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  bool columnwise_ = true, use_lu_ = false;
};

}  // namespace flexarm
