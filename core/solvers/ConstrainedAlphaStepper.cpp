// Generalized-alpha with the constraints and their multipliers: the index-3 form of Arnold & Bruls
// (2007), with adaptive steps (GeneralizedAlpha.hpp has the unconstrained method and its parameters).
// Each step solves for the accelerations a_{n+1} and the multipliers lambda_{n+1}:
//   M(q_{n+1}) a_{n+1} + Phi_q(q_{n+1})^T lambda_{n+1} = f(t_{n+1}, q_{n+1}, v_{n+1}),
//   Phi(q_{n+1}, t_{n+1}) / c_q = 0,
// with q_{n+1}, v_{n+1} from the generalized-alpha formulas in a_{n+1} (c_q = dq_{n+1}/da_{n+1},
// c_v = dv_{n+1}/da_{n+1}; the constraint rows scaled by 1 / c_q so that the iteration matrix is the
// symmetric [S, Phi_q^T; Phi_q, 0], S = M + c_v C_t + c_q (K_t + d(Phi_q^T lambda)/dq), and its
// condition does not grow as h^-2). Newton on the exact residual with an iteration matrix taken at
// the first iterate of a step and kept over the following steps (below); the convergence and error
// tests and the step-size control of the unconstrained method: the local error of the positions
// h^2 (delta/2 + beta - 1/6)(abar_{n+1} - abar_n) under rtol |q| + atol. The positions stay on the
// constraints to the iteration's tolerance; the velocities are not projected on their constraint (the
// index-3 form): their violation is of the order of the local error and is recorded
// (constraint.<name>.vel). Unresolved vibrations are damped as rho_inf says.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "solvers/ConstrainedStepper.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/SecondOrderStepper.hpp"

namespace flexarm {
namespace {

constexpr int kMaxNewtonIterations = 7;
constexpr double kNewtonTolerance = 0.05;  // the correction's size in units of the error weights
constexpr double kVelocityWeight = 0.1;    // the velocities held to ten times the positions' tolerance
constexpr int kMaxAttemptsPerStep = 60;
// The iteration matrix costs an evaluation with the mass matrix, the tangent and the closures'
// Jacobian differences (twice a closure's Jacobian per coordinate that moves it: on the palletizer
// 58 % of a run that took new matrices each step), several times an iteration. It is kept while c_q
// stays within this ratio of the factorized one (the step within about 14 %, CVODE's rule for gamma),
// for at most kStepsPerFactorization steps, and until a step takes more than
// kIterationsBeforeNewMatrix iterations; an iteration that fails with a kept matrix repeats the step
// with a new one. On the shipped mechanisms (auto, rtol 5e-5): 2 to 4 times fewer matrices (the
// palletizer 374 for 1 161 steps), the palletizer 1.3 to 1.7 times faster, the others 1.0 to 1.4 times,
// the same accuracy.
constexpr double kStaleFactorization = 0.3;
constexpr long kStepsPerFactorization = 20;
constexpr int kIterationsBeforeNewMatrix = 3;

class ConstrainedAlphaStepper final : public ConstrainedStepper {
 public:
  ConstrainedAlphaStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs, const SimulationSettings& s,
                          double t_end)
      : ConstrainedStepper(sys, cs),
        n_(sys.nq),
        m_(cs->size()),
        rtol_(s.rtol),
        atol_(s.atol),
        max_step_(s.max_step),
        t_stop_(t_end),
        scheme_(s.rho_inf),
        h_(s.initial_step) {}

  Status init(const Model& model, double t0) {
    Eigen::VectorXd q, v;
    if (Status consistent = cd_.initialConditions(model, t0, q, v, a_, mult_); !consistent) return consistent;
    y_.resize(2 * n_);
    y_ << q, v;
    y_prev_ = y_;
    abar_ = a_prev_ = a_;
    t_ = t_prev_ = t0;
    if (h_ <= 0.0) h_ = 1e-4 * std::max(t_stop_ - t0, 1e-3);
    q1_.resize(n_);  // written through references (AlphaScheme::follow)
    v1_.resize(n_);
    kkt_.resize(n_ + m_, n_ + m_);
    r_.resize(n_ + m_);
    local_error_ = Eigen::VectorXd::Zero(2 * n_);
    return {};
  }

  int step(double& t) override {
    for (int attempts = 0; attempts < kMaxAttemptsPerStep; ++attempts) {
      double h = h_;
      if (max_step_ > 0.0) h = std::min(h, max_step_);
      if (t_ + h > t_stop_ || t_stop_ - (t_ + h) < 1e-12 * h) h = t_stop_ - t_;
      if (!(h > 1e-14 * std::max(1.0, std::abs(t_)))) return kStepTooSmall;
      const int r = attempt(h);
      if (r < 0) return r;
      if (r == 0) {
        t = t_;
        return 0;
      }
    }
    return kStepTooSmall;
  }

