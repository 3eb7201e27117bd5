#pragma once
// Solves S x = b for a dense symmetric matrix S that is positive definite (a mass matrix, an
// iteration matrix M + c_v C_t + c_q K_t), by Cholesky, with a pivoted LU when S is not positive
// definite (a compressive axial force can soften K_t below zero).
//
// Eigen's LLT factorizes from 32 rows up by blocks, with matrix products that pack their operands
// into buffers: for the 30-100 coordinates of a flexible arm that costs several times the
// factorization itself. Up to kColumnwiseLimit rows the column-by-column algorithm is used instead;
// both give the same factor. No heap allocation once sized, except on the LU path and the sparse one.
//
// From kSparseFrom rows, a matrix that is mostly zeros is factorized as a sparse one (Eigen's
// SimplicialLLT, fill-reducing ordering): the mass and iteration matrices of finely meshed links with
// zero or geometric coupling are banded blocks plus the joints' rows, a few per cent of the entries
// (100 planar elements: 0.01 ms instead of 0.3 ms). The pattern is the union of the nonzero entries of
// every matrix factorized so far, found by a scan of the lower triangle; an entry outside it redoes the
// ordering. Once the union holds more than kSparseDensity of the triangle (the foreshortening terms of
// `high` coupling fill the mass matrix), the dense path is used from then on without scanning.
//
// Below that, a matrix whose non-zeros lie near the diagonal (banded element blocks, plus the joints'
// rows last) is factorized in its envelope (profile): row i from its first non-zero column on, in the
// natural order or the reversed one, whichever envelope is smaller (joints' rows first: reversed). It
// is used when the envelope's cost, the sum of the squared row widths, is at most a quarter of the
// dense factorization's: the 60 coordinates of the cantilever's banded iteration matrix, 11 wide,
// factorize in about 2k multiply-adds instead of 36k. The envelope is found by a scan of the lower
// triangle at each factorization (n^2 / 2 reads, against n^3 / 6 multiply-adds).
//
// A matrix already stored sparse (the iteration matrices of ForwardDynamicsRhs) is factorized the same
// way without any dense n x n pass: its lower triangle is gathered into the same pattern.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <vector>

namespace flexarm {

// Where a matrix may hold non-zeros: a dense block, or (pattern set) the non-zeros of `pattern`
// placed with their (0, 0) at (row, col), which may lie outside the matrix (those entries are not
// in it).
struct MatrixRegion {
  int row = 0, col = 0, rows = 0, cols = 0;
  const Eigen::SparseMatrix<double>* pattern = nullptr;
};

class SymmetricSolve {
 public:
  using MatrixRef = Eigen::Ref<const Eigen::MatrixXd>;  // a matrix or a block of one, not copied
  using Sparse = Eigen::SparseMatrix<double>;           // column-major, sorted row indices
  static constexpr int kColumnwiseLimit = 128;
  static constexpr int kSparseFrom = 96;
  static constexpr double kSparseDensity = 0.15;
  static constexpr int kProfileFrom = 16;

  // Factorizes S. Returns false when S is not finite.
  bool compute(const MatrixRef& S);
  // The same for a symmetric S stored sparse (both triangles, or at least the lower one): a sparse
  // Cholesky, or the dense path on a copy when S is small, too full, or not positive definite.
  bool compute(const Sparse& S);
  // Factorizes S by Cholesky only: false when S is not positive definite (no LU).
  bool computeCholesky(const MatrixRef& S);
  // The same when every non-zero of S lies in `regions`: on the sparse path S is read only there (its
  // pattern's values, and the regions for new non-zeros), not scanned whole.
  bool computeCholesky(const MatrixRef& S, const std::vector<MatrixRegion>& regions);
  // x <- S^-1 x: one vector (the triangular solves of a vector, not those of a matrix that pack
  // their operands), or any number of columns.
  void solveInPlace(Eigen::Ref<Eigen::VectorXd> x) const;
  void solveColumnsInPlace(Eigen::Ref<Eigen::MatrixXd> x) const;
  bool usesLu() const { return use_lu_; }
  bool usesSparse() const { return use_sparse_; }
  bool usesProfile() const { return use_profile_; }
  // The non-zeros of the factor (L of the Cholesky, the envelope, or n^2 for a dense or LU one).
  long factorNonZeros() const;

 private:
  template <typename X>
  void solve(X& x) const;
  // The sparse factorization of S when S is large and sparse enough: 1 factorized, 0 not positive
  // definite, -1 not sparse (use the dense path).
  int computeSparse(const MatrixRef& S);
  bool gatherIntoPattern(const MatrixRef& S);  // false when S has a nonzero outside the pattern
  bool gatherIntoPattern(const Sparse& S);
  bool gatherIntoPattern(const MatrixRef& S, const std::vector<MatrixRegion>& regions);
  bool inPattern(int i, int j) const;  // (i, j), i >= j, is an entry of lower_
  void widenPattern(const MatrixRef& S);
  void widenPattern(const Sparse& S);
  // The pattern is now lower_: a new ordering, or the dense path from now on when it is too full.
  bool acceptWidenedPattern();
  // The envelope factorization of S: 1 factorized, 0 not positive definite (or not finite), -1 its
  // envelope is too wide (use the dense path).
  int computeProfile(const MatrixRef& S);
  void solveProfile(double* x) const;  // x <- S^-1 x, for one contiguous vector

  Eigen::MatrixXd factor_;  // lower Cholesky factor in the lower triangle
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  Sparse lower_;  // the lower triangle of S on the pattern
  Eigen::SimplicialLLT<Sparse, Eigen::Lower> sparse_llt_;
  mutable Eigen::VectorXd work_;
  // The envelope factor: row i of L (in the chosen order) holds columns first_[i] .. i, stored from
  // profile_[row_start_[i]], its diagonal as inverse_diagonal_; last_: the lower triangle's last
  // non-zero row of each column.
  std::vector<int> first_, last_;
  std::vector<std::size_t> row_start_;
  std::vector<double> inverse_diagonal_;  // 1 / L(i, i)
  std::vector<double> profile_;
  bool columnwise_ = true, use_lu_ = false, use_sparse_ = false, dense_pattern_ = false;
  bool use_profile_ = false, profile_reversed_ = false;
};

}  // namespace flexarm
