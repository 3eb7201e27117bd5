#pragma once
// The table of the integrators: for every method of model/SolverMethods.hpp (what a method is, read by
// the schema, the reader, the editor's form and the advice), the factory of its Stepper, the tolerances
// an accuracy maps to, and its run described in words. simulate() and the automatic method read it.
// Adding a method: its value of SimulationSettings::Method, its row in solverMethods(), its row in
// integrators() (Integrators.cpp) and its own file.
#include <ostream>
#include <vector>

#include "model/Project.hpp"
#include "solvers/Stepper.hpp"

namespace flexarm {

struct IntegratorEntry {
  SimulationSettings::Method method;
  StepperFactory make;
  // rtol = rtol_at_1e3 (accuracy / 1e-3)^accuracy_exponent, atol = rtol / 100 (AutoMethod.cpp).
  double rtol_at_1e3, accuracy_exponent;
  // The method and its own parameters in words ("generalized-alpha rho_inf=0.8"), without tolerances.
  void (*describe)(const SimulationSettings& settings, std::ostream& os);
};

// Every concrete method (not auto), in the order of solverMethods().
const std::vector<IntegratorEntry>& integrators();
const IntegratorEntry& integrator(SimulationSettings::Method method);  // throws std::logic_error for auto

// The stepper of run.settings.method (concrete), or why it cannot start.
Result<std::unique_ptr<Stepper>> makeStepper(const RunSetup& run, std::vector<Channel>& channels);

}  // namespace flexarm
