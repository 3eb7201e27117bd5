#include "results/ChannelRecorder.hpp"

#include "dynamics/Energy.hpp"
#include "dynamics/Kinematics.hpp"

namespace flexarm {

ChannelRecorder::ChannelRecorder(const MultibodySystem& sys) : sys_(sys) { row_.resize(channels().size()); }

std::vector<Channel> ChannelRecorder::channels() const {
  std::vector<Channel> ch;
  ch.push_back({"t", "s"});
  for (int i = 0; i < sys_.nq; ++i) {
    const bool rev = sys_.coordinate_types[i] == JointType::Revolute;
    ch.push_back({"q." + sys_.coordinate_names[i], rev ? "rad" : "m"});
  }
  for (int i = 0; i < sys_.nq; ++i) {
    const bool rev = sys_.coordinate_types[i] == JointType::Revolute;
    ch.push_back({"qd." + sys_.coordinate_names[i], rev ? "rad/s" : "m/s"});
  }
  for (int i = 0; i < sys_.nq; ++i) {
    const bool rev = sys_.coordinate_types[i] == JointType::Revolute;
    ch.push_back({"tau." + sys_.coordinate_names[i], rev ? "N m" : "N"});
  }
  for (const char* axis : {"x", "y", "z"}) ch.push_back({std::string("ee.") + axis, "m"});
  for (const char* e : {"kinetic", "potential", "total"}) ch.push_back({std::string("energy.") + e, "J"});
  return ch;
}

void ChannelRecorder::record(double t, ForwardDynamics& fd, Results& results) {
  std::size_t k = 0;
  row_[k++] = t;
  for (int i = 0; i < sys_.nq; ++i) row_[k++] = fd.q()(i);
  for (int i = 0; i < sys_.nq; ++i) row_[k++] = fd.qd()(i);
  for (int i = 0; i < sys_.nq; ++i) row_[k++] = fd.effort()(i);
  const Energies e = computeEnergies(sys_, fd.data(), fd.q(), fd.qd());  // also runs forward kinematics
  const Eigen::Vector3d ee = distalFrame(sys_, fd.data(), static_cast<int>(sys_.bodies.size()) - 1).translation();
  for (int a = 0; a < 3; ++a) row_[k++] = ee(a);
  row_[k++] = e.kinetic;
  row_[k++] = e.potential;
  row_[k++] = e.total();
  results.appendRow(row_.data());
}

}  // namespace flexarm
