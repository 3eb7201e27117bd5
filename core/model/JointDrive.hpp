#pragma once
// What moves a joint: nothing, an effort law, a PD controller on a set-point, or a prescribed motion.
#include "model/TimeFunction.hpp"

namespace flexarm {

struct JointDrive {
  enum class Kind {
    Free,        // no drive effort
    Effort,      // torque [N m] / force [N] = law(t)
    PD,          // kp (setpoint(t) - q) + kd (setpoint'(t) - qd)
    Prescribed,  // q(t) = law(t): the joint follows the motion, the needed effort is reported
  };
  Kind kind = Kind::Free;
  TimeFunction law;  // Effort: the effort; PD: the set-point; Prescribed: the motion
  double kp = 0.0;   // [N m/rad or N/m]
  double kd = 0.0;   // [N m s/rad or N s/m]

  // Drive effort on the joint for coordinate q, rate qd at time t (not used for Prescribed).
  // `at_rest`: the set-point held at its value at t, without its rate (statics).
  double effort(double t, double q, double qd, bool at_rest = false) const;
};

const char* driveKindName(JointDrive::Kind kind);

}  // namespace flexarm
