#pragma once
// The equations of motion linearized about a state (q, qd) with accelerations a of the free coordinates:
//   M dqdd + C dqd + K dq = 0,   M = M_ff(q),   K = dR/dq,   C = dR/dqd,
// with R(q, qd) = M(q) a + b(q, qd) - Q(q, qd) at a held fixed, so that -M^-1 K and -M^-1 C are the
// derivatives of the accelerations M^-1 (Q - b): the state matrix A = [0 I; -M^-1 K, -M^-1 C].
//
// M is the analytic mass matrix of one evaluation. K (and C where anything moves) are central difference quotients of R
// column by column, each from one pass of the equations with the accelerations known
// (ForwardDynamics::Output::Residual: linear in the mesh, no mass matrix, no factorization), so all
// of them cost O(n^2), not the O(n^4) of a dense factorization per column: they hold every term the
// integrators' analytic tangent (TangentStiffness.hpp) leaves out, the inertial and gyroscopic
// derivatives, the gravity torques and the foreshortening terms of `high` coupling.
// About a state of rest, a fine mesh's K takes a few dozen such passes instead of one pair per column:
// its pattern (banded by element, dense in the joints' and distal coordinates' rows and columns) lets
// columns that share no row be perturbed together (RestStiffness.hpp), checked along one more direction.
#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/RestStiffness.hpp"
#include "dynamics/ForwardDynamics.hpp"

namespace flexarm {

class LinearizedEquations {
 public:
  // `fd` must eliminate prescribed coordinates (its free coordinates are those linearized). With
  // `geometric` coupling and free accelerations that are not zero, `zero_coupling` (the same model with
  // `zero` coupling, whose mass matrix is the same) gives M(q) a: the geometric axial force of the
  // equations is that of the motion without the free accelerations.
  explicit LinearizedEquations(ForwardDynamics& fd, ForwardDynamics* zero_coupling = nullptr);

  // R at state y = [q_f; qd_f] and free accelerations a, time t; false when it is not finite.
  bool residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a, Eigen::VectorXd& r);

  // Columns `columns` of dR/dy (y = [q_f; qd_f]: K for c < n_f, C for c >= n_f) by central differences,
  // into J (n_f x columns.size()). Checks `cancel` every column. False when cancelled or not finite
  // (error() says which).
  bool jacobianColumns(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a, const std::vector<int>& columns,
                       Eigen::MatrixXd& J, const std::atomic<bool>* cancel);
  // K = dR/dq at y from the grouped columns of `pattern` (RestStiffness.hpp): the dense columns one by one,
  // the others a group per pair of passes, their dense rows by symmetry. Then a check: the difference
  // quotient of R along one more direction z must equal K z in every row (to kCheckTolerance of the
  // row's sum of |K_ic z_c|); `consistent` says whether it did. False when cancelled or not finite.
  bool groupedStiffness(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& a, const RestStiffnessPattern& pattern,
                        Eigen::MatrixXd& K, bool& consistent, const std::atomic<bool>* cancel);

  // The integrators' analytic tangent stiffness K_t at y (TangentStiffness.hpp): structural, geometric,
  // joint springs and PD gains, without the inertial and gravity terms. False when y cannot be evaluated.
  bool analyticStiffness(double t, const Eigen::VectorXd& y, Eigen::MatrixXd& K);
  // The same over the free coordinates `rows` (positions in the free list) only, sparse and factorized:
  // from a pass linear in the mesh (M without its running-integral terms), no dense matrix. False when y
  // cannot be evaluated or K_t there is not positive definite.
  bool analyticStiffness(double t, const Eigen::VectorXd& y, const std::vector<int>& rows, SymmetricSolve& K);

  // M, K and C at y: the accelerations from one evaluation there (or `accelerations`, those of a
  // constrained motion); C is the analytic tangent damping when nothing moves (every velocity zero), else
  // by difference quotients too. K at rest, from kGroupedFrom free coordinates on, with inertial forces M a
  // below kNegligibleInertia of the largest force term (accelerations at the round-off of a balance), takes
  // the grouped columns of restStiffnessPattern() where the system has one and its check holds (a few
  // dozen passes for any mesh), else every column. False when cancelled, not finite or the mass matrix is
  // not positive definite (error()).
  bool linearize(double t, const Eigen::VectorXd& y, const std::atomic<bool>* cancel,
                 const Eigen::VectorXd* accelerations = nullptr);
  // The motions constraints allow (Constraints.hpp): after linearize(), M <- N^T M N,
  // K <- N^T (K + K_lambda) N and C <- N^T C N, with N (n_f x n_r) an orthonormal basis of the null space
  // of the constraint rows over the free coordinates and K_lambda the stiffness of the constraint forces
  // d(Phi_q^T lambda)/dq. The state matrix is then that of the n_r coordinates z of q_f = N z.
  void restrictTo(const Eigen::MatrixXd& N, const Eigen::MatrixXd& K_lambda);
  const Eigen::MatrixXd& mass() const { return M_; }
  const Eigen::MatrixXd& stiffness() const { return K_; }
  const Eigen::MatrixXd& damping() const { return C_; }
  const Eigen::VectorXd& accelerations() const { return a_; }

  // A = [0 I; -M^-1 K, -M^-1 C] from the last linearize(); false when cancelled (checked between
  // blocks of columns) or M is not positive definite.
  bool stateMatrix(Eigen::MatrixXd& A, const std::atomic<bool>* cancel);

  static constexpr int kGroupedFrom = 60;
  static constexpr double kNegligibleInertia = 1e-5;
  // groupedStiffness()'s check: the direction's difference quotient within this share of each row's
  // sum of |K_ic z_c| (measured: within 1e-12 on the 20- and 200-element cantilevers).
  static constexpr double kCheckTolerance = 1e-8;

  bool cancelled() const { return cancelled_; }
  // Evaluations of the residual so far: the cost of a linearization, as an operation count.
  long residualEvaluations() const { return evaluations_; }
  const std::string& error() const { return error_; }

 private:
  ForwardDynamics& fd_;
  ForwardDynamics* zero_;
  Eigen::MatrixXd M_, K_, C_;
  Eigen::VectorXd a_, work_;
  bool cancelled_ = false;
  long evaluations_ = 0;
  std::string error_;
};

// The integrators' tangent stiffness and damping of fd's free coordinates at the state y, stored sparse,
// from an evaluation of its own that is linear in the mesh (Output::Terms with M without its
// running-integral terms): for Newton iterations on the tangent (statics, equilibria). False when y cannot
// be evaluated (fd.error()).
bool sparseTangentAt(ForwardDynamics& fd, double t, const double* y, Eigen::SparseMatrix<double>& K,
                     Eigen::SparseMatrix<double>& C);

// How far a difference quotient of y_c steps, as the linearization has always done.
inline double differenceStep(double y) { return 1e-6 * std::max(1.0, std::abs(y)); }

}  // namespace flexarm
