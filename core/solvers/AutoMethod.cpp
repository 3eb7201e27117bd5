#include "solvers/AutoMethod.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/NumberFormat.hpp"
#include "model/SolverMethods.hpp"
#include "solvers/Integrators.hpp"

namespace flexarm {
namespace {

using Method = SimulationSettings::Method;

// The tolerances of an accuracy per method are in the integrators' table (Integrators.cpp). Auto holds
// a rigid arm tight: it costs little at any tolerance and may be chaotic (the double pendulum: 1.8e-4
// of its excursion at rtol 1e-8).
constexpr double kRigidRtolAt1e3 = 1e-8;
// Generalized-alpha with constraints (the index-3 form) at half the tolerance it has without: on the
// shipped mechanisms at rtol 1e-4 the slow push's end effector was 9.3e-4 of its excursion off, at
// 5e-5 5.7e-4 (the fast push 3.5e-4, the palletizer 3.5e-4, the slider-crank 2.1e-5, the four-bar
// 3.6e-6), against IDA at rtol 1e-8.
constexpr double kConstrainedAlphaRtolAt1e3 = 5e-5;

// x to three significant digits, the nearest double to them: tolerances that read as they were meant
// (3e-06, not 2.9999999999999997e-06) in the run's description.
double threeDigits(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return std::strtod(text, nullptr);
}

// rtol = r0 (accuracy / 1e-3)^k, to three digits (Integrators.hpp).
double rtolForAccuracy(double r0, double k, double accuracy) { return threeDigits(r0 * std::pow(accuracy / 1e-3, k)); }

bool drivenJoint(const Joint& j) {
  switch (j.drive.kind) {
    case JointDrive::Kind::Free: return false;
    case JointDrive::Kind::Effort:
    case JointDrive::Kind::PD: return true;
    case JointDrive::Kind::Prescribed: return j.drive.law.law != TimeFunction::Law::Constant;
  }
  return true;
}

}  // namespace

void tolerancesFromAccuracy(SimulationSettings& s, bool automatic) {
  const IntegratorEntry& m = integrator(s.method);
  const bool rigid_auto = automatic && s.method == Method::Bdf;  // auto chooses BDF for rigid arms only
  const double r0 = rigid_auto ? kRigidRtolAt1e3 : m.rtol_at_1e3, k = rigid_auto ? 1.0 : m.accuracy_exponent;
  if (s.rtol <= 0.0) s.rtol = rtolForAccuracy(r0, k, s.accuracy);
  if (s.atol <= 0.0) s.atol = threeDigits(s.rtol / 100.0);
}

SolverChoice chooseSolver(const MultibodySystem& sys, const SimulationSettings& settings) {
  SolverChoice c;
  c.settings = settings;
  SimulationSettings& s = c.settings;
  if (s.method != Method::Auto) {
    tolerancesFromAccuracy(s, false);
    return c;
  }
  c.automatic = true;
  const Model& model = *sys.model;
  // Whether the arm moves as a mechanism: a joint driven along a motion, by an effort or a controller,
  // free, or behind a joint spring (its link side free); else only its links vibrate.
  bool driven = false, mechanism = false;
  for (const Joint& j : model.joints) {
    driven = driven || drivenJoint(j);
    mechanism = mechanism || drivenJoint(j) || j.drive.kind == JointDrive::Kind::Free || j.flex.has_value() || j.qd0 != 0.0;
  }
  const bool constrained = !model.constraints.empty();
  if (constrained) {
    s.method = Method::GeneralizedAlpha;
    s.rho_inf = 0.8;
    c.reason =
        "the model has constraints: generalized-alpha integrates them with their multipliers (index 3, rho_inf "
        "0.8) and damps the vibrations its steps do not resolve";
    if (s.rtol <= 0.0) s.rtol = rtolForAccuracy(kConstrainedAlphaRtolAt1e3, integrator(s.method).accuracy_exponent, s.accuracy);
  } else if (sys.isRigid()) {
    s.method = Method::Bdf;
    s.max_order = 0;
    c.reason =
        "a rigid arm: CVODE BDF of variable order up to 5 at a tight tolerance, cheap for a rigid arm and needed by a "
        "chaotic one (its estimate compares a run at ten times the tolerance)";
  } else if (mechanism) {
    s.method = Method::GeneralizedAlpha;
    s.rho_inf = 0.8;
    c.reason = std::string("a flexible arm that ") + (driven ? "is driven" : "moves freely") +
               ": generalized-alpha (second order, rho_inf 0.8) damps the vibrations its steps do not resolve";
  } else {
    s.method = Method::Esdirk;
    s.max_order = 5;
    c.reason =
        "flexible links vibrating on joints held still: ESDIRK of order 5 keeps the phase of a lightly damped "
        "vibration over many periods";
  }
  s.jacobian = SimulationSettings::Jacobian::Analytic;
  tolerancesFromAccuracy(s, true);
  // A tolerance below 1e-7 (a tight accuracy, or rtol set): the one-step methods' orders 2 and 5 with
  // their fixed tables take many more steps there than BDF of variable order up to 5.
  if ((s.method == Method::GeneralizedAlpha || s.method == Method::Esdirk) && s.rtol < 1e-7) {
    s.method = constrained ? Method::Ida : Method::Bdf;
    s.max_order = 0;
    c.reason += constrained
                    ? "; an accuracy that tight (generalized-alpha's rtol below 1e-7) takes IDA of variable order up to 5 instead"
                    : "; below rtol 1e-7, CVODE BDF of variable order up to 5 instead";
    // IDA at the tolerances of its own calibration for the accuracy (accuracy 1e-6: rtol 3.15e-8, not
    // generalized-alpha's 1.6e-9), unless the user set them.
    if (constrained && settings.rtol <= 0.0) {
      s.rtol = settings.rtol;
      s.atol = settings.atol;
      tolerancesFromAccuracy(s, true);
    }
  }
  c.summary = std::string(solverMethod(s.method).label) + ", rtol " + formatShort(s.rtol, 3);
  return c;
}

}  // namespace flexarm
