#include "results/Comparison.hpp"

#include "base/NumberFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace flexarm {
namespace {

// Linear interpolation of column y(t) at time s; NaN outside [t.front(), t.back()].
double at(const std::vector<double>& t, const std::vector<double>& y, double s) {
  if (t.empty() || s < t.front() - 1e-12 || s > t.back() + 1e-12) return std::numeric_limits<double>::quiet_NaN();
  const auto hi = std::lower_bound(t.begin(), t.end(), s);
  if (hi == t.end()) return y.back();
  const std::size_t k = static_cast<std::size_t>(hi - t.begin());
  if (k == 0 || *hi == s) return y[k];
  const double w = (s - t[k - 1]) / (t[k] - t[k - 1]);
  return y[k - 1] + w * (y[k] - y[k - 1]);
}

std::string formatTime(double t) { return formatShort(t, 6); }

}  // namespace

std::vector<std::string> commonChannels(const std::vector<NamedRun>& runs) {
  std::vector<std::string> out;
  if (runs.empty() || !runs.front().results) return out;
  for (const Channel& c : runs.front().results->channels()) {
    if (c.name == "t") continue;
    bool everywhere = true;
    for (const NamedRun& r : runs) everywhere = everywhere && r.results && r.results->channelIndex(c.name) >= 0;
    if (everywhere) out.push_back(c.name);
  }
  return out;
}

Results compareRuns(const std::vector<NamedRun>& runs, std::vector<std::string> channels) {
  Results out;
  if (runs.empty()) return out;
  if (channels.empty()) channels = commonChannels(runs);
  const NamedRun* longest = &runs.front();
  for (const NamedRun& r : runs)
    if (r.results->end_time > longest->results->end_time) longest = &r;
  // The longest run's times, and the time each other run ended between two of them (a diverged run's
  // last row is the state that diverged, off the output grid): every curve ends where its run did.
  std::vector<double> grid = longest->results->column("t");
  for (const NamedRun& r : runs) {
    if (!r.results || r.results->rows() == 0 || grid.empty()) continue;
    const double end = r.results->value(r.results->rows() - 1, 0);
    const auto after = std::lower_bound(grid.begin(), grid.end(), end);
    const double apart = 1e-9 * std::max(1.0, std::abs(end));  // not a grid time written another way
    if (after == grid.end() || after == grid.begin() || *after - end <= apart || end - *(after - 1) <= apart) continue;
    grid.insert(after, end);
  }

  std::vector<Channel> cols = {{"t", "s"}};
  std::vector<std::vector<double>> data = {grid};
  std::vector<double> t_first;
  for (const std::string& name : channels) {
    const int idx = runs.front().results->channelIndex(name);
    const std::string unit = idx >= 0 ? runs.front().results->channels()[static_cast<std::size_t>(idx)].unit : "";
    std::vector<std::vector<double>> sampled;
    for (const NamedRun& r : runs) {
      const std::vector<double> t = r.results->column("t"), y = r.results->column(name);
      std::vector<double> v(grid.size(), std::numeric_limits<double>::quiet_NaN());
      if (!y.empty())
        for (std::size_t k = 0; k < grid.size(); ++k) v[k] = at(t, y, grid[k]);
      cols.push_back({name + "[" + r.name + "]", unit});
      data.push_back(v);
      sampled.push_back(std::move(v));
    }
    for (std::size_t j = 1; j < runs.size(); ++j) {
      std::vector<double> d(grid.size());
      for (std::size_t k = 0; k < grid.size(); ++k) d[k] = sampled[j][k] - sampled[0][k];  // NaN stays NaN
      cols.push_back({name + "[" + runs[j].name + " - " + runs.front().name + "]", unit});
      data.push_back(std::move(d));
    }
  }
  out.setChannels(cols);
  std::vector<double> row(cols.size());
  for (std::size_t k = 0; k < grid.size(); ++k) {
    for (std::size_t c = 0; c < cols.size(); ++c) row[c] = data[c][k];
    out.appendRow(row.data());
  }
  out.end_time = longest->results->end_time;
  std::string outcome;
  for (const NamedRun& r : runs) {  // the comparison completes; each run's own outcome is in the message
    outcome += (outcome.empty() ? "" : "; ") + r.name + ": " +
               (r.results->message.empty()
                    ? std::string(runStatusName(r.results->status)) + " at t = " + formatTime(r.results->end_time) + " s"
                    : r.results->message);
  }
  out.message = outcome;
  for (const NamedRun& r : runs) {
    const Results& run = *r.results;
    out.variants.push_back({r.name, run.status, run.end_time, run.message, run.solver_description, run.stats});
    SolverStats& sum = out.stats;
    sum.steps += run.stats.steps;
    sum.rhs_evaluations += run.stats.rhs_evaluations;
    sum.jacobian_evaluations += run.stats.jacobian_evaluations;
    sum.linear_setups += run.stats.linear_setups;
    sum.error_test_failures += run.stats.error_test_failures;
    sum.nonlinear_iterations += run.stats.nonlinear_iterations;
    sum.nonlinear_convergence_failures += run.stats.nonlinear_convergence_failures;
    sum.wall_time += run.stats.wall_time;
  }
  std::string solvers;
  for (const NamedRun& r : runs) solvers += (solvers.empty() ? "" : "; ") + r.name + ": " + r.results->solver_description;
  out.solver_description = solvers;
  return out;
}

std::string comparisonName(const std::string& project, const std::vector<NamedRun>& runs) {
  std::string name = project + " [compare:";
  for (std::size_t i = 0; i < runs.size(); ++i) name += " " + runs[i].name + (i + 1 == runs.size() ? "]" : " |");
  return name;
}

}  // namespace flexarm
