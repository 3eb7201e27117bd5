#include "model/SolverMethods.hpp"

#include <stdexcept>

namespace flexarm {

const std::vector<SolverMethodInfo>& solverMethods() {
  using M = SimulationSettings::Method;
  static const std::vector<SolverMethodInfo> table = {
      {M::Auto, "auto", "Automatic", "FlexArm's choice", 0, 0, 0, true, true, true, false,
       "FlexArm chooses the method and its tolerances from the model and the accuracy you ask for (the default)"},
      {M::GeneralizedAlpha, "galpha", "Generalized-α", "one-step, second-order form M(q) a = f", 0, 0, 0, true, true, true, false,
       "arms that turn fast or are driven hard, and mechanisms with constraints: second order, damps the vibrations its "
       "steps do not resolve (rho_inf)"},
      {M::Esdirk, "esdirk", "ESDIRK on M(q) a = f", "one-step, second-order form M(q) a = f", 3, 5, 4, true, true, false, false,
       "lightly damped vibrations over many periods (a released cantilever): order 3-5, L-stable"},
      {M::Bdf, "bdf", "CVODE BDF", "CVODE (SUNDIALS), first-order form", 1, 5, 5, true, false, false, false,
       "a general stiff integrator; orders 1-2 damp unresolved vibrations, 3-5 are accurate on smooth motion"},
      {M::Adams, "adams", "CVODE Adams", "CVODE (SUNDIALS), first-order form", 1, 12, 12, true, false, false, false,
       "smooth, non-stiff motion only (rigid arms): explicit-like cost per step, no Newton matrix"},
      {M::Dirk, "dirk", "ARKODE ESDIRK", "ARKODE (SUNDIALS), first-order form", 3, 5, 4, true, true, false, false,
       "as esdirk, through SUNDIALS' ARKODE on the first-order form (for comparison)"},
      {M::Ida, "ida", "IDA (index-2 DAE)", "IDA (SUNDIALS), constrained DAE", 1, 5, 5, true, false, true, true,
       "models with constraints (sliding supports, closed loops, prescribed joints by multipliers)"},
      {M::Newmark, "newmark", "Newmark + Baumgarte", "fixed step, constrained", 0, 0, 0, false, false, true, true,
       "reproduces Pan et al. (1990): fixed-step Newmark-β with Baumgarte-stabilized constraints"},
  };
  return table;
}

bool SimulationSettings::constrained() const { return solverMethod(method).constraints; }

bool runsWithMultipliers(const SimulationSettings& s, const Model& model) {
  const SolverMethodInfo& m = solverMethod(s.method);
  return m.multipliers_always || (m.constraints && !model.constraints.empty());
}

const SolverMethodInfo& solverMethod(SimulationSettings::Method method) {
  for (const SolverMethodInfo& m : solverMethods())
    if (m.method == method) return m;
  throw std::logic_error("a method without an entry in solverMethods()");
}

}  // namespace flexarm
