// IDA on the constrained equations in their stabilized index-2 form (Gear, Gupta & Leimkuhler 1985).
#include <cmath>

#include "solvers/ConstrainedStepper.hpp"
#include "solvers/IdaIntegrator.hpp"

namespace flexarm {
namespace {

// y = [q, v, lambda, mu]:  q' = v + Phi_q^T mu,  M v' + Phi_q^T lambda = f,  Phi = 0,  Phi_q v + Phi_t = 0
// (Gear, Gupta & Leimkuhler 1985): positions and velocities stay on the constraints; mu = 0 in the exact solution.
class IdaStepper final : public ConstrainedStepper, public DaeResidual {
 public:
  IdaStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs)
      : ConstrainedStepper(sys, cs), n_(sys.nq), m_(cs->size()) {}

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

}  // namespace

Result<std::unique_ptr<Stepper>> makeIdaStepper(const RunSetup& run, std::vector<Channel>& channels) {
  Result<std::shared_ptr<const ConstraintSet>> cs = runConstraints(run);
  if (!cs) return cs.error();
  auto ida = std::make_unique<IdaStepper>(run.sys, cs.value());
  channels = ida->channels();
  if (Status started = ida->init(run.project.model, run.t0, run.t_end, run.project.simulation); !started) return started.error();
  return std::unique_ptr<Stepper>(std::move(ida));
}

}  // namespace flexarm
