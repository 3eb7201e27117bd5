#pragma once
// An L-stable, stiffly accurate ESDIRK method (Kennedy & Carpenter; the tables of ARKODE, as `dirk`
// uses them) stepped on the second-order residual form M(q) a = f(t, q, v), y = [q; v], with adaptive
// steps under rtol/atol (the embedded method's error in positions and velocities, as ARKODE's).
// Its implicit stages share the diagonal coefficient gamma, so each stage i solves for its
// acceleration A_i alone, the positions and velocities following it linearly:
//   V_i = v_n + h sum_{j<i} a_ij A_j + h gamma A_i,
//   Q_i = q_n + h sum_{j<i} a_ij V_j + h gamma V_i,
//   M(Q_i) A_i = f(t_n + c_i h, Q_i, V_i),
// by modified Newton with the iteration matrix M + h gamma C_t + (h gamma)^2 K_t
// (TangentStiffness.hpp) that generalized-alpha uses, kept for 20 steps: every stage of a step shares
// one factorization (larger systems keep it for later steps while the step size stays within 30 %),
// and each iteration costs one residual without M (ForwardDynamics::Output::Residual) and one solve. With
// ARKODE's `dirk` the same method solves the first-order system, whose every evaluation builds and
// factorizes M. The first stage is the last step's end (its acceleration known), and the last stage
// is the step's end: M a = f holds there to the Newton tolerance, and the dense output is generalized-
// alpha's cubic Hermite (SecondOrderStepper.hpp).
#include <Eigen/Core>
#include <vector>

#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/OdeIntegrator.hpp"
#include "solvers/SecondOrderStepper.hpp"

namespace flexarm {

class EsdirkIntegrator final : public SecondOrderStepper {
 public:
  // n: the state's size, twice the coordinates'. settings.max_order picks the table as for `dirk`: 3,
  // 4 (0) or 5. Returns what went wrong, if anything.
  Status init(SecondOrderOde& ode, int n, const double* y0, double t0, double t_stop, const SimulationSettings& settings);

 private:
  int attempt(double h) override;
  // Newton on stage i's acceleration A_.col(i): 0 converged, 1 not converged or not finite, < 0 a
  // SecondOrderStepFlag.
  int solveStage(int i, double h, double t_stage);
  // Stage i's first iterate, A_.col(i) (Esdirk.cpp).
  void predict(int i, double t_stage, double h);

  int stages_ = 0, embedded_order_ = 0;
  std::vector<std::vector<double>> a_table_;
  std::vector<double> b_, c_, d_;
  double gamma_ = 0.0;
  double factored_hg_ = -1.0;  // h gamma of the factorization, < 0: none
  double rate_ = 1.0;          // the Newton iteration's convergence rate (CVODE's crate)
  bool last_failed_ = false;   // the last attempt failed: no growth in the next step
  Eigen::VectorXd y1_, r_, qpre_, vpre_, err_;
  Eigen::MatrixXd Q_, V_, A_;  // stage positions, velocities, accelerations (n x stages)
  Eigen::MatrixXd A_last_;     // the last accepted step's stage accelerations, its size h_last_
  double h_last_ = 0.0;
  double err_last_ = 0.0, err_last2_ = 0.0;  // the error estimates of the last two accepted steps
};

}  // namespace flexarm
