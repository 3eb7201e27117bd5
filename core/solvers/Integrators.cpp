#include "solvers/Integrators.hpp"

#include <stdexcept>

#include "base/NumberFormat.hpp"
#include "solvers/ArkodeIntegrator.hpp"
#include "solvers/ConstrainedStepper.hpp"
#include "solvers/CvodeIntegrator.hpp"
#include "solvers/Esdirk.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/OdeStepper.hpp"

namespace flexarm {

namespace {

// Generalized-alpha on the ODE of the free coordinates, or with multipliers when the model has constraints.
Result<std::unique_ptr<Stepper>> makeGeneralizedAlphaStepper(const RunSetup& run, std::vector<Channel>& channels) {
  if (!run.model().constraints.empty()) return makeConstrainedAlphaStepper(run, channels);
  return makeOdeStepper<GeneralizedAlphaIntegrator>(run, channels);
}

}  // namespace

const std::vector<IntegratorEntry>& integrators() {
  using M = SimulationSettings::Method;
  using S = const SimulationSettings&;
  // The tolerances of an accuracy: r0 is the largest rtol of the ladder 1e-2, 3e-3, 1e-3, ... (IDA: 5e-4) whose end
  // effector stayed within 1e-3 of its excursion on every shipped project auto chooses the method for,
  // against a tight reference run (CVODE BDF at rtol 1e-10; IDA at 1e-8 with constraints); the exponent
  // from the same runs at 3e-4 and 3e-5 (docs/performance.md). A run's error grows more slowly than its
  // tolerance (the end effector's ~ rtol^0.65 for generalized-alpha, rtol^0.7 for IDA at orders 1-2,
  // rtol^0.88 for ESDIRK of order 5), hence exponents above 1. The methods auto does not choose keep the
  // tolerances new projects had (rtol 1e-6 at 1e-3).
  static const std::vector<IntegratorEntry> table = {
      // Canadarm2: 6.5e-4 at rtol 1e-4, 1.4e-3 at 3e-4
      {M::GeneralizedAlpha, &makeGeneralizedAlphaStepper, 1e-4, 1.5,
       [](S s, std::ostream& os) { os << "generalized-alpha rho_inf=" << formatNumber(s.rho_inf); }},
      // the cantilever (order 5): 6.2e-4 at rtol 1e-4, 1.6e-3 at 3e-4
      {M::Esdirk, &makeOdeStepper<EsdirkIntegrator>, 1e-4, 1.15, [](S, std::ostream& os) { os << "ESDIRK on M(q) a = f"; }},
      {M::Bdf, &makeOdeStepper<CvodeIntegrator>, 1e-6, 1.0, [](S, std::ostream& os) { os << "CVODE BDF"; }},
      {M::Adams, &makeOdeStepper<CvodeIntegrator>, 1e-6, 1.0, [](S, std::ostream& os) { os << "CVODE Adams"; }},
      {M::Dirk, &makeOdeStepper<ArkodeIntegrator>, 1e-6, 1.0, [](S, std::ostream& os) { os << "ARKODE ESDIRK"; }},
      // the sliding beams (orders 1-2): slow push 5.9e-4, fast push 5.4e-4 at rtol 5e-4 (a rung between 1e-3
      // and 3e-4, where the slow push is 1.0e-3 and 4.4e-4): 16-22 % fewer evaluations than at 3e-4
      {M::Ida, &makeIdaStepper, 5e-4, 1.4, [](S, std::ostream& os) { os << "IDA (index-2 GGL)"; }},
      {M::Newmark, &makeNewmarkStepper, 1e-6, 1.0,
       [](S s, std::ostream& os) {
         os << "Newmark alpha=" << formatNumber(s.newmark_alpha) << " delta=" << formatNumber(s.newmark_delta)
            << " + Baumgarte gamma=" << formatNumber(s.baumgarte_gamma) << " beta=" << formatNumber(s.baumgarte_beta)
            << " step=" << formatNumber(s.step);
       }},
  };
  return table;
}

const IntegratorEntry& integrator(SimulationSettings::Method method) {
  for (const IntegratorEntry& e : integrators())
    if (e.method == method) return e;
  throw std::logic_error("a method without an entry in integrators()");
}

Result<std::unique_ptr<Stepper>> makeStepper(const RunSetup& run, std::vector<Channel>& channels) {
  return integrator(run.settings.method).make(run, channels);
}

}  // namespace flexarm
