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
  // What the results are called (Results::project_name): the project's name.
  std::string label;
};

// Runs the model of `system` (MultibodySystem::model, discretized at its coupling order) with the
// solver settings given. The system is built once, by the caller, and shared by the runs of one model
// (the workbench's document holds it); the model must have been validated (loaded without errors).
// Never throws for solver trouble: a failure ends the run with status Failed, a message naming the time,
// and the results computed until then.
Results simulate(const MultibodySystem& system, const SimulationSettings& settings, const RunControl& control = {});
// A project's run: its system built here (MultibodySystem::fromModel at its coupling), its settings,
// the results named after it.
Results simulate(const Project& project, const RunControl& control = {});

// The channels simulate(system, settings) records, in order (constraint violations included for the
// constrained solvers). Empty when the model's constraints cannot be built.
std::vector<Channel> runChannels(const MultibodySystem& system, const SimulationSettings& settings);

// The method and tolerances a run of the project uses (auto resolved), and why.
SolverChoice solverChoice(const Project& project);

// Checks a run's error estimates: runs the system again at a tenth of the settings' accuracy (a tenth of
// rtol and atol where they are set) and stores in results.errors[].measured the difference of each
// output group from that run, as a fraction of the group's excursion. Returns the tighter run.
Results verifyErrors(const MultibodySystem& system, const SimulationSettings& settings, Results& results,
                     const RunControl& control = {});

// The settings in words; for `auto` the accuracy alone (what it resolves to: describeRun).
std::string describeSolver(const SimulationSettings& settings);
// The resolved solver and the coupling order of a run of the system with these settings.
std::string describeRun(const MultibodySystem& system, const SimulationSettings& settings);

}  // namespace flexarm
