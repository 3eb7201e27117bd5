#include "results/RowCoordinates.hpp"

#include <string>

namespace flexarm {

bool coordinatesAtRow(const MultibodySystem& sys, const Results& results, std::size_t row, Eigen::VectorXd& q) {
  if (row >= results.rows()) return false;
  Eigen::VectorXd out = Eigen::VectorXd::Zero(sys.nq);
  auto take = [&](const std::string& channel, int index) {
    const int c = results.channelIndex(channel);
    if (c < 0) return false;
    out(index) = results.value(row, static_cast<std::size_t>(c));
    return true;
  };
  for (const Body& b : sys.bodies) {
    if (!take("q." + b.joint_name, b.q_index)) return false;
    if (b.motor_index >= 0 && !take("qm." + b.joint_name, b.motor_index)) return false;
    for (int k = 0; k < b.e_count; ++k)
      if (!take("e." + b.name + "." + std::to_string(k + 1), b.e_index + k)) return false;
  }
  q = out;
  return true;
}

}  // namespace flexarm
