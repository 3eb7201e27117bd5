#pragma once
// The generalized-alpha method (Chung & Hulbert 1993) in the form of Arnold & Bruls (2007) for
// M(q) a = f(t, q, v), with adaptive steps: second order, and a spectral radius rho_inf at infinite
// frequency that sets how strongly the vibrations a step does not resolve are damped (1: none, the
// trapezoidal rule; 0: annihilated in one step) while the slow modes that carry the motion keep
// their amplitude and phase to second order. Each step solves for the acceleration a_{n+1}:
//   q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) abar_n + h^2 beta abar_{n+1}
//   v_{n+1} = v_n + h (1 - gamma) abar_n + h gamma abar_{n+1}
//   (1 - alpha_m) abar_{n+1} + alpha_m abar_n = (1 - alpha_f) a_{n+1} + alpha_f a_n
//   M(q_{n+1}) a_{n+1} = f(t_{n+1}, q_{n+1}, v_{n+1})
// by modified Newton with the iteration matrix M + c_v C_t + c_q K_t (TangentStiffness.hpp). Up to
// 100 coordinates, where a factorization is cheaper than an iteration, each step takes the matrices
// at its first iterate (the predicted state), from the evaluation that gives that iterate's residual;
// the later iterations' residuals may then be evaluated without M. Larger systems keep their matrices
// across steps while the iteration converges within two iterations, or four when their iteration
// matrix is dense, and then also keep its factorization over small changes of the step size. The
// iteration stops when its correction times the convergence rate is small, as CVODE's, in the
// positions and in the velocities (whose corrections are gamma / (beta h) times larger; with each
// step's own matrices, held to ten times the positions' tolerance). On fast-turning flexible arms the
// mass matrix itself changes quickly (Moolam et al.'s spatial RRR arm: the inertia a link's tip rotations carry follows the
// next joint's angle): matrices one step old, even with the exact velocity and inertial derivatives,
// took about 4 iterations per step there, those of the step's own first iterate 2.3 with the
// velocities at the positions' tolerance and 1.2 at ten times it. Anderson acceleration of
// the last three corrections recovers part of the rate the matrices lose.
// The local error of the positions, h^2 (delta/2 + beta - 1/6)(abar_{n+1} - abar_n)
// with delta = alpha_m - alpha_f, is held under rtol |q| + atol as with CVODE.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "solvers/OdeIntegrator.hpp"
#include "solvers/SecondOrderStepper.hpp"