  const double* state() const override { return y_.data(); }
  int stateSize() const override { return 2 * n_; }

  bool record(double t, Results& results) override {
    if (stats_.steps == 0 || std::abs(t - t_) <= 1e-12 * std::max(1.0, std::abs(t_)))
      return recordState(t, y_.head(n_), y_.tail(n_), results);
    // Cubic Hermite within the last step: the positions with their rates, the rates with the accelerations.
    const double h = t_ - t_prev_, s = (t - t_prev_) / h;
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s), h01 = s * s * (3 - 2 * s),
                 h11 = s * s * (s - 1);
    const auto q0 = y_prev_.head(n_), v0 = y_prev_.tail(n_), q1 = y_.head(n_), v1 = y_.tail(n_);
    q_out_ = h00 * q0 + h10 * h * v0 + h01 * q1 + h11 * h * v1;
    v_out_ = h00 * v0 + h10 * h * a_prev_ + h01 * v1 + h11 * h * a_;
    return recordState(t, q_out_, v_out_, results);
  }

  std::string describe(int flag) const override {
    switch (flag) {
      case kStepTooSmall:
        return "the generalized-alpha step with constraints became too small at t = " + formatShort(t_, 6) +
               " s (the Newton iteration or the error test kept failing)";
      case kModelFailed: return "the model could not be evaluated";
      case kSingularMatrix:
        return "the iteration matrix with the constraints is singular at t = " + formatShort(t_, 6) +
               " s (redundant constraints, or a coordinate without mass that nothing holds)";
      default: return "generalized-alpha step failed (flag " + std::to_string(flag) + ")";
    }
  }
  double currentTime() const override { return t_; }
  bool localError(double* le) override {
    if (stats_.steps == 0) return false;
    Eigen::Map<Eigen::VectorXd>(le, 2 * n_) = local_error_;
    return true;
  }
  SolverStats stats() const override { return stats_; }

