// The constrained steppers: IDA on the stabilized index-2 (GGL) DAE, and fixed-step Newmark-beta
// with Baumgarte stabilization (seed 003 sec. 4). Both enforce prescribed joints and the model's
// constraints with Lagrange multipliers and record the constraint violations.
#include <Eigen/Dense>
#include <cmath>
#include <memory>

#include "dynamics/ConstrainedDynamics.hpp"
#include "base/NumberFormat.hpp"
#include "results/ChannelRecorder.hpp"
#include "solvers/IdaIntegrator.hpp"
#include "solvers/Stepper.hpp"

namespace flexarm {
namespace {

// What both constrained steppers share: the equations, the recorder, and recording a state.
class ConstrainedBase : public Stepper {
 public:
  ConstrainedBase(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs)
      : cs_(std::move(cs)), cd_(sys, *cs_), recorder_(sys, cs_.get()) {
    slots_.resize(static_cast<std::size_t>(sys.nq));
    for (int i = 0; i < sys.nq; ++i) slots_[static_cast<std::size_t>(i)] = i;  // q leads the state
    violations_.assign(2 * cs_->groups().size(), 0.0);
  }
  std::vector<Channel> channels() const { return recorder_.channels(); }
  const std::vector<int>& coordinateSlots() const override { return slots_; }
  std::string modelError() const override { return error_; }

 protected:
  // Records (q, qd) at t, with the accelerations and multipliers that the equations give there.
  bool recordState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Results& results) {
    cd_.evaluate(t, q, qd);
    if (!cd_.rows().error.empty()) {
      error_ = cd_.rows().error;
      return false;
    }
    if (!cd_.solveAccelerations(cd_.rows().h, qdd_, lambda_)) {
      error_ = "the constraint equations became singular (redundant constraints?)";
      return false;
    }
    cd_.prepareRecord(qdd_, lambda_);
    for (std::size_t g = 0; g < cd_.constraints().groups().size(); ++g) {
      violations_[2 * g] = cd_.positionViolation(static_cast<int>(g));
      violations_[2 * g + 1] = cd_.velocityViolation(static_cast<int>(g), qd);
    }
    recorder_.record(t, cd_.forward(), results, &violations_);
    return true;
  }

  std::shared_ptr<const ConstraintSet> cs_;  // first: the equations refer to it
  ConstrainedDynamics cd_;
  ChannelRecorder recorder_;
  std::vector<int> slots_;
  std::vector<double> violations_;
  Eigen::VectorXd qdd_, lambda_;
  std::string error_;
};

// y = [q, v, lambda, mu]:  q' = v + Phi_q^T mu,  M v' + Phi_q^T lambda = f,  Phi = 0,  Phi_q v + Phi_t = 0
// (Gear, Gupta & Leimkuhler 1985): positions and velocities stay on the constraints; mu = 0 in the exact solution.
class IdaStepper final : public ConstrainedBase, public DaeResidual {
 public:
  IdaStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs)
      : ConstrainedBase(sys, cs), n_(sys.nq), m_(cs->size()) {}

  Status init(const Model& model, double t0, double t_end, const SimulationSettings& s) {
    Eigen::VectorXd q, qd, qdd, lambda;
    if (Status consistent = cd_.initialConditions(model, t0, q, qd, qdd, lambda); !consistent) return consistent;
    const int N = 2 * n_ + 2 * m_;
    y_ = yp_ = yout_ = ypout_ = Eigen::VectorXd::Zero(N);
    y_ << q, qd, lambda, Eigen::VectorXd::Zero(m_);
    yp_ << qd, qdd, Eigen::VectorXd::Zero(2 * m_);
    std::vector<bool> differential(static_cast<std::size_t>(N), false);
    for (int k = 0; k < 2 * n_; ++k) differential[static_cast<std::size_t>(k)] = true;
    const Status e = ida_.init(*this, N, y_.data(), yp_.data(), differential, t0, t_end, s);
    if (!e) return errorAt("solver set-up failed", e.error().text());
    return {};
  }

  int residual(double t, const double* y, const double* yp, double* r) override {
    const int N = 2 * n_ + 2 * m_;
    for (int k = 0; k < N; ++k)
      if (!std::isfinite(y[k]) || !std::isfinite(yp[k])) return 1;
    const Eigen::Map<const Eigen::VectorXd> q(y, n_), v(y + n_, n_), lambda(y + 2 * n_, m_), mu(y + 2 * n_ + m_, m_);
    const Eigen::Map<const Eigen::VectorXd> qp(yp, n_), vp(yp + n_, n_);
    Eigen::Map<Eigen::VectorXd> res(r, N);
    // M vp - f from the equations with the accelerations known (no mass matrix; the Jacobian builds it).
    const bool without_mass = cd_.hasInertialResidual();
    if (without_mass)
      cd_.inertialResidual(t, q, v, vp, res.segment(n_, n_));
    else
      cd_.evaluate(t, q, v);
    const ConstraintRows& c = cd_.rows();
    if (!c.error.empty()) {
      error_ = c.error;
      return -1;
    }
    res.segment(0, n_) = qp - v - c.Phi_q.transpose() * mu;
    if (without_mass)
      res.segment(n_, n_) += c.Phi_q.transpose() * lambda;
    else
      res.segment(n_, n_) = cd_.M() * vp + c.Phi_q.transpose() * lambda - cd_.f();
    res.segment(2 * n_, m_) = c.phi;
    res.segment(2 * n_ + m_, m_) = c.Phi_q * v + c.phi_t;
    return res.allFinite() ? 0 : 1;
  }

