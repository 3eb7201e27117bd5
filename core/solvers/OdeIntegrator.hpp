#pragma once
// The integrators of the unconstrained models (OdeStepper.hpp): CVODE (BDF, Adams) and ARKODE (ESDIRK)
// on y' = f(t, y) (OdeRhs below), generalized-alpha and ESDIRK on M(q) a = f (SecondOrderOde,
// SecondOrderStepper.hpp). Each is started by its own init() on the form of the equations it integrates,
// then steps one internal step at a time, interpolates within the last step, and turns its flags into words.
#include <Eigen/Core>
#include <memory>
#include <string>

#include "model/Project.hpp"
#include "results/Results.hpp"
#include "base/Result.hpp"

namespace flexarm {

// The ODE right-hand side seen by the integrator. Return 0 on success, > 0 for a recoverable
// failure (CVODE retries with a smaller step), < 0 to stop the run.
class OdeRhs {
 public:
  virtual ~OdeRhs() = default;
  virtual int rhs(double t, const double* y, double* ydot) = 0;
  // The Jacobian df/dy (n x n, column-major storage) for the Newton iteration, when the right-hand
  // side can give one; same return convention as rhs().
  virtual bool hasJacobian() const { return false; }
  virtual int jacobian(double t, const double* y, Eigen::Map<Eigen::MatrixXd> J) {
    (void)t, (void)y, (void)J;
    return -1;
  }
  // The Newton systems (I - gamma df/dy) x = b, when the right-hand side sets them up and solves them
  // itself (cheaper than a dense matrix of the whole state): setupNewton at (t, y) for gamma,
  // evaluating the Jacobian again unless `jacobian_ok` (*evaluated says whether it did); solveNewton
  // overwrites b with x. Same return convention as rhs().
  virtual bool hasNewtonSolver() const { return false; }
  virtual int setupNewton(double t, const double* y, double gamma, bool jacobian_ok, bool* evaluated) {
    (void)t, (void)y, (void)gamma, (void)jacobian_ok, (void)evaluated;
    return -1;
  }
  virtual int solveNewton(double* x) {
    (void)x;
    return -1;
  }
};

class OdeIntegrator {
 public:
  virtual ~OdeIntegrator() = default;
  // One internal step towards t_stop. Returns the solver's flag (>= 0 success); t and y updated.
  virtual int step(double& t) = 0;
  virtual const double* state() const = 0;
  // Interpolated state at time t within the last step (dense output). Returns false on failure.
  virtual bool interpolate(double t, double* y_out) = 0;
  // The accelerations (the second half of y') at time t within the last step, when the method carries
  // them consistently with its dense output (generalized-alpha); false when it does not.
  virtual bool interpolateAccelerations(double t, double* a_out) {
    (void)t, (void)a_out;
    return false;
  }
  // The estimated local error of the last accepted step, absolute, in the state's layout (the
  // velocities' part may be zero where the method estimates the positions only); false when the
  // method gives none. The run's global error estimate sums it (ErrorEstimate.hpp).
  virtual bool localError(double* le) {
    (void)le;
    return false;
  }
  virtual SolverStats stats() const = 0;
  // Words for a flag, plus the last message the solver reported.
  virtual std::string describe(int flag) const = 0;
  virtual double currentTime() const = 0;
};

}  // namespace flexarm
