#include "dynamics/ForwardDynamics.hpp"

#include <cmath>
#include <sstream>

#include "dynamics/Crba.hpp"
#include "dynamics/Rnea.hpp"

namespace flexarm {

ForwardDynamics::ForwardDynamics(const MultibodySystem& sys) : sys_(sys), data_(sys) {
  for (int i = 0; i < sys.nq; ++i) {
    if (sys.drives[i].kind == JointDrive::Kind::Prescribed)
      prescribed_.push_back(i);
    else
      free_.push_back(i);
  }
  q_ = qd_ = qdd_ = effort_ = Eigen::VectorXd::Zero(sys.nq);
  const int nf = static_cast<int>(free_.size());
  rhs_f_ = Eigen::VectorXd::Zero(nf);
  M_ff_ = Eigen::MatrixXd::Zero(nf, nf);
  llt_ = Eigen::LLT<Eigen::MatrixXd>(nf);
}

void ForwardDynamics::initialState(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, double* y) const {
  const std::size_t nf = free_.size();
  for (std::size_t k = 0; k < nf; ++k) {
    y[k] = q0(free_[k]);
    y[nf + k] = qd0(free_[k]);
  }
}

void ForwardDynamics::assemble(double t, const double* y) {
  const std::size_t nf = free_.size();
  for (std::size_t k = 0; k < nf; ++k) {
    q_(free_[k]) = y[k];
    qd_(free_[k]) = y[nf + k];
    qdd_(free_[k]) = 0.0;
  }
  for (int i : prescribed_) {
    const TimeSample s = sys_.drives[i].law.evaluate(t);
    q_(i) = s.value;
    qd_(i) = s.rate;
    qdd_(i) = s.accel;
  }
}

bool ForwardDynamics::evaluate(double t, const double* y, double* ydot) {
  failure_ = Failure::None;
  assemble(t, y);
  // b = h(q, qd) + M[:, p] qdd_p
  const Eigen::VectorXd& b = rnea(sys_, data_, q_, qd_, qdd_);
  const int nf = static_cast<int>(free_.size());
  for (int k = 0; k < nf; ++k) {
    const int i = free_[k];
    effort_(i) = sys_.drives[i].effort(t, q_(i), qd_(i));
    rhs_f_(k) = effort_(i) - sys_.joint_damping[i] * qd_(i) - b(i);
  }
  for (int i : prescribed_) effort_(i) = b(i);  // completed below once qdd_f is known
  if (nf > 0) {
    const Eigen::MatrixXd& M = crba(sys_, data_, q_);
    for (int r = 0; r < nf; ++r)
      for (int c = 0; c < nf; ++c) M_ff_(r, c) = M(free_[r], free_[c]);
    llt_.compute(M_ff_);
    if (llt_.info() != Eigen::Success) {
      failure_ = Failure::NotPositiveDefinite;
      failure_t_ = t;
      return false;
    }
    llt_.solveInPlace(rhs_f_);
    for (int k = 0; k < nf; ++k) qdd_(free_[k]) = rhs_f_(k);
    for (int i : prescribed_) {
      double s = 0.0;
      for (int k = 0; k < nf; ++k) s += M(i, free_[k]) * rhs_f_(k);
      effort_(i) += s + sys_.joint_damping[i] * qd_(i);
    }
  } else {
    for (int i : prescribed_) effort_(i) += sys_.joint_damping[i] * qd_(i);
  }
  for (int k = 0; k < nf; ++k) {
    ydot[k] = qd_(free_[k]);
    ydot[nf + k] = qdd_(free_[k]);
  }
  for (int k = 0; k < 2 * nf; ++k) {
    if (!std::isfinite(ydot[k])) {
      failure_ = Failure::NonFinite;
      failure_t_ = t;
      return false;
    }
  }
  return true;
}

std::string ForwardDynamics::error() const {
  std::ostringstream os;
  switch (failure_) {
    case Failure::None: return {};
    case Failure::NotPositiveDefinite:
      os << "the mass matrix of the free coordinates is not positive definite at t = " << failure_t_
         << " s (a massless or inertia-free body that a joint moves?)";
      break;
    case Failure::NonFinite:
      os << "the accelerations are not finite at t = " << failure_t_ << " s";
      break;
  }
  return os.str();
}

}  // namespace flexarm
