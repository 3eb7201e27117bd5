// IDA (solvers/IdaIntegrator.hpp, the constrained projects' method): at the tolerances of BDF at rtol 1e-6
// a tight-tolerance reference reproduced, and with the analytic iteration matrix the same motion as with
// SUNDIALS' difference quotients.
#include <gtest/gtest.h>

#include "FlexTestModels.hpp"
#include "ImplicitSolverChecks.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using namespace flexarm::test;  // ImplicitSolverChecks.hpp

// A sliding beam (constraints: IDA) at the tolerances of bdfAtRtol1e6() against IDA at rtol 1e-8 (IDA fails near
// t = 0 on the sliding beams at tighter tolerances): the beam's tip deflection within 0.1 % of its peak.
TEST(BdfAtRtol1e6, SlidingBeamMatchesTightReference) {
  Project p = test::loadShipped("sliding-beam-fast-push.flexarm.json");
  ASSERT_FALSE(p.model.constraints.empty());
  const SimulationSettings d = bdfAtRtol1e6();
  constexpr auto kIda = SimulationSettings::Method::Ida;
  const Results reference = runWith(p, kDifference, 0, 1e-8, 1e-10, kIda);
  const Results run = runWith(p, d.jacobian, d.max_order, d.rtol, d.atol, kIda);
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  for (const Link& l : p.model.links)
    if (l.flex) {
      EXPECT_LE(relativeDifference(run, reference, "tip." + l.name + ".v"), 1e-3) << l.name;
    }
}

TEST(ImplicitSolvers, IdaAnalyticIterationMatrixSameMotion) {
  Project p = test::loadShipped("sliding-beam-slow-push.flexarm.json");
  p.simulation.t_end = 1.0;
  const Results dq = runWith(p, kDifference, 0, 1e-8, 1e-10);
  const Results an = runWith(p, kAnalytic, 0, 1e-8, 1e-10);
  ASSERT_EQ(an.status, RunStatus::Completed) << an.message;
  for (const Channel& c : an.channels()) {
    if (c.name.rfind("tip.", 0) == 0 && peakAbs(dq.column(c.name)) > 1e-9) {
      EXPECT_LE(relativeDifference(an, dq, c.name), 1e-4) << c.name;
    }
  }
  // The constraints stay as well satisfied as with the difference quotients.
  for (const Channel& c : an.channels()) {
    if (c.name.rfind("constraint.", 0) == 0) {
      EXPECT_LE(peakAbs(an.column(c.name)), 10.0 * peakAbs(dq.column(c.name)) + 1e-9) << c.name;
    }
  }
}
