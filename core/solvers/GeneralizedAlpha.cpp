#include "solvers/GeneralizedAlpha.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

namespace flexarm {
namespace {
// With the Anderson acceleration below the iteration keeps contracting where plain modified Newton
// stalls, so it is given two more iterations than CVODE's three-to-five before the step is shrunk.
constexpr int kMaxNewtonIterations = 7;
constexpr long kStepsPerIterationMatrix = 20;  // as CVODE: the matrices are re-evaluated at least this often
constexpr double kNewtonTolerance = 0.05;      // correction size, in units of the error weights
// With the matrices of the step's own first iterate (up to kKeepMatricesUpTo coordinates) the iteration
// contracts by a factor of 100 to 1000 per iteration (Moolam et al.'s spatial RRR arm), so that rate x size
// is a sound estimate of the error left, and the velocities are held to ten times the positions' tolerance:
// their corrections are gamma / (beta h) times the positions' (in the same weights, a few hundred times at
// 4 ms steps) while the error test reads the positions only, so that with the positions' tolerance nearly
// every step took a second iteration for its velocities alone, at no gain in the joint rates
// (docs/performance.md has the counts). Larger systems whose matrices are costly (below) held them to ten
// times the positions' tolerance too: with the positions' own (and new matrices after a step of more than
// four iterations), three spatial links of 50 elements each took 4.9 iterations per step and 467 matrices
// for 759 steps; with ten times it (and the matrices' policy below) 5.3 and 201 for 748, the end effector
// as close to a run at a tenth of the accuracy (7.2e-5 of its excursion against 7.4e-5) and the joint rates
// over 3 s within 2.7 % of a BDF run at rtol 3e-9 (2.2 % before) at 1.4 to 1.7 times the speed. They now
// hold them to a hundred times it (kLargeSystemVelocityWeight): with it and the rate-credited test below,
// 4.3 iterations per step and 102 matrices for 742 steps instead of 5.0 and 143 for 712, the end effector,
// the worst tip and the joint rates as close to a run at rtol 1e-7 or closer (7.9e-5, 4.4e-2 and 4.0e-2 of
// their excursions against 8.6e-5, 5.0e-2 and 4.5e-2; over 3 s 4.3e-4, 3.2e-2 and 2.6e-2 against 5.2e-4,
// 3.5e-2 and 3.0e-2); in the velocities' weights their first corrections are 30 to 100 times the
// positions', and the positions had converged after one or two of the iterations the velocities held. On
// the small systems (seed 004, Canadarm2) a hundred times it saves 1-4 % of the instructions, and their
// calibrated tolerances keep ten times. Other large systems, whose matrices are cheap and re-evaluated
// after any step of more than two iterations, hold them to the positions' tolerance.
constexpr double kVelocityWeight = 0.1;
constexpr double kLargeSystemVelocityWeight = 0.01;
// Up to this many coordinates a factorization (n^3 / 3) costs less than an evaluation of the equations.
constexpr int kKeepMatricesUpTo = 100;
// Larger systems whose iteration matrices cost tens of iterations (a dense factorization, n^3 / 3
// against n^2 per solve, or a dense n x n assembly; costlyFactorization()):
//  - keep their factorization while c_q = beta h^2 (1 - alpha_f) / (1 - alpha_m) stays within this
//    ratio of the factorized one (the step size within about 14 %), as CVODE does with gamma; a
//    failed iteration with it repeats the step with a factorization for it;
//  - re-evaluate their matrices every kLargeSystemStepsPerIterationMatrix steps, or after a step that
//    took more than kIterationsBeforeNewMatrices iterations: the iteration is slow where the tangent
//    leaves out the inertial terms' velocity derivatives (Coriolis, gyroscopic: on the arm above up to
//    8 % of the iteration matrix in its worst direction), and there fresh matrices hardly speed it up
//    (matrices every step: 4.2 iterations per step instead of 4.9), so only a step that nearly failed
//    (more than four iterations before: 2.3 times the matrices for 7 % fewer iterations) asks for them;
//  - grow the step only when it can double (the error estimate a tenth of the tolerance): growing
//    by 20 % at a time refactorized every few steps (docs/performance.md).
constexpr double kStaleFactorization = 0.3;
constexpr long kLargeSystemStepsPerIterationMatrix = 50;
constexpr int kIterationsBeforeNewMatrices = 6;
constexpr double kLargeSystemGrowth = 2.0;
}  // namespace

Status GeneralizedAlphaIntegrator::init(SecondOrderOde& ode, int n, const double* y0, double t0, double t_stop,
                                        const SimulationSettings& s) {
  ode_ = &ode;
  if (n % 2 != 0) return error("the generalized-alpha method needs equations of motion in second-order form");
  n_ = n / 2;
  rtol_ = s.rtol;
  atol_ = s.atol;
  max_step_ = s.max_step;
  t_stop_ = t_stop;
  const double rho = s.rho_inf;
  scheme_ = AlphaScheme(rho);
  controller_ = AlphaScheme::Controller();
  y_ = Eigen::Map<const Eigen::VectorXd>(y0, n);
  y1_ = y_prev_ = y_;
  Eigen::VectorXd ydot(n);
  const int r = ode.stateDerivative(t0, y0, ydot.data());
  if (r != 0) return error("the equations of motion cannot be evaluated at the initial state");
  a_ = abar_ = a_prev_ = a1_ = abar1_ = r_ = work_ = ydot.tail(n_);
  stats_ = SolverStats{};
  stats_.rhs_evaluations = 1;
  anderson_dF_.setZero(n_, kAndersonDepth);
  anderson_dA_.setZero(n_, kAndersonDepth);
  anderson_f_ = anderson_a_ = anderson_weight_ = Eigen::VectorXd::Zero(n_);
  t_ = t_prev_ = t0;
  h_ = s.initial_step > 0.0 ? s.initial_step : 1e-4 * std::max(t_stop - t0, 1e-3);
  steps_since_matrices_ = stepsPerMatrices();  // evaluate them for the first step
  rate_ = 1.0;
  return {};
}

bool GeneralizedAlphaIntegrator::costlyFactorization() const { return n_ > kKeepMatricesUpTo && ode_->costlyIterationMatrices(); }

long GeneralizedAlphaIntegrator::stepsPerMatrices() const {
  return costlyFactorization() ? kLargeSystemStepsPerIterationMatrix : kStepsPerIterationMatrix;
}

void GeneralizedAlphaIntegrator::accelerate(int iteration) {
  // The modified Newton step is the fixed-point map a <- a + f(a) with f = -S^-1 r(a). Anderson
  // (Walker & Ni 2011, type II): with the differences dF, dA of the last f's and a's, the next iterate
  // is a + f - (dA + dF) g, g minimizing |f - dF g| in the weights of the convergence test.
  if (iteration == 0) {
    anderson_count_ = 0;
  } else {  // the oldest pair is replaced
    const int slot = (iteration - 1) % kAndersonDepth;
    anderson_dF_.col(slot) = -r_ - anderson_f_;
    anderson_dA_.col(slot) = a1_ - anderson_a_;
    anderson_count_ = std::min(anderson_count_ + 1, kAndersonDepth);
  }
  anderson_f_ = -r_;
  anderson_a_ = a1_;
  a1_ += anderson_f_;
  const int k = anderson_count_;
  if (k == 0) return;
  // Normal equations of the weighted least squares (k <= kAndersonDepth columns): fixed-size, no allocation.
  Eigen::Matrix<double, kAndersonDepth, kAndersonDepth> N;
  Eigen::Matrix<double, kAndersonDepth, 1> b;
  const auto w2 = anderson_weight_.array().square();
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j <= i; ++j) N(i, j) = N(j, i) = (anderson_dF_.col(i).array() * anderson_dF_.col(j).array() * w2).sum();
    b(i) = (anderson_dF_.col(i).array() * anderson_f_.array() * w2).sum();
  }
  auto Nk = N.topLeftCorner(k, k);
  Nk.diagonal().array() += 1e-12 * Nk.trace() + std::numeric_limits<double>::min();
  const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kAndersonDepth, 1> g = Nk.ldlt().solve(b.head(k));
  if (!g.allFinite()) return;  // the plain step
  for (int i = 0; i < k; ++i) a1_ -= g(i) * (anderson_dA_.col(i) + anderson_dF_.col(i));
}

