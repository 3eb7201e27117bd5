#pragma once
// The constrained equations in their stabilized index-2 form (Gear, Gupta & Leimkuhler 1985) as the
// residual F(t, y, y') = 0 of a DAE solver, with its iteration matrix dF/dy + cj dF/dy':
//   y = [q, v, lambda, mu]:  q' = v + Phi_q^T mu,  M v' + Phi_q^T lambda = f,  Phi = 0,  Phi_q v + Phi_t = 0.
// Positions and velocities stay on the constraints; mu = 0 in the exact solution.
#include <string>
#include <vector>

#include "dynamics/ConstrainedDynamics.hpp"
#include "solvers/IdaIntegrator.hpp"

namespace flexarm {

class GglResidual final : public DaeResidual {
 public:
  explicit GglResidual(ConstrainedDynamics& cd);

  int size() const { return 2 * n_ + 2 * m_; }
  // The first 2 nq entries (q, v) are differential, the multipliers algebraic.
  std::vector<bool> differential() const;
  // y and y' from a consistent state: y' = [qd, qdd, 0, 0] (the multipliers' rates are not needed).
  void assemble(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, const Eigen::VectorXd& lambda,
                Eigen::VectorXd& y, Eigen::VectorXd& yp) const;

  int residual(double t, const double* y, const double* yp, double* r) override;
  bool hasJacobian() const override { return true; }
  int jacobian(double t, double cj, const double* y, const double* yp, Eigen::Map<Eigen::MatrixXd> J) override;

  // Why the last evaluation stopped the run (a sliding link that left its support), or empty.
  const std::string& error() const { return error_; }

 private:
  ConstrainedDynamics& cd_;
  int n_, m_;
  std::string error_;
  Eigen::VectorXd jq_, jv_, jlambda_, jmu_;  // the Jacobian's state
  Eigen::MatrixXd K_, C_;
};

}  // namespace flexarm
