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
  // Called on the solver's thread after every step with the simulated time reached.
  std::function<void(double t, double t_end)> progress;
};

// The project must have been validated (loaded without errors). Never throws for solver
// trouble: a failure ends the run with status Failed, a message naming the time, and the
// results computed until then.
Results simulate(const Project& project, const RunControl& control = {});

std::string describeSolver(const SimulationSettings& settings);
std::string describeRun(const Project& project);  // solver + coupling order

}  // namespace flexarm
