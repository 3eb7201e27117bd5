#pragma once
// The equations of a constrained system, for the constrained solvers:
//   M(q) qdd + Phi_q^T lambda = f(q, qd, t),   Phi(q, t) = 0,
// where f = Q - b are the applied, internal and velocity-dependent forces with every coordinate
// free (prescribed joints are constraint rows, their drive effort is -lambda).
#include <string>

#include "dynamics/Constraints.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "base/Result.hpp"

namespace flexarm {

class ConstrainedDynamics {
 public:
  // `constraints` must have been built for `sys` with prescribed drives as constraints.
  ConstrainedDynamics(const MultibodySystem& sys, const ConstraintSet& constraints);

  int nq() const { return sys_.nq; }
  int nc() const { return cs_.size(); }
  const ConstraintSet& constraints() const { return cs_; }
  ForwardDynamics& forward() { return fd_; }

  // M, f and the constraint rows at (t, q, qd).
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
  Eigen::Ref<const Eigen::MatrixXd> M() const { return fd_.massMatrix(); }
  const Eigen::VectorXd& f() const { return fd_.residualForce(); }
  const ConstraintRows& rows() const { return rows_; }
  // What its evaluations can give: inertialResidual() is M qdd - f where abilities().exact_residual.
  const ForwardDynamics::Abilities& abilities() const { return fd_.abilities(); }
  // r = M(q) qdd - f(q, qd, t) from one pass of the equations with the accelerations qdd known (linear
  // in the mesh, no mass matrix), and the constraint rows at (t, q, qd). M() is then of an earlier
  // state: evaluate() before reading it.
  void inertialResidual(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                        Eigen::Ref<Eigen::VectorXd> r);
  // scale d(Phi_q^T w)/dq added to out (nq x nq), and d(Phi_q qd + Phi_t)/dq into out (nc x nq):
  // ConstraintSet::addForceDerivative and rateDerivative.
  void addConstraintForceDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& w, double scale,
                                    Eigen::Ref<Eigen::MatrixXd> out) {
    cs_.addForceDerivative(q, w, scale, out);
  }
  void constraintRateDerivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::Ref<Eigen::MatrixXd> out) {
    cs_.rateDerivative(q, qd, out);
  }
  // Both force terms and the rate from one sweep (ConstraintSet::addDerivatives).
  void addConstraintDerivatives(const Eigen::VectorXd& q, std::vector<ConstraintSet::ForceTerm>& force, const Eigen::VectorXd& qd,
                                Eigen::Ref<Eigen::MatrixXd>* out_rate) {
    cs_.addDerivatives(q, force, qd, out_rate);
  }

  // After evaluate(): solves [M Phi_q^T; Phi_q 0] [qdd; lambda] = [f; c]. Returns false when the
  // system is singular (redundant constraints, or a coordinate without mass nothing holds).
  bool solveAccelerations(const Eigen::VectorXd& c, Eigen::VectorXd& qdd, Eigen::VectorXd& lambda);

  // Consistent initial conditions at t0 from the model's values: links with an initial load take
  // their static shape; positions are projected onto Phi = 0 (Gauss-Newton, least change), rates
  // onto Phi_q qd + Phi_t = 0; then qdd and lambda follow from the equations; or what prevents it.
  Status initialConditions(const Model& model, double t0, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd,
                           Eigen::VectorXd& lambda);

  // Leaves the forward-dynamics state ready for ChannelRecorder: accelerations, and the effort of
  // each prescribed joint's drive from its multiplier. Call after evaluate() at the same state.
  void prepareRecord(const Eigen::VectorXd& qdd, const Eigen::VectorXd& lambda);

  // Norms of the position and velocity violations of constraint group g after evaluate().
  double positionViolation(int g) const;
  double velocityViolation(int g, const Eigen::VectorXd& qd) const;

 private:
  const MultibodySystem& sys_;
  const ConstraintSet& cs_;
  ForwardDynamics fd_;
  ConstraintRows rows_;
  Eigen::VectorXd y_;
  Eigen::MatrixXd kkt_;
  Eigen::VectorXd kkt_rhs_;
};

// The static deflection of the links that have an initial load, with the other coordinates at q
// and constraint rows `rows` (may be empty) held: K_EE e + Phi_E^T lambda = F_E, Phi = 0.
// An error says why there is no static equilibrium.
Status applyInitialLoads(const MultibodySystem& sys, const Model& model, const ConstraintRows* rows, Eigen::VectorXd& q);

}  // namespace flexarm