  // y = [q, v, lambda, mu]. The blocks of dF/dy + cj dF/dy', with G(w) = d(Phi_q^T w)/dq (the
  // constraint forces' stiffness, ConstraintSet::addForceDerivative) and R = d(Phi_q v + Phi_t)/dq;
  // the derivatives of the inertial terms are left out (TangentStiffness.hpp):
  //   [cj I - G(mu)   -I             0       -Phi_q^T]
  //   [K_t + G(lambda) cj M + C_t    Phi_q^T  0      ]
  //   [Phi_q          0              0        0      ]
  //   [R              Phi_q          0        0      ]
  bool hasJacobian() const override { return true; }
  int jacobian(double t, double cj, const double* y, const double*, Eigen::Map<Eigen::MatrixXd> J) override {
    jq_ = Eigen::Map<const Eigen::VectorXd>(y, n_);
    jv_ = Eigen::Map<const Eigen::VectorXd>(y + n_, n_);
    jlambda_ = Eigen::Map<const Eigen::VectorXd>(y + 2 * n_, m_);
    jmu_ = Eigen::Map<const Eigen::VectorXd>(y + 2 * n_ + m_, m_);
    cd_.evaluate(t, jq_, jv_);
    const ConstraintRows& c = cd_.rows();
    if (!c.error.empty()) {
      error_ = c.error;
      return -1;
    }
    cd_.forward().tangent(K_, C_);
    J.setZero();
    J.block(0, 0, n_, n_).diagonal().setConstant(cj);
    cd_.addConstraintForceDerivative(jq_, jmu_, -1.0, J.block(0, 0, n_, n_));
    J.block(0, n_, n_, n_).diagonal().setConstant(-1.0);
    J.block(0, 2 * n_ + m_, n_, m_) = -c.Phi_q.transpose();
    J.block(n_, 0, n_, n_) = K_;
    cd_.addConstraintForceDerivative(jq_, jlambda_, 1.0, J.block(n_, 0, n_, n_));
    J.block(n_, n_, n_, n_) = cj * cd_.M() + C_;
    J.block(n_, 2 * n_, n_, m_) = c.Phi_q.transpose();
    J.block(2 * n_, 0, m_, n_) = c.Phi_q;
    cd_.constraintRateDerivative(jq_, jv_, J.block(2 * n_ + m_, 0, m_, n_));
    J.block(2 * n_ + m_, n_, m_, n_) = c.Phi_q;
    return J.allFinite() ? 0 : 1;
  }

  int step(double& t) override {
    ++steps_;
    return ida_.step(t);
  }
  const double* state() const override { return ida_.state(); }
  int stateSize() const override { return 2 * n_ + 2 * m_; }
  bool record(double t, Results& results) override {
    if (steps_ == 0) return recordState(t, y_.head(n_), y_.segment(n_, n_), results);
    if (!ida_.interpolate(t, yout_.data(), ypout_.data())) {
      error_ = "could not interpolate the state";
      return false;
    }
    return recordState(t, yout_.head(n_), yout_.segment(n_, n_), results);
  }
  std::string describe(int flag) const override { return ida_.describe(flag); }
  double currentTime() const override { return ida_.currentTime(); }
  bool localError(double* le) override { return ida_.localError(le); }
  SolverStats stats() const override { return ida_.stats(); }

 private:
  int n_, m_;
  long steps_ = 0;
  IdaIntegrator ida_;
  Eigen::VectorXd y_, yp_, yout_, ypout_, jq_, jv_, jlambda_, jmu_;  // jq_ ...: the Jacobian's state
  Eigen::MatrixXd K_, C_;
};

// Newmark-beta (alpha, delta) with the constraints at acceleration level, stabilized with Baumgarte
// terms from the previous step's violations (seed 003 eqs. (50)-(54)):
//   M a + Phi_q^T lambda = f,   Phi_q a = h - 2 gamma Phi'_i - beta^2 Phi_i,
// with q, v of step i+1 from Newmark's formulas; solved by Newton on (a, lambda) with a
// finite-difference tangent of f.
class NewmarkStepper final : public ConstrainedBase {
 public:
  NewmarkStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs, const SimulationSettings& s, double dt_out)
      : ConstrainedBase(sys, cs), n_(sys.nq), m_(cs->size()), s_(s) {
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
      converged = dx.head(n_).norm() <= 1e-10 * (1.0 + a.norm()) && dx.tail(m_).norm() <= 1e-10 * (1.0 + lambda.norm());
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

Result<std::unique_ptr<Stepper>> makeConstrainedStepper(const Project& project, const MultibodySystem& sys, double t0,
                                                        double t_end, double dt_out, std::vector<Channel>& channels) {
  auto cs = std::make_shared<ConstraintSet>();
  if (Status built = cs->build(sys, project.model, true); !built) return built.error();
  const SimulationSettings& s = project.simulation;
  if (s.method == SimulationSettings::Method::Ida) {
    auto ida = std::make_unique<IdaStepper>(sys, cs);
    channels = ida->channels();
    if (Status started = ida->init(project.model, t0, t_end, s); !started) return started.error();
    return std::unique_ptr<Stepper>(std::move(ida));
  }
  auto nm = std::make_unique<NewmarkStepper>(sys, cs, s, dt_out);
  channels = nm->channels();
  if (Status started = nm->init(project.model, t0); !started) return started.error();
  return std::unique_ptr<Stepper>(std::move(nm));
}

}  // namespace flexarm
