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
  for (int k = 0; k < sys.nq; ++k)
    if (!take(sys.coordinate_names[static_cast<std::size_t>(k)], k)) return false;
  q = out;
  return true;
}

}  // namespace flexarm
