#pragma once
// Named time series produced by a run, with the run's outcome and solver statistics.
#include <string>
#include <vector>

namespace flexarm {

struct Channel {
  std::string name;  // e.g. "q.shoulder", "energy.total"
  std::string unit;  // e.g. "rad", "N m", "J"
};

struct SolverStats {
  long steps = 0;
  long rhs_evaluations = 0;  // including those for difference-quotient Jacobians
  long jacobian_evaluations = 0;
  long linear_setups = 0;
  long error_test_failures = 0;
  long nonlinear_iterations = 0;
  long nonlinear_convergence_failures = 0;
  double last_step = 0.0;  // [s]
  double wall_time = 0.0;  // [s]
};

// The estimated global error of one group of outputs at the end of a run (ErrorEstimate.hpp): the
// end effector ("ee"), a flexible link's tip deflection ("tip.<link>") or the joint coordinates
// ("joints"), as the largest distance from the exact path, absolute and as a fraction of the group's
// largest excursion over the run (from its start; a tip's from zero).
struct ErrorEstimate {
  std::string group;
  std::string unit;        // "m", "rad", or "rad|m" for joints of both kinds
  double absolute = 0.0;   // [unit]
  double excursion = 0.0;  // [unit]
  double relative = 0.0;   // absolute / excursion (absolute when the excursion is 0)
  double measured = -1.0;  // by --verify: the difference from a run at a tighter accuracy (< 0: not measured)
};

enum class RunStatus { Completed, Failed, Cancelled, Diverged };
const char* runStatusName(RunStatus status);

// How one run of a comparison ended (Comparison.hpp): the comparison completes whatever its runs did.
struct VariantOutcome {
  std::string name;
  RunStatus status = RunStatus::Completed;
  double end_time = 0.0;  // [s]
  std::string message;
  std::string solver;
  SolverStats stats;
};

// Scalars of result columns. Each is 0 for empty columns.
double peakAbs(const std::vector<double>& x);                                      // largest |x|
double peakExcursion(const std::vector<double>& x);                                // largest |x - x[0]|
double maxDifference(const std::vector<double>& a, const std::vector<double>& b);  // largest |a - b|, common length

class Results {
 public:
  void setChannels(std::vector<Channel> channels);
  const std::vector<Channel>& channels() const { return channels_; }
  int channelIndex(const std::string& name) const;  // -1 when absent

  void appendRow(const double* values);  // channels().size() values
  std::size_t rows() const { return channels_.empty() ? 0 : data_.size() / channels_.size(); }
  double value(std::size_t row, std::size_t channel) const { return data_[row * channels_.size() + channel]; }
  std::vector<double> column(const std::string& name) const;  // empty when absent
  // All values, row after row (rows() x channels().size()), for views without a copy (the Python module).
  const double* data() const { return data_.data(); }

  RunStatus status = RunStatus::Completed;
  std::string message;    // why the run ended early, in words
  double end_time = 0.0;  // simulated time reached [s]
  SolverStats stats;
  std::string project_name;
  std::string variant;                   // the compared or studied variant ("" for a plain run)
  std::string solver_description;        // e.g. "CVODE BDF rtol=1e-08 atol=1e-10"
  double accuracy = 0.0;                 // what was asked (SimulationSettings::accuracy); 0 when unknown
  std::string method_choice;             // the method auto chose and why, in words ("" when the user chose it)
  std::vector<ErrorEstimate> errors;     // per output group, at the end of the run
  std::vector<VariantOutcome> variants;  // of a comparison: each compared run's outcome (stats: their sum)
  // The largest relative error estimate over the groups (0 without estimates).
  double largestRelativeError() const;

 private:
  std::vector<Channel> channels_;
  std::vector<double> data_;
};

}  // namespace flexarm
