#include "solvers/Esdirk.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/ArkodeIntegrator.hpp"

namespace flexarm {
namespace {
constexpr int kMaxNewtonIterations = 4;
constexpr double kNewtonTolerance = 0.1;  // correction size in units of the error weights (ARKODE's nlscoef)
// The iteration matrices are evaluated again after this many steps, or after an iteration that
// failed with older ones (CVODE re-evaluates its Jacobian every 51 steps, refactorizes every 20).
constexpr long kStepsPerIterationMatrix = 20;
// The factorization is kept while h gamma stays within this ratio of the factorized one (CVODE's dgmax).
constexpr double kStaleFactorization = 0.3;
constexpr double kMaxGrowth = 5.0;
// Up to this many coordinates every new step size is factorized (a factorization costs less than the
// iterations a stale one adds); larger systems keep a factorization within kStaleFactorization.
constexpr int kFactorizeEachStepUpTo = 100;
}  // namespace

Status EsdirkIntegrator::init(SecondOrderOde& ode, int n, const double* y0, double t0, double t_stop,
                              const SimulationSettings& s) {
  ode_ = &ode;
  if (n % 2 != 0) return error("the ESDIRK method on the residual form needs equations of motion in second-order form");
  const ButcherTable table = esdirkTable(s.max_order);
  stages_ = static_cast<int>(table.b.size());
  if (stages_ < 2 || table.d.size() != table.b.size())
    return error("the ESDIRK table of order " + std::to_string(s.max_order) + " cannot be loaded");
  a_table_ = table.A;
  b_ = table.b;
  c_ = table.c;
  d_ = table.d;
  embedded_order_ = std::min(table.order, table.embedded_order);
  gamma_ = a_table_[1][1];
  // Explicit first stage, one diagonal coefficient, stiffly accurate (b = the last row): the step's end
  // is the last stage, whose M a = f the Newton iteration has solved.
  bool esdirk = a_table_[0][0] == 0.0 && c_[0] == 0.0 && gamma_ > 0.0;
  for (int i = 1; i < stages_; ++i) esdirk = esdirk && a_table_[i][i] == gamma_;
  for (int j = 0; j < stages_; ++j) esdirk = esdirk && std::abs(b_[j] - a_table_[stages_ - 1][j]) <= 1e-14;
  if (!esdirk) return error("the method table is not a stiffly accurate ESDIRK table");
  n_ = n / 2;
  rtol_ = s.rtol;
  atol_ = s.atol;
  max_step_ = s.max_step;
  t_stop_ = t_stop;
  y_ = Eigen::Map<const Eigen::VectorXd>(y0, n);
  y_prev_ = y1_ = err_ = y_;
  Eigen::VectorXd ydot(n);
  if (ode.stateDerivative(t0, y0, ydot.data()) != 0)
    return error("the equations of motion cannot be evaluated at the initial state");
  a_ = a_prev_ = r_ = qpre_ = vpre_ = ydot.tail(n_);
  Q_.setZero(n_, stages_);
  V_.setZero(n_, stages_);
  A_.setZero(n_, stages_);
  stats_ = SolverStats{};
  stats_.rhs_evaluations = 1;
  t_ = t_prev_ = t0;
  h_ = s.initial_step > 0.0 ? s.initial_step : 1e-4 * std::max(t_stop - t0, 1e-3);
  factored_hg_ = -1.0;
  steps_since_matrices_ = kStepsPerIterationMatrix;  // evaluate them for the first step
  matrices_current_ = false;
  rate_ = 1.0;
  last_failed_ = false;
  h_last_ = err_last_ = err_last2_ = 0.0;
  return {};
}

int EsdirkIntegrator::solveStage(int i, double h, double t_stage) {
  const double hg = h * gamma_;
  auto A = A_.col(i);
  auto Q = Q_.col(i), V = V_.col(i);
  double previous = 0.0;
  for (int it = 0; it < kMaxNewtonIterations; ++it) {
    V = vpre_ + hg * A;
    Q = qpre_ + (hg * hg) * A;
    y1_.head(n_) = Q;
    y1_.tail(n_) = V;
    ++stats_.rhs_evaluations;
    const int r = ode_->accelerationResidual(t_stage, y1_.data(), A.data(), r_.data(), false);
    if (r < 0) return kModelFailed;
    if (r > 0) return 1;
    if (ode_->solveIteration(r_.data()) != 0) return 1;
    ++stats_.nonlinear_iterations;
    A -= r_;
    // The correction of the stage's positions and velocities (h gamma)^2 dA and h gamma dA, in the
    // error weights of the whole state; converged when it, times the convergence rate, is small (the
    // rate carried over from the last iteration that measured it, as CVODE's crate: the Newton error
    // an optimistic rate lets through enters the stages and so the step's error estimate).
    const double size = std::sqrt(0.5 * (std::pow(hg * hg * wrms(r_, 0), 2) + std::pow(hg * wrms(r_, n_), 2)));
    if (it > 0) rate_ = std::max(0.3 * rate_, size / previous);
    if (size * std::min(1.0, rate_) <= kNewtonTolerance) {
      V = vpre_ + hg * A;
      Q = qpre_ + (hg * hg) * A;
      return 0;
    }
    if (it > 0 && size > 2.0 * previous) return 1;  // diverging
    previous = size;
  }
  return 1;
}

void EsdirkIntegrator::predict(int i, double t_stage, double h) {
  // The known acceleration nearest in time: of this step's earlier stages or the last step's stages.
  // (Extrapolating through two to four of them took more iterations on the cantilever: the stages of
  // an oscillation 16 steps per period lie too far apart for a polynomial.)
  const double* nearest = A_.col(0).data();
  double distance = std::abs(t_stage - t_);
  auto consider = [&](double t, const double* a) {
    if (std::abs(t_stage - t) < distance) distance = std::abs(t_stage - t), nearest = a;
  };
  for (int j = 1; j < i; ++j) consider(t_ + c_[j] * h, A_.col(j).data());
  if (stats_.steps > 0)
    for (int j = 1; j < stages_ - 1; ++j) consider(t_prev_ + c_[j] * h_last_, A_last_.col(j).data());
  A_.col(i) = Eigen::Map<const Eigen::VectorXd>(nearest, n_);
}

int EsdirkIntegrator::attempt(double h) {
  const double hg = h * gamma_;
  const double t1 = t_stop_ - (t_ + h) < 1e-12 * h ? t_stop_ : t_ + h;
  weighStart();
  if (steps_since_matrices_ >= kStepsPerIterationMatrix) {
    if (const int r = evaluateMatricesAtStart(h); r != 0) return r;
    factored_hg_ = -1.0;
    rate_ = 1.0;  // measured again with them, as CVODE's crate after a new Jacobian
  }
  const bool stale =
      n_ > kFactorizeEachStepUpTo && factored_hg_ > 0.0 && std::abs(hg / factored_hg_ - 1.0) <= kStaleFactorization;
  if (!stale && hg != factored_hg_) {
    if (ode_->factorIteration(hg, hg * hg) != 0) return kSingularMatrix;
    factored_hg_ = hg;
    ++stats_.linear_setups;
  }

  const auto q = y_.head(n_), v = y_.tail(n_);
  Q_.col(0) = q;
  V_.col(0) = v;
  A_.col(0) = a_;
  for (int i = 1; i < stages_; ++i) {
    vpre_ = v;
    qpre_ = q;
    for (int j = 0; j < i; ++j) {
      const double aij = h * a_table_[i][j];
      vpre_ += aij * A_.col(j);
      qpre_ += aij * V_.col(j);
    }
    qpre_ += hg * vpre_;
    predict(i, t_ + c_[i] * h, h);
    const int r = solveStage(i, h, i == stages_ - 1 ? t1 : t_ + c_[i] * h);
    if (r < 0) return r;
    if (r > 0) {
      ++stats_.nonlinear_convergence_failures;
      last_failed_ = true;
      if (!matrices_current_) {  // the same step with matrices of its start
        steps_since_matrices_ = kStepsPerIterationMatrix;
        h_ = h;
      } else if (stale) {  // the same step with its own factorization
        factored_hg_ = -1.0;
        h_ = h;
      } else {
        h_ = 0.25 * h;
      }
      return 1;
    }
  }

  // The embedded method's error, h sum (b_j - d_j) [V_j; A_j], in the weights of the step's start.
  err_.setZero();
  for (int j = 0; j < stages_; ++j) {
    const double e = h * (b_[j] - d_[j]);
    err_.head(n_) += e * V_.col(j);
    err_.tail(n_) += e * A_.col(j);
  }
  // In the weights of the larger of each coordinate's values at the step's start and end, as DOPRI5
  // and ode45 weigh it: a vibration's velocity passing through zero at the start no longer shrinks
  // its tolerance to atol.
  for (int i = 0; i < n_; ++i) {
    ewt_(i) = 1.0 / (rtol_ * std::max(std::abs(y_(i)), std::abs(Q_(i, stages_ - 1))) + atol_);
    ewt_(n_ + i) = 1.0 / (rtol_ * std::max(std::abs(y_(n_ + i)), std::abs(V_(i, stages_ - 1))) + atol_);
  }
  const double err = wrms(err_, 0);
  // The next step from the largest error of this step and the two before: on a vibration the
  // estimate passes through zero twice per period, and growing the step from such a small one failed
  // the next step's test (the cantilever at rtol 1e-5: 171 failed steps of 726, now 37 of 565).
  const double factor = 0.9 * std::pow(std::max({err, err_last_, err_last2_, 1e-12}), -1.0 / (embedded_order_ + 1));
  if (!(err <= 1.0)) {
    ++stats_.error_test_failures;
    last_failed_ = true;
    h_ = h * (std::isfinite(err) ? std::clamp(0.9 * std::pow(err, -1.0 / (embedded_order_ + 1)), 0.2, 0.9) : 0.2);
    return 1;
  }
  local_error_ = err_;
  A_last_ = A_;
  h_last_ = h;
  err_last2_ = err_last_;
  err_last_ = err;
  acceptStep(t1, h, Q_.col(stages_ - 1), V_.col(stages_ - 1), A_.col(stages_ - 1));
  h_ = h * std::min(factor, last_failed_ ? 1.0 : kMaxGrowth);
  last_failed_ = false;
  return 0;
}

}  // namespace flexarm
