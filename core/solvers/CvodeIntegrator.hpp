#pragma once
// A thin owner of a SUNDIALS CVODE instance: BDF (Newton + dense direct solver) or Adams
// (fixed-point iteration), every return flag turned into words.
#include <memory>

#include "solvers/OdeIntegrator.hpp"

namespace flexarm {

class CvodeIntegrator final : public OdeIntegrator {
 public:
  CvodeIntegrator();
  ~CvodeIntegrator();
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  // Returns what went wrong, if anything.
  Status init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop, const SimulationSettings& settings);
  int step(double& t) override;
  const double* state() const override;
  bool interpolate(double t, double* y_out) override;
  bool localError(double* le) override;
  SolverStats stats() const override;
  std::string describe(int flag) const override;
  double currentTime() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flexarm
