#include "results/ChannelRecorder.hpp"

#include "dynamics/Energy.hpp"
#include "dynamics/Kinematics.hpp"
#include "model/Names.hpp"

namespace flexarm {

ChannelRecorder::ChannelRecorder(const MultibodySystem& sys, const ConstraintSet* constraints)
    : sys_(sys), constraints_(constraints) {
  row_.resize(channels().size());
}

std::vector<Channel> ChannelRecorder::channels() const {
  std::vector<Channel> ch;
  ch.push_back({"t", "s"});
  auto unit = [](const Body& b, const char* rev, const char* pri) { return b.joint_type == JointType::Revolute ? rev : pri; };
  for (const Body& b : sys_.bodies) ch.push_back({names::jointCoordinate(b.joint_name), unit(b, "rad", "m")});
  for (const Body& b : sys_.bodies) ch.push_back({names::jointRate(b.joint_name), unit(b, "rad/s", "m/s")});
  for (const Body& b : sys_.bodies) ch.push_back({names::jointEffort(b.joint_name), unit(b, "N m", "N")});
  for (const Body& b : sys_.bodies) {
    if (!b.hasFlexibleJoint()) continue;
    ch.push_back({names::motorCoordinate(b.joint_name), unit(b, "rad", "m")});
    ch.push_back({names::jointTorsion(b.joint_name), unit(b, "rad", "m")});
    ch.push_back({names::coordinateRate(names::motorCoordinate(b.joint_name)), unit(b, "rad/s", "m/s")});
  }
  for (const Body& b : sys_.bodies) {
    if (!b.isFlexible()) continue;
    for (const char* c : {"u", "v", "w"}) ch.push_back({names::linkTip(b.name, c), "m"});
    ch.push_back({names::linkTip(b.name, "phi"), "rad"});
    for (const char* c : {"x", "y", "z"}) ch.push_back({names::linkTip(b.name, c), "m"});
  }
  for (const char axis : {'x', 'y', 'z'}) ch.push_back({names::endEffector(axis), "m"});
  for (const char* e : {"kinetic", "potential", "total"}) ch.push_back({names::energy(e), "J"});
  for (const Body& b : sys_.bodies)
    for (int k = 0; k < b.e_count; ++k) ch.push_back({names::elasticCoordinate(b.name, k + 1), "-"});
  // The elastic rates: with the coordinates and rates above, the whole state (a run continues from any row).
  for (const Body& b : sys_.bodies)
    for (int k = 0; k < b.e_count; ++k) ch.push_back({names::coordinateRate(names::elasticCoordinate(b.name, k + 1)), "1/s"});
  if (constraints_)
    for (const ConstraintSet::Group& g : constraints_->groups()) {
      ch.push_back({names::constraintViolation(g.name, "pos"), g.unit});
      ch.push_back({names::constraintViolation(g.name, "vel"), g.unit == "-" ? "1/s" : g.unit + "/s"});
    }
  return ch;
}

void ChannelRecorder::record(double t, ForwardDynamics& fd, Results& results, const std::vector<double>* violations) {
  std::size_t k = 0;
  const Eigen::VectorXd& q = fd.q();
  const Eigen::VectorXd& qd = fd.qd();
  row_[k++] = t;
  for (const Body& b : sys_.bodies) row_[k++] = q(b.q_index);
  for (const Body& b : sys_.bodies) row_[k++] = qd(b.q_index);
  for (std::size_t j = 0; j < sys_.bodies.size(); ++j) row_[k++] = fd.effort()(static_cast<int>(j));
  for (const Body& b : sys_.bodies) {
    if (!b.hasFlexibleJoint()) continue;
    row_[k++] = q(b.motor_index);
    row_[k++] = q(b.motor_index) / b.joint_flex.gear_ratio - q(b.q_index);
    row_[k++] = qd(b.motor_index);
  }
  DynamicsData& data = fd.data();
  const Energies e = fd.energies();  // with the kinematics of this state in data
  for (std::size_t j = 0; j < sys_.bodies.size(); ++j) {
    const Body& b = sys_.bodies[j];
    if (!b.isFlexible()) continue;
    const BodyFrames& fr = data.frames[j];
    for (int c = 0; c < 3; ++c) row_[k++] = fr.tip_deformation(c);
    row_[k++] = fr.tip_twist;
    const Eigen::Vector3d tip = fr.X_world_distal.translation();
    for (int c = 0; c < 3; ++c) row_[k++] = tip(c);
  }
  const int last = static_cast<int>(sys_.bodies.size()) - 1;
  const Eigen::Vector3d ee =
      sys_.isRigid() ? distalFrame(sys_, data, last).translation() : data.frames[last].X_world_distal.translation();
  for (int a = 0; a < 3; ++a) row_[k++] = ee(a);
  row_[k++] = e.kinetic;
  row_[k++] = e.potential;
  row_[k++] = e.total();
  for (const Body& b : sys_.bodies)
    for (int c = 0; c < b.e_count; ++c) row_[k++] = q(b.e_index + c);
  for (const Body& b : sys_.bodies)
    for (int c = 0; c < b.e_count; ++c) row_[k++] = qd(b.e_index + c);
  if (constraints_)
    for (std::size_t g = 0; g < 2 * constraints_->groups().size(); ++g) row_[k++] = violations ? (*violations)[g] : 0.0;
  results.appendRow(row_.data());
}

}  // namespace flexarm
