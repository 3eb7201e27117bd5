#include "solvers/SecondOrderStepper.hpp"

#include <algorithm>
#include <cmath>

namespace flexarm {

int SecondOrderStepper::step(double& t) {
  for (;;) {
    double h = std::min(h_, t_stop_ - t_);
    if (max_step_ > 0.0) h = std::min(h, max_step_);
    if (!(h > 1e-13 * std::max(1.0, std::abs(t_)))) return kStepTooSmall;
    const int r = attempt(h);
    if (r <= 0) {
      t = t_;
      return r;
    }
  }
}

int SecondOrderStepper::evaluateMatricesAtStart(double h) {
  const int r = ode_->evaluateIterationMatrices(t_, y_.data());
  if (r < 0) return kModelFailed;
  if (r > 0) {
    h_ = 0.25 * h;
    return 1;
  }
  ++stats_.jacobian_evaluations;
  steps_since_matrices_ = 0;
  matrices_current_ = true;
  return 0;
}

void SecondOrderStepper::acceptStep(double t1, double h, const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& v, const Eigen::Ref<const Eigen::VectorXd>& a) {
  y_prev_ = y_;
  a_prev_ = a_;
  t_prev_ = t_;
  y_.head(n_) = q;
  y_.tail(n_) = v;
  a_ = a;
  t_ = t1;
  ++stats_.steps;
  stats_.last_step = h;
  ++steps_since_matrices_;
  matrices_current_ = false;
}

void SecondOrderStepper::weighStart() {
  ewt_.resize(y_.size());
  for (Eigen::Index i = 0; i < y_.size(); ++i) ewt_(i) = 1.0 / (rtol_ * std::abs(y_(i)) + atol_);
}

double SecondOrderStepper::wrms(const Eigen::Ref<const Eigen::VectorXd>& x, int offset) const {
  if (x.size() == 0) return 0.0;
  return std::sqrt((x.array() * ewt_.segment(offset, x.size()).array()).square().mean());
}

bool SecondOrderStepper::interpolate(double t, double* y_out) {
  Eigen::Map<Eigen::VectorXd> out(y_out, 2 * n_);
  const double H = t_ - t_prev_;
  if (stats_.steps == 0 || H <= 0.0 || t >= t_) {
    out = y_;
    return stats_.steps == 0 || std::abs(t - t_) <= 1e-9 * std::max(1.0, std::abs(t_));
  }
  if (t < t_prev_ - 1e-12 * H) return false;
  const double s = (t - t_prev_) / H, s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  out.head(n_) = h00 * y_prev_.head(n_) + (h10 * H) * y_prev_.tail(n_) + h01 * y_.head(n_) + (h11 * H) * y_.tail(n_);
  out.tail(n_) = h00 * y_prev_.tail(n_) + (h10 * H) * a_prev_ + h01 * y_.tail(n_) + (h11 * H) * a_;
  return true;
}

bool SecondOrderStepper::interpolateAccelerations(double t, double* a_out) {
  Eigen::Map<Eigen::VectorXd> out(a_out, n_);
  const double H = t_ - t_prev_;
  if (stats_.steps == 0 || H <= 0.0 || t >= t_) {
    out = a_;
    return stats_.steps == 0 || std::abs(t - t_) <= 1e-9 * std::max(1.0, std::abs(t_));
  }
  if (t < t_prev_ - 1e-12 * H) return false;
  const double s = (t - t_prev_) / H, s2 = s * s;
  const double d00 = 6 * s2 - 6 * s, d10 = 3 * s2 - 4 * s + 1, d11 = 3 * s2 - 2 * s;
  out = (d00 / H) * (y_prev_.tail(n_) - y_.tail(n_)) + d10 * a_prev_ + d11 * a_;
  return true;
}

bool SecondOrderStepper::localError(double* le) {
  if (local_error_.size() != y_.size()) return false;
  Eigen::Map<Eigen::VectorXd>(le, y_.size()) = local_error_;
  return true;
}

std::string SecondOrderStepper::describe(int flag) const {
  switch (flag) {
    case kStepTooSmall:
      return "the step size became too small (the error test or the Newton iteration kept failing: the motion may be "
             "diverging or discontinuous)";
    case kModelFailed: return "the equations of motion could not be evaluated";
    case kSingularMatrix: return "the iteration matrix is singular";
    default: return "step failed";
  }
}

}  // namespace flexarm
