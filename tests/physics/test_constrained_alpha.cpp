// Generalized-alpha with constraints and their multipliers (solvers/ConstrainedAlphaStepper.cpp, the
// index-3 form of Arnold & Bruls 2007): the flexible slider-crank's rod and a beam sliding through its
// supports against IDA, an independent formulation (the stabilized index-2 DAE under BDF) run at a
// tight accuracy. (A rigid slider-crank against its closed form: LoopClosure.* in test_loop_closure.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using Method = SimulationSettings::Method;

namespace {

// The shipped project with its method and accuracy set (the tolerances follow from the accuracy).
Project shippedWith(const std::string& name, Method method, double accuracy, double t_end) {
  Project p = flexarm::test::loadShipped(name + ".flexarm.json");
  p.simulation.method = method;
  p.simulation.accuracy = accuracy;
  p.simulation.rtol = p.simulation.atol = 0.0;
  p.simulation.t_end = t_end;
  return p;
}

// The largest difference of a channel between two runs on the same output times, over the reference's
// largest magnitude.
double relativeDifference(const Results& run, const Results& reference, const std::string& channel) {
  const std::vector<double> a = run.column(channel), b = reference.column(channel);
  EXPECT_EQ(a.size(), b.size()) << channel;
  double worst = 0.0, peak = 0.0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    worst = std::max(worst, std::abs(a[k] - b[k]));
    peak = std::max(peak, std::abs(b[k]));
  }
  return worst / peak;
}

}  // namespace

TEST(ConstrainedAlpha, TheFlexibleSliderCranksRodAgreesWithIdaAndConvergesWithTheAccuracy) {
  // Simeon's slider-crank over its first 40 ms: the rod's tip deflection under generalized-alpha at the
  // accuracies 1e-4 and 1e-5 against IDA at 1e-6: within 2 % and 0.3 % of its largest value (measured
  // 0.84 % and 0.088 %), the tighter closer.
  const Results reference = simulate(shippedWith("flexible-slider-crank", Method::Ida, 1e-6, 0.04));
  ASSERT_EQ(reference.status, RunStatus::Completed) << reference.message;
  std::vector<double> differences;
  for (double accuracy : {1e-4, 1e-5}) {
    const Results run = simulate(shippedWith("flexible-slider-crank", Method::GeneralizedAlpha, accuracy, 0.04));
    ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
    differences.push_back(relativeDifference(run, reference, "tip.rod.v"));
  }
  EXPECT_LT(differences[0], 0.02);
  EXPECT_LT(differences[1], 0.003);
  EXPECT_LT(differences[1], differences[0]);
}

TEST(ConstrainedAlpha, ABeamSlidingThroughItsSupportsAgreesWithIda) {
  // Seed 003's fast push (two sliding supports, the sliding joint prescribed): the beam's tip deflection
  // under generalized-alpha at the accuracy 1e-4 against IDA at 1e-6, within 1 % of its largest value
  // (measured 0.35 %).
  const Results reference = simulate(shippedWith("sliding-beam-fast-push", Method::Ida, 1e-6, 1.5));
  const Results run = simulate(shippedWith("sliding-beam-fast-push", Method::GeneralizedAlpha, 1e-4, 1.5));
  ASSERT_EQ(reference.status, RunStatus::Completed) << reference.message;
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  EXPECT_LT(relativeDifference(run, reference, "tip.beam.v"), 0.01);
  for (double v : run.column("constraint.support1.pos")) EXPECT_LT(v, 1e-6);
}
