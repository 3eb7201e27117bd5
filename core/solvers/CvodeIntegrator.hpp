#pragma once
// A thin owner of a SUNDIALS CVODE instance: BDF (Newton + dense direct solver) or Adams
// (fixed-point iteration), every return flag turned into words.
#include <Eigen/Core>
#include <memory>
#include <string>

#include "model/Project.hpp"
#include "results/Results.hpp"

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
};

class CvodeIntegrator {
 public:
  CvodeIntegrator();
  ~CvodeIntegrator();
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  // Returns an empty string or what went wrong.
  std::string init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop, const SimulationSettings& settings);
  // One internal step towards t_stop. Returns the CVODE flag (>= 0 success); t and y updated.
  int step(double& t);
  const double* state() const;
  // Interpolated state at time t within the last step (dense output). Returns false on failure.
  bool interpolate(double t, double* y_out);
  SolverStats stats() const;
  // Words for a CVODE flag, plus the last message CVODE reported.
  std::string describe(int flag) const;
  double currentTime() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flexarm
