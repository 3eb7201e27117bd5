#include "solvers/GglResidual.hpp"

#include <cmath>

namespace flexarm {

GglResidual::GglResidual(ConstrainedDynamics& cd) : cd_(cd), n_(cd.nq()), m_(cd.nc()) {}

std::vector<bool> GglResidual::differential() const {
  std::vector<bool> d(static_cast<std::size_t>(size()), false);
  for (int k = 0; k < 2 * n_; ++k) d[static_cast<std::size_t>(k)] = true;
  return d;
}

void GglResidual::assemble(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                           const Eigen::VectorXd& lambda, Eigen::VectorXd& y, Eigen::VectorXd& yp) const {
  y.resize(size());
  yp.resize(size());
  y << q, qd, lambda, Eigen::VectorXd::Zero(m_);
  yp << qd, qdd, Eigen::VectorXd::Zero(2 * m_);
}

int GglResidual::residual(double t, const double* y, const double* yp, double* r) {
  const int N = size();
  for (int k = 0; k < N; ++k)
    if (!std::isfinite(y[k]) || !std::isfinite(yp[k])) return 1;
  const Eigen::Map<const Eigen::VectorXd> q(y, n_), v(y + n_, n_), lambda(y + 2 * n_, m_), mu(y + 2 * n_ + m_, m_);
  const Eigen::Map<const Eigen::VectorXd> qp(yp, n_), vp(yp + n_, n_);
  Eigen::Map<Eigen::VectorXd> res(r, N);
  // M vp - f from the equations with the accelerations known (no mass matrix; the Jacobian builds it).
  const bool without_mass = cd_.abilities().exact_residual;
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

// The blocks of dF/dy + cj dF/dy', with G(w) = d(Phi_q^T w)/dq (the constraint forces' stiffness,
// ConstraintSet::addForceDerivative) and R = d(Phi_q v + Phi_t)/dq; the derivatives of the inertial
// terms are left out (TangentStiffness.hpp):
//   [cj I - G(mu)   -I             0       -Phi_q^T]
//   [K_t + G(lambda) cj M + C_t    Phi_q^T  0      ]
//   [Phi_q          0              0        0      ]
//   [R              Phi_q          0        0      ]
int GglResidual::jacobian(double t, double cj, const double* y, const double*, Eigen::Map<Eigen::MatrixXd> J) {
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
  J.block(0, n_, n_, n_).diagonal().setConstant(-1.0);
  J.block(0, 2 * n_ + m_, n_, m_) = -c.Phi_q.transpose();
  J.block(n_, 0, n_, n_) = K_;
  J.block(n_, n_, n_, n_) = cj * cd_.M() + C_;
  J.block(n_, 2 * n_, n_, m_) = c.Phi_q.transpose();
  J.block(2 * n_, 0, m_, n_) = c.Phi_q;
  J.block(2 * n_ + m_, n_, m_, n_) = c.Phi_q;
  // -G(mu), +G(lambda) and R from one sweep of the closures' Jacobian differences.
  std::vector<ConstraintSet::ForceTerm> force{{jmu_, -1.0, J.block(0, 0, n_, n_)}, {jlambda_, 1.0, J.block(n_, 0, n_, n_)}};
  Eigen::Ref<Eigen::MatrixXd> rate = J.block(2 * n_ + m_, 0, m_, n_);
  cd_.addConstraintDerivatives(jq_, force, jv_, &rate);
  return J.allFinite() ? 0 : 1;
}

}  // namespace flexarm
