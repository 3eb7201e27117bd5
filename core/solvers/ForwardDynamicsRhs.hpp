#pragma once
// The ODE y' = f(t, y) of the forward dynamics (ForwardDynamics.hpp) for CVODE and ARKODE, with
// y = [q_f; v_f] and f = [v_f; M^-1 (Q - b)], and its Newton systems.
//
// The Newton systems (I - gamma J) x = b of the implicit methods have J = [0 I; -M^-1 K_t, -M^-1 C_t]
// (the tangent stiffness and damping of TangentStiffness.hpp, the inertial terms' derivatives left
// out). Their 2n x 2n form condenses to one n x n system:
//   (M + gamma C_t + gamma^2 K_t) x_v = M b_v - gamma K_t b_q,    x_q = b_q + gamma x_v,
// a factorization eight times cheaper than the dense one, with M, K_t and C_t kept from the last
// Jacobian evaluation while the integrator reuses it (modified Newton) and only the factorization
// redone when gamma changes. The generalized-alpha method (GeneralizedAlpha.hpp) uses the same
// matrices in the second-order form M a = f, without M^-1: M + c_v C_t + c_q K_t. A residual M a - f
// that does not also give iteration matrices comes from the equations evaluated with the accelerations
// known (ForwardDynamics::Output::Residual), without building M, wherever that is the same equation
// (not with `geometric` coupling): linear in the mesh instead of quadratic, and about half an
// evaluation with M on the 42 coordinates of Moolam et al.'s spatial RRR arm. M is then built only for iteration matrices: each
// step's first residual on small systems, a new iteration matrix now and then on large ones.
//
// From SymmetricSolve::kSparseFrom free coordinates, when M, K_t and C_t together fill at most
// SymmetricSolve::kSparseDensity of the matrix (zero or geometric coupling: banded element blocks
// plus the joints' rows), they are kept sparse: each new gamma (every step of generalized-alpha, whose
// step size changes) then sums and factorizes them by their non-zeros instead of three dense n x n
// passes, and the Newton products are sparse too.
//
// With `high` coupling the foreshortening of a link moves every frame after it (the next links, a
// payload) and fills the mass matrix across the links. Where the methods on M a = f take M without its
// running-integral terms (below), the evaluation then splits the foreshortening into columns of its own
// (ForeshorteningColumns.hpp): M = M~_xx + C_run + G P^T + P G^T with M~_xx banded like zero coupling's,
// C_run the links' running-integral terms given as the rows of extra unknowns (sparse) and
// P = M~_xs + G M~_ss / 2, so that the iteration matrix is a sparse system plus a rank-2L update,
// factorized by a sparse LU in a banded order and the Woodbury identity (base/LowRankUpdatedSolve.hpp)
// at a cost linear in the mesh: exactly the matrix the dense path would factorize, no term left out.
#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include "base/LowRankUpdatedSolve.hpp"
#include "base/SymmetricSolve.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/OdeIntegrator.hpp"

namespace flexarm {

class ForwardDynamicsRhs final : public OdeRhs, public SecondOrderOde {
 public:
  static constexpr int kBandedMassFrom = 40;
  explicit ForwardDynamicsRhs(ForwardDynamics& fd) : fd_(fd) {}
  // f(t, y) without building a large dense mass matrix (ForwardDynamics::Request::reuse_mass).
  int rhs(double t, const double* y, double* ydot) override;
  // The dense df/dy (for SUNDIALS' own dense solver, and as the check of the condensed solve).
  bool hasJacobian() const override { return true; }
  int jacobian(double t, const double* y, Eigen::Map<Eigen::MatrixXd> J) override;
  bool hasNewtonSolver() const override { return true; }
  int setupNewton(double t, const double* y, double gamma, bool jacobian_ok, bool* evaluated) override;
  int solveNewton(double* x) override;
  int stateDerivative(double t, const double* y, double* ydot) override { return rhs(t, y, ydot); }
  int accelerationResidual(double t, const double* y, const double* a, double* r, bool matrices) override;
  int evaluateIterationMatrices(double t, const double* y) override;
  int factorIteration(double c_v, double c_q) override;
  int solveIteration(double* x) override;
  // Dense, or banded from a dense mass matrix built without its running-integral terms.
  bool costlyIterationMatrices() const override { return !sparse_ || banded_; }
  // M, K_t and C_t are kept sparse (see above), and M without its running-integral terms
  // (evaluateMatrixTerms()), for the tests.
  bool sparseIterationMatrices() const { return sparse_; }
  bool bandedIterationMatrices() const { return banded_; }
  // The iteration matrices are a sparse matrix plus the foreshortening's low-rank update (above).
  bool splitIterationMatrices() const { return split_; }
  // The non-zeros of the last iteration matrix's factorization (for the tests: it grows with the mesh).
  long iterationFactorNonZeros() const { return split_ ? split_solve_.factorNonZeros() : solve_.factorNonZeros(); }
  // The split iteration matrix was factorized in its band and border (base/BorderedBandSolve.hpp).
  bool iterationFactorInBand() const { return split_ && split_solve_.banded(); }

