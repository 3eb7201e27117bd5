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
  double effort(double t, double q, double qd) const;
};

const char* driveKindName(JointDrive::Kind kind);

}  // namespace flexarm
