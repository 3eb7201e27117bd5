#pragma once
// The one interface of a time integration method as a run sees it (every method of the table in
// Integrators.hpp makes one): the loop of simulate() steps it, checks its state, records the output
// times each step passes, and reports progress, failure, cancellation and divergence.
//   - OdeStepper.hpp: the methods on the ODE of the free coordinates (CVODE BDF and Adams, ARKODE
//     ESDIRK, generalized-alpha, ESDIRK on M(q) a = f);
//   - ConstrainedStepper.hpp: the methods with multipliers (IDA on the index-2 DAE, Newmark with
//     Baumgarte stabilization).
#include <memory>
#include <string>
#include <vector>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "base/Result.hpp"

namespace flexarm {

class Stepper {
 public:
  virtual ~Stepper() = default;
  // One step from t; t is updated. Returns >= 0 on success, a solver flag < 0 otherwise.
  virtual int step(double& t) = 0;
  // The state after the last step, and where each coordinate sits in it (-1: not in the state).
  virtual const double* state() const = 0;
  virtual int stateSize() const = 0;
  virtual const std::vector<int>& coordinateSlots() const = 0;
  // Records the output row at time t (within the last step). Returns false with modelError() set.
  virtual bool record(double t, Results& results) = 0;
  // Words for a failed step's flag; the model's own error, if any.
  virtual std::string describe(int flag) const = 0;
  virtual std::string modelError() const = 0;
  virtual double currentTime() const = 0;
  // The estimated local error of the last step in state()'s layout (absolute), when the method gives one.
  virtual bool localError(double* le) {
    (void)le;
    return false;
  }
  virtual SolverStats stats() const = 0;
};

// What a method's factory gets: the discretized system (and through it the model), the settings with
// their method concrete (not auto) and their tolerances set, and the run's span and output interval.
struct RunSetup {
  const MultibodySystem& sys;
  const SimulationSettings& settings;
  double t0, t_end, dt_out;
  const Model& model() const { return *sys.model; }
};

// Makes a method's stepper at its initial state, or says why it cannot start; `channels` receives the
// channels the stepper records (constraint violations included), also when it cannot start.
using StepperFactory = Result<std::unique_ptr<Stepper>> (*)(const RunSetup& run, std::vector<Channel>& channels);

}  // namespace flexarm