namespace flexarm {

// The scheme's parameters for a spectral radius rho_inf and its formulas, shared by the method on
// M(q) a = f (below) and on the constrained equations (ConstrainedAlphaStepper.cpp).
struct AlphaScheme {
  double alpha_m = 0.0, alpha_f = 0.0, gamma = 0.5, beta = 0.25, error_constant = 1.0 / 12.0;
  AlphaScheme() = default;
  explicit AlphaScheme(double rho_inf)
      : alpha_m((2.0 * rho_inf - 1.0) / (rho_inf + 1.0)),
        alpha_f(rho_inf / (rho_inf + 1.0)),
        gamma(0.5 + alpha_f - alpha_m),
        beta(0.25 * (gamma + 0.5) * (gamma + 0.5)),
        error_constant(0.5 * (alpha_m - alpha_f) + beta - 1.0 / 6.0) {}
  // c_q = dq_{n+1}/da_{n+1} and c_v = dv_{n+1}/da_{n+1} for a step h.
  double cq(double h) const { return h * h * beta * ratio(); }
  double cv(double h) const { return h * gamma * ratio(); }
  double ratio() const { return (1.0 - alpha_f) / (1.0 - alpha_m); }
  // abar_{n+1}, q_{n+1} and v_{n+1} of a_{n+1} (a1), from q_n, v_n, a_n and abar_n.
  void follow(double h, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
              const Eigen::VectorXd& a, const Eigen::VectorXd& abar, const Eigen::VectorXd& a1, Eigen::VectorXd& abar1,
              Eigen::Ref<Eigen::VectorXd> q1, Eigen::Ref<Eigen::VectorXd> v1) const {
    abar1 = ((1.0 - alpha_f) * a1 + alpha_f * a - alpha_m * abar) / (1.0 - alpha_m);
    q1 = q + h * v + (h * h * (0.5 - beta)) * abar + (h * h * beta) * abar1;
    v1 = v + (h * (1.0 - gamma)) * abar + (h * gamma) * abar1;
  }
  // The local error of the positions, h^2 (delta/2 + beta - 1/6)(abar_{n+1} - abar_n), into `error`.
  void localError(double h, const Eigen::VectorXd& abar1, const Eigen::VectorXd& abar, Eigen::VectorXd& error) const {
    error = (error_constant * h * h) * (abar1 - abar);
  }
  // The next step over this one for a local error of weighted norm err (third order in h).
  static double stepFactor(double err) { return 0.9 * std::pow(std::max(err, 1e-12), -1.0 / 3.0); }
  // The next step over an accepted step h of error err, as stepFactor() of the larger of err and the
  // last accepted step's error scaled to h (third order). The estimate h^2 (abar_{n+1} - abar_n) is
  // noisy where the algorithmic accelerations ring (their homogeneous part alternates in sign,
  // -alpha_m / (1 - alpha_m) per step; the index-3 multipliers' accelerations more so): the same step size
  // read 0.049, then 3.5 after the step doubled on it (the File > New-like two-link arm), and 20-28 % of
  // the attempts failed the error test. Growing on one low reading alone was what failed. With the memory
  // the shipped projects took 3-37 % fewer attempts (the flexible four-bar 1 427 -> 1 269, 396 -> 122
  // failures) and every end effector came out as close to its reference or closer (docs/performance.md).
  class Controller {
   public:
    double factor(double err, double h) {
      const double remembered = last_h_ > 0.0 ? last_err_ * std::pow(h / last_h_, 3.0) : 0.0;
      last_err_ = err;
      last_h_ = h;
      return stepFactor(std::max(err, remembered));
    }

   private:
    double last_err_ = 0.0, last_h_ = 0.0;  // of the last accepted step
  };
  // The error test of a step h whose local error has weighted norm err: true when the step fails it,
  // with the step to try instead in h_retry (shrunk by 0.2 to 0.9).
  static bool failsErrorTest(double err, double h, double& h_retry) {
    if (err <= 1.0) return false;
    h_retry = h * std::clamp(stepFactor(err), 0.2, 0.9);
    return true;
  }
};

class GeneralizedAlphaIntegrator final : public SecondOrderStepper {
 public:
  // n: the state's size, twice the coordinates'. Returns what went wrong, if anything.
  Status init(SecondOrderOde& ode, int n, const double* y0, double t0, double t_stop, const SimulationSettings& settings);

 private:
  int attempt(double h) override;
  // More than kKeepMatricesUpTo coordinates whose iteration matrices are costly to factorize or to build
  // (SecondOrderOde::costlyIterationMatrices): kept longer (GeneralizedAlpha.cpp).
  bool costlyFactorization() const;
  AlphaScheme::Controller controller_;
  long stepsPerMatrices() const;
  // After the iteration's correction -r_ at a1_: moves a1_ to the next iterate (Anderson-accelerated).
  void accelerate(int iteration);
  static constexpr int kAndersonDepth = 3;

  AlphaScheme scheme_;
  double factored_cv_ = -1.0, factored_cq_ = -1.0;
  double rate_ = 1.0;  // the Newton iteration's convergence rate, estimated as CVODE's crate
  Eigen::VectorXd abar_;
  Eigen::VectorXd y1_, a1_, abar1_, r_, work_;
  Eigen::MatrixXd anderson_dF_, anderson_dA_;  // differences of the last corrections and iterates
  Eigen::VectorXd anderson_f_, anderson_a_, anderson_weight_;
  int anderson_count_ = 0;
};

}  // namespace flexarm