int GeneralizedAlphaIntegrator::attempt(double h) {
  const double c_q = scheme_.cq(h), c_v = scheme_.cv(h);
  const double t1 = t_stop_ - (t_ + h) < 1e-12 * h ? t_stop_ : t_ + h;
  const auto q = y_.head(n_), v = y_.tail(n_);
  weighStart();

  // Up to kKeepMatricesUpTo coordinates the first residual of the step gives the matrices (below).
  const bool matrices_each_step = n_ <= kKeepMatricesUpTo;
  if (!matrices_each_step && steps_since_matrices_ >= stepsPerMatrices()) {
    if (const int r = evaluateMatricesAtStart(h); r != 0) return r;
    factored_cv_ = factored_cq_ = -1.0;
  }
  const bool other_step = c_v != factored_cv_ || c_q != factored_cq_;
  const bool stale_factorization =
      other_step && costlyFactorization() && factored_cq_ > 0.0 && std::abs(c_q / factored_cq_ - 1.0) <= kStaleFactorization;
  auto factorize = [&] {
    if (ode_->factorIteration(c_v, c_q) != 0) return false;
    factored_cv_ = c_v;
    factored_cq_ = c_q;
    ++stats_.linear_setups;
    return true;
  };
  if (!matrices_each_step && other_step && !stale_factorization && !factorize()) return kSingularMatrix;

  // Newton on a_{n+1}, from the last accelerations extrapolated; q_{n+1} and v_{n+1} follow it linearly.
  if (stats_.steps > 0 && t_ > t_prev_)
    a1_ = a_ + (h / (t_ - t_prev_)) * (a_ - a_prev_);  // linear extrapolation
  else
    a1_ = a_;
  auto follow = [&] { scheme_.follow(h, q, v, a_, abar_, a1_, abar1_, y1_.head(n_), y1_.tail(n_)); };
  for (int i = 0; i < n_; ++i) anderson_weight_(i) = std::hypot(c_q * ewt_(i), c_v * ewt_(n_ + i));
  const bool fresh = matrices_each_step || (steps_since_matrices_ <= 1 && !stale_factorization);
  bool converged = false;
  double previous = 0.0;
  int iterations = 0;
  for (int it = 0; it < kMaxNewtonIterations; ++it) {
    iterations = it + 1;
    follow();
    ++stats_.rhs_evaluations;
    const bool take_matrices = matrices_each_step && it == 0;
    const int r = ode_->accelerationResidual(t1, y1_.data(), a1_.data(), r_.data(), take_matrices);
    if (r < 0) return kModelFailed;
    if (r > 0) break;  // not finite: a smaller step
    if (take_matrices) {
      ++stats_.jacobian_evaluations;
      if (!factorize()) return kSingularMatrix;
    }
    if (ode_->solveIteration(r_.data()) != 0) break;
    accelerate(it);
    ++stats_.nonlinear_iterations;
    // The correction's size in the positions and in the velocities (c_v / c_q = gamma / (beta h) times
    // larger): a test on the positions alone accepts at loose tolerances velocities that are off by far
    // more than their tolerance, and a spurious fast vibration grows in them (kVelocityWeight).
    const double velocity_weight =
        matrices_each_step ? kVelocityWeight : (costlyFactorization() ? kLargeSystemVelocityWeight : 1.0);
    const double size = std::max(c_q * wrms(r_, 0), velocity_weight * c_v * wrms(r_, n_));
    // Converged when the correction, times the convergence rate, is small (CVODE's test). The first
    // iteration takes the rate of earlier steps only while the matrices are at most one step old; from
    // the second on the step measures its own (at least 0.3 times the carried one), whatever the
    // matrices' age. Before, older matrices were held to the correction alone: three spatial links of
    // 50 elements each took 5.3 iterations per step and 201 matrices for 748 steps, then 5.0 and 143 for
    // 712 (callgrind: 15 % fewer instructions), the end effector 8.6e-5 of its excursion from a run at
    // rtol 1e-7 against 7.9e-5, the worst tip 5.0e-2 against 4.4e-2, with the velocities then at
    // ten times; kLargeSystemVelocityWeight (above) brought both below where they were before.
    if (it > 0) rate_ = std::max(0.3 * rate_, size / previous);
    if ((fresh || it > 0 ? size * std::min(1.0, rate_) : size) <= kNewtonTolerance) {
      converged = true;
      break;
    }
    // Not contracting: the first accelerated iterates may raise the correction while the differences
    // are gathered, so only from the fourth iteration on.
    if (it > 2 && size > 0.9 * previous) break;
    previous = size;
  }
  if (!converged) {
    ++stats_.nonlinear_convergence_failures;
    if (stale_factorization) {  // the same step with the matrices factorized for it
      factored_cv_ = factored_cq_ = -1.0;
      h_ = h;
      return 1;
    }
    if (!matrices_current_ && !matrices_each_step) {
      steps_since_matrices_ = stepsPerMatrices();  // same step with fresh matrices
      return 1;
    }
    h_ = 0.25 * h;
    return 1;
  }
  follow();

  // Local error of the positions; the step is accepted when its weighted norm is <= 1.
  scheme_.localError(h, abar1_, abar_, work_);
  const double err = wrms(work_, 0);
  if (AlphaScheme::failsErrorTest(err, h, h_)) {
    ++stats_.error_test_failures;
    return 1;
  }
  const double factor = controller_.factor(err, h);
  local_error_.setZero(2 * n_);  // the positions' estimate; the velocities have none
  local_error_.head(n_) = work_;
  acceptStep(t1, h, y1_.head(n_), y1_.tail(n_), a1_);
  abar_ = abar1_;
  // Larger systems re-evaluate their matrices when the iteration slows down (the inertial terms the
  // tangent leaves out change quickly on fast-turning arms).
  if (!matrices_each_step && iterations > (costlyFactorization() ? kIterationsBeforeNewMatrices : 2))
    steps_since_matrices_ = stepsPerMatrices();
  // A new step size only when it pays for a new factorization: shrink when needed, grow by >= 20 %
  // (a costly factorization: only when the step can double).
  if (factor < 1.0 || factor >= (costlyFactorization() ? kLargeSystemGrowth : 1.2)) h_ = h * std::min(factor, 2.0);
  return 0;
}

}  // namespace flexarm
