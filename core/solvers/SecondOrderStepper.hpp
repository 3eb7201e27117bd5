#pragma once
// What the one-step methods on the second-order form M(q) a = f (SecondOrderOde below; generalized-
// alpha, GeneralizedAlpha.hpp, and ESDIRK, Esdirk.hpp) share: the state y = [q; v] and the
// accelerations a at the end of the last step and at its start, the step loop around each method's
// attempt(), and the dense output: cubic Hermite from both ends of the last step, the positions with
// their rates, the rates with the accelerations (M a = f at both ends, to the Newton tolerance), and
// the accelerations as the derivative of the rates' cubic.
#include <Eigen/Core>
#include <string>

#include "solvers/OdeIntegrator.hpp"

namespace flexarm {

// A second-order ODE y = [q; v], y' = [v; a] with M(q) a = f(t, q, v), for the one-step methods.
// Return conventions as OdeRhs::rhs (0 success, > 0 recoverable, < 0 fatal).
class SecondOrderOde {
 public:
  virtual ~SecondOrderOde() = default;
  // y' = [v; a] with M(q) a = f solved, at the start of a run.
  virtual int stateDerivative(double t, const double* y, double* ydot) = 0;
  // r = M(q) a - f(t, q, v) at y = [q; v]. With `matrices`, also keeps M, K_t and C_t at that state
  // for factorIteration(), from the same evaluation (its M is there, only the tangent is assembled);
  // without, r may come from the equations evaluated with the accelerations known, without M.
  virtual int accelerationResidual(double t, const double* y, const double* a, double* r, bool matrices) = 0;
  // Evaluates M, K_t and C_t at (t, y) and keeps them for factorIteration().
  virtual int evaluateIterationMatrices(double t, const double* y) = 0;
  // Factorizes S = M + c_v C_t + c_q K_t of the last evaluation.
  virtual int factorIteration(double c_v, double c_q) = 0;
  // x <- S^-1 x (half the state's size).
  virtual int solveIteration(double* x) = 0;
  // Whether new iteration matrices cost many iterations: factorIteration() factorizes a dense matrix
  // (n^3 / 3, many times a solve's n^2), or evaluateIterationMatrices() builds a dense n x n one.
  virtual bool costlyIterationMatrices() const { return true; }
};

// The failures of the one-step methods, and their words.
enum SecondOrderStepFlag { kStepTooSmall = -1, kModelFailed = -2, kSingularMatrix = -3 };

class SecondOrderStepper : public OdeIntegrator {
 public:
  int step(double& t) final;
  const double* state() const final { return y_.data(); }
  bool interpolate(double t, double* y_out) final;
  // The derivative of interpolate()'s rates: the steps' accelerations at both ends, third order in between.
  bool interpolateAccelerations(double t, double* a_out) final;
  bool localError(double* le) final;
  SolverStats stats() const final { return stats_; }
  std::string describe(int flag) const final;
  double currentTime() const final { return t_; }

 protected:
  // One attempt of a step of size h from (t_, y_, a_): 0 accepted (the state moved to its end, the
  // start kept in t_prev_, y_prev_, a_prev_, stats_.steps counted), > 0 to retry with h_, < 0 a
  // SecondOrderStepFlag.
  virtual int attempt(double h) = 0;
  // New iteration matrices at the start of the step (t_, y_): 0 evaluated, 1 not finite there (h_ set
  // to retry with h / 4), < 0 a SecondOrderStepFlag.
  int evaluateMatricesAtStart(double h);
  // Accepts the step of size h to t1 with end state [q; v] and accelerations a: the start moves to
  // t_prev_, y_prev_, a_prev_, the step is counted, and the matrices are one step older.
  void acceptStep(double t1, double h, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
                  const Eigen::Ref<const Eigen::VectorXd>& a);
  // ewt_ <- 1 / (rtol |y_| + atol), the error weights of the step's start.
  void weighStart();
  // The weighted root mean square of x in the weights ewt_ from `offset` on (x's length).
  double wrms(const Eigen::Ref<const Eigen::VectorXd>& x, int offset) const;

  SecondOrderOde* ode_ = nullptr;
  int n_ = 0;  // coordinates: the state has 2 n_
  double rtol_ = 1e-6, atol_ = 1e-8, max_step_ = 0.0, t_stop_ = 0.0;
  double t_ = 0.0, h_ = 0.0, t_prev_ = 0.0;
  Eigen::VectorXd y_, a_, y_prev_, a_prev_, ewt_;
  Eigen::VectorXd local_error_;  // of the last accepted step, [q; v] (set by attempt() before acceptStep())
  SolverStats stats_;
  long steps_since_matrices_ = 0;
  bool matrices_current_ = false;  // evaluated where the step being attempted starts
};

}  // namespace flexarm
