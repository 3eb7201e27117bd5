// The joints' own forces (ForceTerms.hpp):
//  - joint flexibility: a geared flexible joint's spring and damper between the motor (coordinate q_m,
//    gear ratio N) and the link (q): torque = k (q_m / N - q) + c (qd_m / N - qd) on the link, -torque / N
//    on the motor, potential 1/2 k (q_m / N - q)^2. The rotor's inertia J is in the mass matrix (the
//    inertia pass, EquationsOfMotion.hpp);
//  - joint damping: a viscous damper -c qd on each joint's coordinate.
#include "dynamics/ForceTerms.hpp"

namespace flexarm {
namespace {

class JointFlexibility final : public ForceTerm {
 public:
  const char* name() const override { return "joint flexibility"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.joint_spring_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData&, const TermState& s,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    double potential = 0.0;
    for (const Body& b : sys.bodies) {
      if (b.motor_index < 0) continue;
      const JointFlex& jf = b.joint_flex;
      const double torsion = s.q(b.motor_index) / jf.gear_ratio - s.q(b.q_index);
      const double torsion_rate = s.qd(b.motor_index) / jf.gear_ratio - s.qd(b.q_index);
      const double torque = jf.stiffness * torsion + jf.damping * torsion_rate;
      force(b.q_index) += torque;
      force(b.motor_index) -= torque / jf.gear_ratio;
      potential += 0.5 * jf.stiffness * torsion * torsion;
    }
    return potential;
  }

  void addTangent(const MultibodySystem& sys, const DynamicsData&, TangentSink& sink) const override {
    for (const Body& b : sys.bodies) {
      if (b.motor_index < 0) continue;
      const JointFlex& jf = b.joint_flex;
      const double N = jf.gear_ratio;
      const int a = b.q_index, m = b.motor_index;
      for (auto [damping, k] : {std::pair<bool, double>{false, jf.stiffness}, {true, jf.damping}}) {
        sink.add(damping, a, a, k);
        sink.add(damping, a, m, -k / N);
        sink.add(damping, m, a, -k / N);
        sink.add(damping, m, m, k / (N * N));
      }
    }
  }
};

class JointDamping final : public ForceTerm {
 public:
  const char* name() const override { return "joint damping"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.joint_damping_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData&, const TermState& s,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    for (const Body& b : sys.bodies) force(b.q_index) -= b.joint_damping * s.qd(b.q_index);
    return 0.0;
  }

  void addTangent(const MultibodySystem& sys, const DynamicsData&, TangentSink& sink) const override {
    for (const Body& b : sys.bodies) sink.add(true, b.q_index, b.q_index, b.joint_damping);
  }
};

}  // namespace

const ForceTerm& jointFlexibility() {
  static const JointFlexibility term;
  return term;
}

const ForceTerm& jointDamping() {
  static const JointDamping term;
  return term;
}

}  // namespace flexarm
