#pragma once
// A thin owner of a SUNDIALS ARKODE (ARKStep) instance running a diagonally implicit Runge-Kutta
// method that is L-stable and stiffly accurate (ESDIRK of order 3, 4 or 5): the stiff, undamped
// axial and torsion modes of steel links are damped by a step that does not resolve them, while the
// slow modes that carry the energy are integrated at high order. Newton with the same analytic
// iteration matrix and dense direct solver as CVODE BDF; every return flag turned into words.
#include <memory>
#include <vector>

#include "solvers/OdeIntegrator.hpp"

namespace flexarm {

// A Butcher table: y_{n+1} = y_n + h sum b_j k_j, stages at t_n + c_i h with coefficients A (rows),
// the embedded method's weights d.
struct ButcherTable {
  int order = 0, embedded_order = 0;
  std::vector<std::vector<double>> A;
  std::vector<double> b, c, d;
};
// ARKODE's L-stable, stiffly accurate ESDIRK table of `dirk` for max_order (3, 4 or 0, 5).
ButcherTable esdirkTable(int max_order);

class ArkodeIntegrator final : public OdeIntegrator {
 public:
  ArkodeIntegrator();
  ~ArkodeIntegrator();
  ArkodeIntegrator(const ArkodeIntegrator&) = delete;
  ArkodeIntegrator& operator=(const ArkodeIntegrator&) = delete;

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