 private:
  int evaluate(double t, const double* y, double* ydot, bool without_mass);
  // The terms for new iteration matrices. For the methods on M a = f (second_order: esdirk, and
  // generalized-alpha where it does not take them from a residual) from kBandedMassFrom free
  // coordinates with `high` coupling, M without its running-integral terms: banded per link (sparse
  // for a single link), while the residual keeps them; they are a few per cent of M at moderate
  // deflections, and the iteration converges as with the whole M (the 60-element spin-up beam at
  // 8 rad/s over 15 s: the same 1608 steps, no convergence failure). Where the foreshortening moves
  // frames beyond a section (several links, a payload: ForeshorteningColumns.hpp) the matrices are
  // split instead, and exact: the running-integral terms come back as the rows of their own unknowns
  // (the iteration then takes the whole M's steps: three spatial links of 50 elements, 759 steps, 3688
  // evaluations, as with the dense factorization). Where the factorization does not profit from the
  // band (a sparse or an envelope one), the whole M from then on. CVODE's Newton iteration with the
  // banded matrix took 55 times the steps, so BDF keeps the whole M.
  void evaluateMatrixTerms(double t, const double* y, bool second_order);
  int evaluateMatrices(double t, const double* y, bool second_order);
  // Keeps M, K_t and C_t of the last evaluation of the terms for factorIteration(): 1 when not finite.
  int takeMatrices();
  void sparseCopy(const Eigen::Ref<const Eigen::MatrixXd>& M, const std::vector<MatrixRegion>* regions,
                  Eigen::SparseMatrix<double>& A);
  ForwardDynamics& fd_;
  Eigen::VectorXd ydot_, rhs_v_;
  Eigen::MatrixXd M_, K_, C_, S_;
  // The sparse copies, used when sparse_ (else the dense ones): M, K_t, C_t and their sum S.
  Eigen::SparseMatrix<double> Ms_, Ks_, Cs_, Ss_;
  Eigen::SparseMatrix<double> M_residual_;  // M of accelerationResidual(), when sparse_
  MatrixEntries entries_;                   // work memory of sparseCopy()
  bool banded_ = false;                     // the last matrices' M was built without its running-integral terms
  bool whole_mass_ = false;                 // ... which the dense factorization did not profit from: whole M now
  bool sparse_ = false, too_full_ = false;  // too_full_: found too full once, dense from then on
  SymmetricSolve solve_;                    // of S = M + c_v C_t + c_q K_t
  // The split iteration matrices (above): M~_xx in Ms_, the running terms' rows, the whole sparse
  // system they make with S, and the update's U = [G P] and C = [0 I; I 0].
  bool split_ = false;
  ForwardDynamics::SplitMass split_mass_;
  Eigen::SparseMatrix<double> split_system_;
  Eigen::MatrixXd split_U_, split_C_;
  LowRankUpdatedSolve split_solve_;
  double gamma_ = 0.0;
  bool have_jacobian_ = false;
};

}  // namespace flexarm
