#include "solvers/OdeIntegrator.hpp"

#include <cvode/cvode.h>

#include "solvers/ArkodeIntegrator.hpp"
#include "solvers/CvodeIntegrator.hpp"
#include "solvers/Esdirk.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/SundialsOde.hpp"

namespace flexarm {

std::string odeFlagWords(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return "the solver took the maximum number of steps (raise simulation.solver.max_steps)";
    case CV_TOO_MUCH_ACC: return "the requested accuracy cannot be reached (loosen rtol/atol)";
    case CV_ERR_FAILURE:
      return "the error test failed repeatedly or with the minimum step (the motion may be diverging or discontinuous)";
    case CV_CONV_FAILURE: return "the Newton iteration failed to converge repeatedly (a stiff or diverging model?)";
    case CV_LINIT_FAIL:
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL: return "the linear solver failed (singular iteration matrix)";
    case CV_RHSFUNC_FAIL: return "the equations of motion could not be evaluated";
    case CV_FIRST_RHSFUNC_ERR: return "the equations of motion failed at the initial state";
    case CV_REPTD_RHSFUNC_ERR: return "the equations of motion failed repeatedly (non-finite values)";
    case CV_UNREC_RHSFUNC_ERR: return "the equations of motion failed and the solver could not recover";
    case CV_ILL_INPUT: return "invalid solver input";
    case CV_MEM_FAIL: return "out of memory";
    default: return {};
  }
}

std::unique_ptr<OdeIntegrator> makeOdeIntegrator(const SimulationSettings& settings) {
  if (settings.method == SimulationSettings::Method::Dirk) return std::make_unique<ArkodeIntegrator>();
  if (settings.method == SimulationSettings::Method::GeneralizedAlpha) return std::make_unique<GeneralizedAlphaIntegrator>();
  if (settings.method == SimulationSettings::Method::Esdirk) return std::make_unique<EsdirkIntegrator>();
  return std::make_unique<CvodeIntegrator>();
}

}  // namespace flexarm
