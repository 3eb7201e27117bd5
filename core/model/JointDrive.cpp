#include "model/JointDrive.hpp"

namespace flexarm {

double JointDrive::effort(double t, double q, double qd, bool at_rest) const {
  switch (kind) {
    case Kind::Free:
    case Kind::Prescribed: return 0.0;
    case Kind::Effort: return law.evaluate(t).value;
    case Kind::PD: {
      const TimeSample ref = law.evaluate(t);
      return kp * (ref.value - q) + kd * ((at_rest ? 0.0 : ref.rate) - qd);
    }
  }
  return 0.0;
}

const char* driveKindName(JointDrive::Kind kind) {
  switch (kind) {
    case JointDrive::Kind::Free: return "free";
    case JointDrive::Kind::Effort: return "effort";
    case JointDrive::Kind::PD: return "pd";
    case JointDrive::Kind::Prescribed: return "prescribed";
  }
  return "?";
}

}  // namespace flexarm
