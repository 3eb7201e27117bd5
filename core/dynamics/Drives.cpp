// The drives' efforts (ForceTerms.hpp): an effort law, or a PD controller on a set-point, on each
// joint whose drive is not a prescribed motion (those follow their law through the eliminated
// coordinates or a multiplier, ForwardDynamics.hpp). A flexible joint's drive acts on its motor and
// feeds back the link-side angle the motor sees (q_m / N). K_t and C_t: the PD gains.
#include "dynamics/ForceTerms.hpp"

namespace flexarm {

double driveEffort(const Body& b, const TermState& s) {
  const int i = b.drivenIndex();
  const double scale = b.driveScale();  // PD feedback on the link-side angle seen by the motor
  return b.drive.effort(s.t, scale * s.q(i), scale * s.qd(i), s.frozen);
}

namespace {

class Drives final : public ForceTerm {
 public:
  const char* name() const override { return "drives"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.drive_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData&, const TermState& s,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    for (const Body& b : sys.bodies)
      if (b.drive.kind != JointDrive::Kind::Prescribed) force(b.drivenIndex()) += driveEffort(b, s);
    return 0.0;
  }

  void addTangent(const MultibodySystem& sys, const DynamicsData&, TangentSink& sink) const override {
    for (const Body& b : sys.bodies) {
      if (b.drive.kind != JointDrive::Kind::PD) continue;
      // effort = kp (ref - scale q) + kd (ref' - scale qd) on the driven coordinate.
      const int k = b.drivenIndex();
      sink.add(false, k, k, b.drive.kp * b.driveScale());
      sink.add(true, k, k, b.drive.kd * b.driveScale());
    }
  }
};

}  // namespace

const ForceTerm& drives() {
  static const Drives term;
  return term;
}

}  // namespace flexarm
