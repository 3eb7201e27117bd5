#pragma once
// A project: the model, how to simulate it, and what the user wrote about it.
#include <string>

#include "model/Model.hpp"

namespace flexarm {

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
};

const char* methodName(SimulationSettings::Method method);

struct Project {
  static constexpr int kSchemaVersion = 1;
  std::string name;
  std::string description;
  Model model;
  SimulationSettings simulation;
};

}  // namespace flexarm
