#include "solvers/OdeIntegrator.hpp"

#include "solvers/ArkodeIntegrator.hpp"
#include "solvers/CvodeIntegrator.hpp"

namespace flexarm {

std::unique_ptr<OdeIntegrator> makeOdeIntegrator(const SimulationSettings& settings) {
  if (settings.method == SimulationSettings::Method::Dirk) return std::make_unique<ArkodeIntegrator>();
  return std::make_unique<CvodeIntegrator>();
}

}  // namespace flexarm
