#pragma once
// The automatic method: from the model and the run, the integrator, its order, numerical damping and
// tolerances, for the accuracy the user asks for (SimulationSettings::accuracy), and why, in words.
//
//  - constraints (sliding supports, closed loops, coordinate relations): generalized-alpha with their
//    multipliers (the index-3 form, rho_inf 0.8: the stiff axial modes of a sliding beam are damped
//    instead of resolved), at half its tolerance without constraints; below rtol 1e-7 IDA of variable
//    order. On the shipped mechanisms up to 5 times faster than IDA at orders 1-2 (which auto chose
//    before), the flexible four-bar and slider-crank most, the palletizer 0.9 times (docs/performance.md);
//  - a rigid arm: CVODE BDF of variable order up to 5 at a tight tolerance (smooth motion, no vibration
//    to damp, cheap at any tolerance, and a chaotic arm such as the double pendulum needs it);
//  - flexible links or joints on an arm that moves as a mechanism (a joint driven by a motion, an
//    effort or a controller, free, or behind a joint spring): generalized-alpha with rho_inf 0.8,
//    second order, the vibrations its steps do not resolve damped;
//  - flexible links vibrating on joints held still (every joint prescribed constant): ESDIRK of order
//    5 on M(q) a = f, whose error stays small over many periods of a lightly damped vibration.
// The accuracy maps to each method's tolerance as calibrated on the shipped projects against tight
// reference runs (AutoMethod.cpp, docs/performance.md), for the end effector's error; the tips'
// deflections, small vibrations about the motion, carry errors of their own, reported with the run.
// rtol and atol set by the user override the accuracy.
#include <string>

#include "dynamics/MultibodySystem.hpp"
#include "model/Project.hpp"

namespace flexarm {

struct SolverChoice {
  SimulationSettings settings;  // a concrete method, with its tolerances
  bool automatic = false;       // the method was chosen by auto
  std::string summary;          // e.g. "generalized-alpha, rtol 1e-4"
  std::string reason;           // why, in words ("" when the user chose the method)
};

// The method and tolerances for a run of the system (its model, MultibodySystem::model) with `settings`.
SolverChoice chooseSolver(const MultibodySystem& sys, const SimulationSettings& settings);

// The tolerances the accuracy maps to for a concrete method (rtol, atol), unless the settings hold them;
// `automatic`: the method is auto's choice for the model (a rigid arm's BDF is held tight).
void tolerancesFromAccuracy(SimulationSettings& settings, bool automatic);

}  // namespace flexarm
