// Fixed-step Newmark-beta with Baumgarte-stabilized constraints (Pan et al. 1990, sec. 4).
#include <Eigen/Dense>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "solvers/ConstrainedStepper.hpp"

namespace flexarm {
namespace {

// Newmark-beta (alpha, delta) with the constraints at acceleration level, stabilized with Baumgarte
// terms from the previous step's violations (Pan et al. 1990, eqs. (50)-(54)):
//   M a + Phi_q^T lambda = f,   Phi_q a = h - 2 gamma Phi'_i - beta^2 Phi_i,
// with q, v of step i+1 from Newmark's formulas; solved by Newton on (a, lambda) with a
// finite-difference tangent of f.
class NewmarkStepper final : public ConstrainedStepper {
 public:
  NewmarkStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs, const SimulationSettings& s, double dt_out)
      : ConstrainedStepper(sys, cs), n_(sys.nq), m_(cs->size()), s_(s) {
    const double steps_per_output = std::max(1.0, std::ceil(dt_out / s.step - 1e-9));
    h_ = dt_out / steps_per_output;  // output times fall on steps
  }

  Status init(const Model& model, double t0) {
    if (Status consistent = cd_.initialConditions(model, t0, q_, v_, a_, lambda_); !consistent) return consistent;
    t_ = t0_ = t0;
    state_.resize(2 * n_);
    state_ << q_, v_;
    cd_.evaluate(t0, q_, v_);
    storeViolations();
    return {};
  }

  int step(double& t) override {
    const double alpha = s_.newmark_alpha, delta = s_.newmark_delta, h = h_;
    const double t1 = t0_ + static_cast<double>(steps_ + 1) * h;  // on the output grid, no accumulated rounding
    const Eigen::VectorXd q_pred = q_ + h * v_ + h * h * (0.5 - alpha) * a_;
    const Eigen::VectorXd v_pred = v_ + h * (1.0 - delta) * a_;
    Eigen::VectorXd a = a_, lambda = lambda_;
    Eigen::VectorXd q1, v1;
    Eigen::MatrixXd A(n_ + m_, n_ + m_);
    Eigen::VectorXd rhs(n_ + m_);
    bool converged = false;
    double last_da = 0.0, last_dl = 0.0;
    // Modified Newton: the finite-difference tangent is kept between steps and rebuilt every 50
    // steps, or when the iteration converges slowly with it.
    bool fresh = false;
    for (int it = 0; it < 30 && !converged; ++it) {
      q1 = q_pred + alpha * h * h * a;
      v1 = v_pred + delta * h * a;
      cd_.evaluate(t1, q1, v1);
      const ConstraintRows& c = cd_.rows();
      if (!c.error.empty()) {
        error_ = c.error;
        return -2;
      }
      const Eigen::MatrixXd M = cd_.M();
      const Eigen::VectorXd f = cd_.f();
      const Eigen::MatrixXd Phi_q = c.Phi_q;
      const Eigen::VectorXd target =
          c.h - 2.0 * s_.baumgarte_gamma * vel_violation_ - s_.baumgarte_beta * s_.baumgarte_beta * pos_violation_;
      rhs.head(n_) = -(M * a + Phi_q.transpose() * lambda - f);
      rhs.tail(m_) = -(Phi_q * a - target);
      // Tangent of -f with respect to a through q1 and v1: alpha h^2 K_t + delta h C_t (central differences).
      if (tangent_.rows() != n_ || steps_ % 50 == 0 || (it >= 6 && !fresh)) {
        tangent(t1, q1, v1, alpha * h * h, delta * h);
        fresh = true;
      }
      A.topLeftCorner(n_, n_) = M + tangent_;
      A.topRightCorner(n_, m_) = Phi_q.transpose();
      A.bottomLeftCorner(m_, n_) = Phi_q;
      A.bottomRightCorner(m_, m_).setZero();
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(A);
      const Eigen::VectorXd dx = lu.solve(rhs);
      if (!dx.allFinite()) {
        error_ = "the Newmark iteration matrix is singular (redundant constraints?)";
        return -3;
      }
      a += dx.head(n_);
      lambda += dx.tail(m_);
      const double da = dx.head(n_).norm(), dl = dx.tail(m_).norm();
      const double scale_a = 1.0 + a.norm(), scale_l = 1.0 + lambda.norm();
      converged = da <= 1e-10 * scale_a && dl <= 1e-10 * scale_l;
      // The corrections stopped shrinking within 100 times the tolerance: the residual's round-off,
      // which no iteration removes (a pendulum held by a point at its fastest: 1.8e-9 on |a| = 9.3).
      const bool stalled = it >= 2 && da >= 0.9 * last_da && dl >= 0.9 * last_dl;
      converged = converged || (stalled && da <= 1e-8 * scale_a && dl <= 1e-8 * scale_l);
      last_da = da;
      last_dl = dl;
      ++evaluations_;
    }
    if (!converged) {
      error_ = "the Newmark iteration did not converge (reduce simulation.solver.step, now " + formatShort(h) + " s)";
      return -4;
    }
    q_ = q_pred + alpha * h * h * a;
    v_ = v_pred + delta * h * a;
    a_ = a;
    lambda_ = lambda;
    t_ = t1;
    t = t1;
    ++steps_;
    state_ << q_, v_;
    cd_.evaluate(t_, q_, v_);
    storeViolations();
    return 0;
  }

