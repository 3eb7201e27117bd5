#include "results/Results.hpp"

#include <algorithm>
#include <cmath>

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

double Results::largestRelativeError() const {
  double worst = 0.0;
  for (const ErrorEstimate& e : errors) worst = std::max(worst, e.relative);
  return worst;
}

double peakAbs(const std::vector<double>& x) {
  double peak = 0.0;
  for (double v : x) peak = std::max(peak, std::abs(v));
  return peak;
}

double peakExcursion(const std::vector<double>& x) {
  double peak = 0.0;
  for (double v : x) peak = std::max(peak, std::abs(v - x.front()));
  return peak;
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
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
