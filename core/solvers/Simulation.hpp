#pragma once
// Runs a project's forward dynamics with the method auto chooses (AutoMethod.hpp) or the one the project
// names, records its result channels and estimates their error (ErrorEstimate.hpp).
#include <atomic>
#include <functional>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"
#include "results/Results.hpp"
#include "solvers/AutoMethod.hpp"

namespace flexarm {

struct RunControl {
  // Checked between solver steps: when it becomes true the run ends with status Cancelled.
  const std::atomic<bool>* cancel = nullptr;
  // While true the run waits between steps (checking `cancel` every few milliseconds).
  const std::atomic<bool>* pause = nullptr;
  // Called on the solver's thread after every step with the simulated time reached.
  std::function<void(double t, double t_end)> progress;
  // Called on the solver's thread whenever rows were appended, with the results so far and the
  // index of the first new row: copy what is needed there (the results keep growing).
  std::function<void(const Results& results, std::size_t first_new_row)> rows_recorded;
  // Called once, before the first row, with the channels the run will record.
  std::function<void(const std::vector<Channel>& channels)> started;
};

// The project must have been validated (loaded without errors). Never throws for solver
// trouble: a failure ends the run with status Failed, a message naming the time, and the
// results computed until then. `sys` is the project's discretized system
// (MultibodySystem::fromModel(project.model, project.coupling)), built once by the caller and shared
// by the runs of one model; without it, simulate() builds it.
Results simulate(const Project& project, const MultibodySystem& sys, const RunControl& control = {});
Results simulate(const Project& project, const RunControl& control = {});

// The channels simulate(project, sys) records, in order (constraint violations included for the
// constrained solvers). Empty when the project's constraints cannot be built.
std::vector<Channel> runChannels(const Project& project, const MultibodySystem& sys);

// The method and tolerances a run of the project uses (auto resolved), and why.
SolverChoice solverChoice(const Project& project);

// Checks a run's error estimates: runs the project again at a tenth of its accuracy (a tenth of rtol
// and atol where the project sets them) and stores in results.errors[].measured the difference of each
// output group from that run, as a fraction of the group's excursion. Returns the tighter run.
Results verifyErrors(const Project& project, const MultibodySystem& sys, Results& results, const RunControl& control = {});

// The settings in words; for `auto` the accuracy alone (what it resolves to: describeRun).
std::string describeSolver(const SimulationSettings& settings);
std::string describeRun(const Project& project, const MultibodySystem& sys);  // the resolved solver + coupling order

}  // namespace flexarm