 private:
  // M a - f + Phi_q^T lambda into r_.head(n), Phi / c_q into r_.tail(m); the rows of (t, q, v) in cd_.
  bool residual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& a,
                const Eigen::VectorXd& lambda, double c_q) {
    if (cd_.abilities().exact_residual) {
      cd_.inertialResidual(t, q, v, a, r_.head(n_));
    } else {
      cd_.evaluate(t, q, v);
      r_.head(n_).noalias() = cd_.M() * a - cd_.f();
    }
    const ConstraintRows& c = cd_.rows();
    if (!c.error.empty()) {
      error_ = c.error;
      return false;
    }
    r_.head(n_).noalias() += c.Phi_q.transpose() * lambda;
    r_.tail(m_) = c.phi / c_q;
    return true;
  }

  // The iteration matrix at (t, q, v) with multipliers lambda, factorized.
  bool factorize(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& lambda, double c_v,
                 double c_q) {
    cd_.evaluate(t, q, v);
    cd_.forward().tangent(K_, C_);
    auto S = kkt_.topLeftCorner(n_, n_);
    S = cd_.M() + c_v * C_ + c_q * K_;
    cd_.addConstraintForceDerivative(q, lambda, c_q, S);
    kkt_.topRightCorner(n_, m_) = cd_.rows().Phi_q.transpose();
    kkt_.bottomLeftCorner(m_, n_) = cd_.rows().Phi_q;
    kkt_.bottomRightCorner(m_, m_).setZero();
    if (!kkt_.allFinite()) return false;
    lu_.compute(kkt_);
    factored_cq_ = c_q;
    steps_since_factorization_ = 0;
    ++stats_.jacobian_evaluations;
    ++stats_.linear_setups;
    return true;
  }

  double wrms(const Eigen::Ref<const Eigen::VectorXd>& x, int offset) const {
    return std::sqrt((x.array() * ewt_.segment(offset, x.size()).array()).square().mean());
  }

  int attempt(double h) {
    const double c_q = scheme_.cq(h), c_v = scheme_.cv(h);
    const double t1 = t_stop_ - (t_ + h) < 1e-12 * h ? t_stop_ : t_ + h;
    const auto q = y_.head(n_), v = y_.tail(n_);
    ewt_.resize(2 * n_);
    for (int i = 0; i < 2 * n_; ++i) ewt_(i) = 1.0 / (rtol_ * std::abs(y_(i)) + atol_);
    // From the last accelerations and multipliers extrapolated.
    if (stats_.steps > 0 && t_ > t_prev_) {
      a1_ = a_ + (h / (t_ - t_prev_)) * (a_ - a_prev_);
      mult1_ = mult_ + (h / (t_ - t_prev_)) * (mult_ - mult_prev_);
    } else {
      a1_ = a_;
      mult1_ = mult_;
    }
    auto follow = [&] { scheme_.follow(h, q, v, a_, abar_, a1_, abar1_, q1_, v1_); };
    const bool kept = factored_cq_ > 0.0 && std::abs(c_q / factored_cq_ - 1.0) <= kStaleFactorization &&
                      steps_since_factorization_ < kStepsPerFactorization;
    bool converged = false;
    int iterations = 0;
    double previous = 0.0, rate = 1.0;
    for (int it = 0; it < kMaxNewtonIterations; ++it) {
      follow();
      ++stats_.rhs_evaluations;
      if (!residual(t1, q1_, v1_, a1_, mult1_, c_q)) return kModelFailed;
      if (!r_.allFinite()) break;  // a smaller step
      if (it == 0 && !kept && !factorize(t1, q1_, v1_, mult1_, c_v, c_q)) {
        if (!kkt_.allFinite()) break;
        return kSingularMatrix;
      }
      dx_ = lu_.solve(r_);
      if (!dx_.allFinite()) return kSingularMatrix;
      a1_ -= dx_.head(n_);
      mult1_ -= dx_.tail(m_);
      ++stats_.nonlinear_iterations;
      iterations = it + 1;
      const double size = std::max(c_q * wrms(dx_.head(n_), 0), kVelocityWeight * c_v * wrms(dx_.head(n_), n_));
      if (it > 0) rate = std::max(0.3 * rate, size / previous);
      if (size * std::min(1.0, rate) <= kNewtonTolerance) {
        converged = true;
        break;
      }
      if (it > 1 && size > 0.9 * previous) break;
      previous = size;
    }
    if (!converged) {
      ++stats_.nonlinear_convergence_failures;
      factored_cq_ = -1.0;  // new matrices for the retry
      if (!kept) h_ = 0.25 * h;
      return 1;
    }
    follow();
    // The local error of the positions; the step is accepted when its weighted norm is <= 1.
    scheme_.localError(h, abar1_, abar_, work_);
    const double err = wrms(work_, 0);
    if (AlphaScheme::failsErrorTest(err, h, h_)) {
      ++stats_.error_test_failures;
      return 1;
    }
    const double factor = controller_.factor(err, h);
    local_error_.head(n_) = work_;
    t_prev_ = t_;
    y_prev_ = y_;
    a_prev_ = a_;
    mult_prev_ = mult_;
    t_ = t1;
    y_ << q1_, v1_;
    a_ = a1_;
    abar_ = abar1_;
    mult_ = mult1_;
    ++stats_.steps;
    stats_.last_step = h;
    ++steps_since_factorization_;
    if (iterations > kIterationsBeforeNewMatrix) factored_cq_ = -1.0;
    if (factor < 1.0 || factor >= 1.2) h_ = h * std::min(factor, 2.0);
    return 0;
  }

  int n_, m_;
  double rtol_, atol_, max_step_, t_stop_;
  AlphaScheme scheme_;
  AlphaScheme::Controller controller_;
  double h_ = 0.0, t_ = 0.0, t_prev_ = 0.0;
  double factored_cq_ = -1.0;  // c_q of the factorized iteration matrix; -1: none to keep
  long steps_since_factorization_ = 0;
  Eigen::VectorXd y_, y_prev_, a_, a_prev_, abar_, mult_, mult_prev_, ewt_, local_error_;
  Eigen::VectorXd a1_, abar1_, mult1_, q1_, v1_, r_, dx_, work_, q_out_, v_out_;
  Eigen::MatrixXd kkt_, K_, C_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  SolverStats stats_;
};

}  // namespace

Result<std::unique_ptr<Stepper>> makeConstrainedAlphaStepper(const RunSetup& run, std::vector<Channel>& channels) {
  Result<std::shared_ptr<const ConstraintSet>> cs = runConstraints(run);
  if (!cs) return cs.error();
  auto ga = std::make_unique<ConstrainedAlphaStepper>(run.sys, cs.value(), run.settings, run.t_end);
  channels = ga->channels();
  if (Status started = ga->init(run.model(), run.t0); !started) return started.error();
  return std::unique_ptr<Stepper>(std::move(ga));
}

}  // namespace flexarm
