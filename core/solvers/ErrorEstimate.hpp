#pragma once
// An estimate of a run's global error per group of outputs, from the local error estimates of its
// accepted steps.
//
// Each step's estimated local error of the positions is taken in absolute value coordinate by
// coordinate and summed over the steps: the bound of the global error when errors neither grow nor
// decay between steps (a conservative or damped arm), and the linear growth of a vibration's phase
// error over many periods. The sums are carried to the outputs at each output time:
//  - "joints": the largest joint coordinate's sum, as a fraction of the largest joint excursion;
//  - "tip.<link>": the tip deflection (v, w) of a flexible link through its tip's shape rows;
//  - "ee": the end effector, through a lever per coordinate: a joint moves it by at most its error
//    times the reach of the chain beyond it, an elastic coordinate by its tip displacement plus its
//    tip rotation times the reach beyond that link (the undeformed lengths and placements). An end
//    effector that moves no more than 10 times the largest position violation of the model's
//    constraints is one a loop closure holds (a parallelogram's rod pinned on a turntable's axis): what
//    it seems to move is the violation, and the run reports no "ee" group.
// It is a bound more than an estimate: errors that decay between steps (the vibrations a damped or
// numerically damped mode carries) are counted in full, so that on the shipped arms it exceeds the
// measured error by 1.5 to 100 times (docs/performance.md). Errors that grow between steps (a chaotic
// motion, the zero-order model past divergence) are underestimated; `flexarm-cli run --verify` measures
// the error against a run at a tenth of the accuracy.
#include <string>
#include <vector>

#include "dynamics/MultibodySystem.hpp"
#include "results/Results.hpp"

namespace flexarm {

class GlobalErrorEstimate {
 public:
  // `slots`: where each coordinate sits in the stepper's state (-1: not in it, e.g. prescribed).
  GlobalErrorEstimate(const MultibodySystem& sys, const std::vector<int>& slots);
  // After every accepted step, with the stepper's local error estimate in the state's layout.
  void addStep(const double* local_error);
  // The method gave no local error estimate: the run reports none.
  void unavailable() { available_ = false; }
  bool available() const { return available_; }
  // At the end of the run: every group's error, with the excursions read from the results.
  std::vector<ErrorEstimate> estimates(const Results& results) const;

 private:
  struct Tip {
    std::string link;
    std::vector<int> coordinates;
    std::vector<double> weights;  // |(v, w)| of each coordinate's tip shape
  };
  const MultibodySystem& sys_;
  std::vector<int> slots_;
  std::vector<double> sums_;      // per coordinate: the sum of |local error| over the steps so far
  std::vector<double> ee_lever_;  // per coordinate: how far an error of 1 moves the end effector, at most
  std::vector<Tip> tips_;
  bool available_ = true;
};

// Replaces run.errors[] by each group's largest difference from `looser` (a run of the same project at
// looser tolerances, on the same output times): a bound of this run's error where errors grow between
// steps (a chaotic motion).
void estimateFromLooserRun(Results& run, const Results& looser);

// Fills run.errors[].measured: each group's largest difference from `tighter` (a run of the same project
// at a tighter accuracy, on the same output times) as a fraction of the group's excursion in `run`.
void measureErrors(Results& run, const Results& tighter);

}  // namespace flexarm
