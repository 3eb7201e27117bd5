#pragma once
// Why a run may go slower than real time, and what to try: read off the project as the user set it
// (no physics computed here), for the banner while a run is slower than real time.
#include <QString>

#include "model/Project.hpp"

namespace flexarm {

struct RunAdvice {
  QString causes;       // "stiff joint springs (k up to 2e+05 N m/rad), undamped high modes (links a, b), ..."
  QString suggestions;  // "simulation.solver.max_order 2, or method galpha or dirk; ..."
  bool empty() const { return causes.isEmpty() && suggestions.isEmpty(); }
};

// The likely causes of a slow run of `project` (flexible joints and their stiffest spring, flexible
// links without Rayleigh or modal damping, the count of elastic coordinates `elastic_coordinates`,
// tight tolerances or accuracy) and what to try for each (a lower BDF order, the automatic method, light
// damping, fewer elements or a modal reduction, a looser rtol or accuracy).
RunAdvice slowRunAdvice(const Project& project, int elastic_coordinates);

}  // namespace flexarm
