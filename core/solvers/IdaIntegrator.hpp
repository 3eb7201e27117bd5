#pragma once
// A thin owner of a SUNDIALS IDA instance for F(t, y, y') = 0 (BDF, Newton with a dense analytic or
// difference-quotient iteration matrix), with algebraic variables excluded from the error test and the
// Newton iteration's convergence test, every return flag turned into words. Mirrors CvodeIntegrator.
#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "results/Results.hpp"
#include "base/Result.hpp"

namespace flexarm {

// The residual seen by the integrator. Return 0 on success, > 0 for a recoverable failure (IDA
// retries with a smaller step), < 0 to stop the run.
class DaeResidual {
 public:
  virtual ~DaeResidual() = default;
  virtual int residual(double t, const double* y, const double* yp, double* r) = 0;
  // The iteration matrix dF/dy + cj dF/dy' (n x n, column-major storage), when the residual can give
  // one; same return convention as residual().
  virtual bool hasJacobian() const { return false; }
  virtual int jacobian(double t, double cj, const double* y, const double* yp, Eigen::Map<Eigen::MatrixXd> J) {
    (void)t, (void)cj, (void)y, (void)yp, (void)J;
    return -1;
  }
};

class IdaIntegrator {
 public:
  IdaIntegrator();
  ~IdaIntegrator();
  IdaIntegrator(const IdaIntegrator&) = delete;
  IdaIntegrator& operator=(const IdaIntegrator&) = delete;

  // y0, yp0 must be consistent. differential[k] is true for a differential variable, false for an
  // algebraic one (a multiplier). Returns an empty string or what went wrong.
  Status init(DaeResidual& res, int n, const double* y0, const double* yp0, const std::vector<bool>& differential, double t0,
              double t_stop, const SimulationSettings& settings);
  // One internal step towards t_stop. Returns the IDA flag (>= 0 success); t, y and y' updated.
  int step(double& t);
  const double* state() const;
  // y and y' at time t within the last step (dense output). Returns false on failure.
  bool interpolate(double t, double* y_out, double* yp_out);
  // The estimated local error of the last accepted step (y's layout, absolute).
  bool localError(double* le);
  SolverStats stats() const;
  std::string describe(int flag) const;
  double currentTime() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flexarm
