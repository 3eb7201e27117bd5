#pragma once
// The table of the time integration methods: what each is called, what family it belongs to, its
// orders, whether it damps the vibrations its steps do not resolve and whether it integrates
// constraints with their multipliers, and when to use it. The schema, the reader, the editor's form,
// the slow-run advice and the automatic method (solvers/AutoMethod.hpp) read it; the factories of
// the integrators are in solvers/.
#include <vector>

#include "model/Project.hpp"

namespace flexarm {

struct SolverMethodInfo {
  SimulationSettings::Method method;
  const char* name;                                // in project files: "galpha"
  const char* label;                               // in the workbench: "Generalized-α"
  const char* family;                              // "CVODE (SUNDIALS), first-order form", ...
  int lowest_order, highest_order, default_order;  // of max_order; 0 for methods without a choice
  bool adaptive;                                   // chooses its own step from an error estimate
  bool damps_unresolved;                           // numerical damping of the vibrations a step does not resolve
  bool constraints;                                // integrates model constraints with their multipliers
  bool multipliers_always;                         // also holds a model's prescribed joints by multipliers without them
  const char* when;                                // one line: when to use it
};

// Every method, `auto` first.
const std::vector<SolverMethodInfo>& solverMethods();
const SolverMethodInfo& solverMethod(SimulationSettings::Method method);
// Whether a run of `model` with the (concrete) method of `s` integrates with multipliers (the
// constrained steppers, solvers/ConstrainedStepper.hpp): IDA and Newmark always, generalized-alpha
// when the model has constraints.
bool runsWithMultipliers(const SimulationSettings& s, const Model& model);

}  // namespace flexarm
