// The ESDIRK method on the residual form (solvers/Esdirk.hpp, method esdirk): tight-tolerance references
// reproduced in few steps, and its tables' orders of convergence.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "FlexTestModels.hpp"
#include "ImplicitSolverChecks.hpp"
#include "solvers/Esdirk.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using namespace flexarm::test;  // ImplicitSolverChecks.hpp

// The ESDIRK method on the residual form (solver method esdirk, Esdirk.hpp) against CVODE BDF at rtol
// 1e-10: the cantilever's tip history within 0.1 % of its peak and its final deflection within 1 % of
// the closed form w L^4 / (8 E I), in fewer steps than a tenth of the reference's and with fewer than
// 15 % of its steps failing the error test (order 5 at rtol 1e-4: fewer than a thirtieth); the
// spin-up beam at 8 rad/s within 0.1 % of the tip deflection's peak (high order) and the zero-order
// divergence time within 1 %.
TEST(ImplicitSolvers, EsdirkOnTheResidualFormMatchesTightReferences) {
  constexpr auto kEsdirk = SimulationSettings::Method::Esdirk;
  SimulationSettings s;
  s.method = kEsdirk;
  s.rtol = 1e-5;
  s.atol = 1e-7;
  const auto [stats, reference_steps] = expectCantileverMatchesTightReference(s);
  EXPECT_LT(10 * stats.steps, reference_steps) << stats.steps << " steps";
  // The step follows the largest of the last three error estimates, weighed at both ends of the step:
  // growing it from an estimate passing through zero (twice per vibration period) failed the next
  // step's test, 171 times for 555 steps; now 37 for 528.
  EXPECT_LT(stats.error_test_failures, 0.15 * static_cast<double>(stats.steps)) << stats.error_test_failures << " failed steps";
  // Order 5 at rtol 1e-4, the rung at which the bench runs the cantilever (docs/performance.md).
  s.max_order = 5;
  s.rtol = 1e-4;
  s.atol = 1e-6;
  const auto [stats5, steps] = expectCantileverMatchesTightReference(s);
  EXPECT_LT(30 * stats5.steps, steps) << stats5.steps << " steps";
  expectSpinUpAtEightMatchesReference(kEsdirk, 0, 1e-6, 1e-8);
}

// The ESDIRK tables of order 3, 4 and 5 on the residual form converge at their order: the bank of
// damped oscillators over 2 s with fixed steps (max_step and initial_step h, the error test never
// failing at rtol 1), its positions at the end against the exact solution. Halving h divides the error
// by about 2^3 = 8, 2^4 = 16 and 2^5 = 32.
TEST(ImplicitSolvers, EsdirkOnTheResidualFormConvergesAtItsOrder) {
  auto error = [](int order, int steps) {
    OscillatorBank bank(20);
    const int n = bank.size();
    const Eigen::VectorXd y0 = bank.released();
    const double t_end = 2.0, h = t_end / steps;
    SimulationSettings s;
    s.method = SimulationSettings::Method::Esdirk;
    s.max_order = order;
    s.rtol = s.atol = 1.0;
    s.max_step = s.initial_step = h;
    EsdirkIntegrator integrator;
    EXPECT_TRUE(integrator.init(bank, 2 * n, y0.data(), 0.0, t_end, s));
    double t = 0.0;
    while (t < t_end) {
      const int flag = integrator.step(t);
      EXPECT_GE(flag, 0) << "at t = " << t;
      if (flag < 0) break;
    }
    EXPECT_EQ(integrator.stats().steps, steps);
    EXPECT_EQ(integrator.stats().error_test_failures, 0);
    double worst = 0.0;
    for (int i = 0; i < n; ++i)
      worst = std::max(worst, std::abs(integrator.state()[i] - OscillatorBank::exactPosition(i, t_end)));
    return worst;
  };
  for (int order : {3, 4, 5}) {
    const double coarse = error(order, 100), fine = error(order, 200);
    std::printf("order %d: error %.3g with 100 steps, %.3g with 200 (ratio %.1f)\n", order, coarse, fine, coarse / fine);
    EXPECT_GT(coarse / fine, 0.8 * std::pow(2.0, order)) << "order " << order;
    EXPECT_LT(coarse / fine, 1.25 * std::pow(2.0, order)) << "order " << order;
  }
}
