#include "results/Results.hpp"

namespace flexarm {

const char* runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::Completed: return "completed";
    case RunStatus::Failed: return "failed";
    case RunStatus::Cancelled: return "cancelled";
    case RunStatus::Diverged: return "diverged";
  }
  return "?";
}

void Results::setChannels(std::vector<Channel> channels) {
  channels_ = std::move(channels);
  data_.clear();
}

int Results::channelIndex(const std::string& name) const {
  for (std::size_t i = 0; i < channels_.size(); ++i)
    if (channels_[i].name == name) return static_cast<int>(i);
  return -1;
}

void Results::appendRow(const double* values) { data_.insert(data_.end(), values, values + channels_.size()); }

std::vector<double> Results::column(const std::string& name) const {
  const int c = channelIndex(name);
  std::vector<double> out;
  if (c < 0) return out;
  out.reserve(rows());
  for (std::size_t r = 0; r < rows(); ++r) out.push_back(value(r, static_cast<std::size_t>(c)));
  return out;
}

}  // namespace flexarm
