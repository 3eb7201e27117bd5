#pragma once
// Runs a project's forward dynamics on CVODE and records its result channels.
#include <atomic>
#include <functional>

#include "model/Project.hpp"
#include "results/Results.hpp"

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
// results computed until then.
Results simulate(const Project& project, const RunControl& control = {});

// The channels simulate(project) records, in order (constraint violations included for the
// constrained solvers). Empty when the project's constraints cannot be built.
std::vector<Channel> runChannels(const Project& project);

std::string describeSolver(const SimulationSettings& settings);
std::string describeRun(const Project& project);  // solver + coupling order

}  // namespace flexarm