  const double* state() const override { return state_.data(); }
  int stateSize() const override { return 2 * n_; }
  bool record(double t, Results& results) override {
    if (std::abs(t - t_) > 1e-9 * h_) {
      error_ = "Newmark output at t = " + formatShort(t, 9) + " s is not on a step (t = " + formatShort(t_, 9) + " s)";
      return false;
    }
    return recordState(t, q_, v_, results);
  }
  std::string describe(int flag) const override {
    (void)flag;
    return "Newmark step failed";
  }
  double currentTime() const override { return t_; }
  SolverStats stats() const override {
    SolverStats st;
    st.steps = steps_;
    st.rhs_evaluations = evaluations_;
    st.last_step = h_;
    return st;
  }

 private:
  void storeViolations() {
    const ConstraintRows& c = cd_.rows();
    pos_violation_ = c.phi;
    vel_violation_ = c.Phi_q * v_ + c.phi_t;
  }
  // tangent_ = d(-f)/dq * cq + d(-f)/dv * cv at (q, v), central differences.
  void tangent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double cq, double cv) {
    tangent_.setZero(n_, n_);
    Eigen::VectorXd qq = q, vv = v;
    for (int k = 0; k < n_; ++k) {
      const double eq = 1e-7 * (1.0 + std::abs(q(k))), ev = 1e-7 * (1.0 + std::abs(v(k)));
      qq(k) = q(k) + eq;
      cd_.evaluate(t, qq, v);
      Eigen::VectorXd fp = cd_.f();
      qq(k) = q(k) - eq;
      cd_.evaluate(t, qq, v);
      tangent_.col(k) -= cq * (fp - cd_.f()) / (2 * eq);
      qq(k) = q(k);
      vv(k) = v(k) + ev;
      cd_.evaluate(t, q, vv);
      fp = cd_.f();
      vv(k) = v(k) - ev;
      cd_.evaluate(t, q, vv);
      tangent_.col(k) -= cv * (fp - cd_.f()) / (2 * ev);
      vv(k) = v(k);
      evaluations_ += 4;
    }
    cd_.evaluate(t, q, v);  // leave the state where the caller evaluated it
  }

  int n_, m_;
  SimulationSettings s_;
  double h_ = 1e-3, t_ = 0.0, t0_ = 0.0;
  long steps_ = 0, evaluations_ = 0;
  Eigen::VectorXd q_, v_, a_, lambda_, state_, pos_violation_, vel_violation_;
  Eigen::MatrixXd tangent_;
};

}  // namespace

Result<std::unique_ptr<Stepper>> makeNewmarkStepper(const RunSetup& run, std::vector<Channel>& channels) {
  Result<std::shared_ptr<const ConstraintSet>> cs = runConstraints(run);
  if (!cs) return cs.error();
  auto nm = std::make_unique<NewmarkStepper>(run.sys, cs.value(), run.settings, run.dt_out);
  channels = nm->channels();
  if (Status started = nm->init(run.model(), run.t0); !started) return started.error();
  return std::unique_ptr<Stepper>(std::move(nm));
}

}  // namespace flexarm
