#pragma once
// A project: the model, how to simulate it, and what the user wrote about it.
#include <string>

#include "model/Model.hpp"

namespace flexarm {

// Rigid-flexible coupling order of the flexible links (DESIGN.md, physics contract).
enum class CouplingOrder {
  Zero,       // linear floating frame, no foreshortening
  Geometric,  // zero + potential of the axial inertial/gravity force through the axial shortening (seed 003)
  High,       // foreshortening -1/2 int (v'^2 + w'^2) in the axial position, all its terms kept (seed 000)
};
const char* couplingName(CouplingOrder order);

struct SimulationSettings {
  enum class Method { Bdf, Adams };
  double t_end = 5.0;            // [s]
  double output_rate = 100.0;    // [Hz] samples written to the results
  Method method = Method::Bdf;   // CVODE linear multistep family
  double rtol = 1e-6;            // relative tolerance
  double atol = 1e-8;            // absolute tolerance
  double max_step = 0.0;         // [s], 0 = no limit
  double initial_step = 0.0;     // [s], 0 = chosen by CVODE
  long max_steps = 1000000;      // total internal steps before the run is stopped
  // A run is reported as diverged when a flexible link's tip deflection exceeds this fraction of its
  // length: the small-deformation model has lost its meaning (e.g. the zero-order spin-up past omega_1).
  double divergence_ratio = 0.5;
};

const char* methodName(SimulationSettings::Method method);

struct Project {
  static constexpr int kSchemaVersion = 1;
  std::string name;
  std::string description;
  Model model;
  CouplingOrder coupling = CouplingOrder::High;
  SimulationSettings simulation;
};

}  // namespace flexarm
