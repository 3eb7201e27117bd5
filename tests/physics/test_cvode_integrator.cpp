// CVODE (solvers/CvodeIntegrator.hpp) with the analytic iteration matrix (TangentStiffness.hpp) and the
// A-stable low BDF orders (simulation.solver.max_order): the same motion as SUNDIALS' difference quotients
// for fewer evaluations, and a tight-tolerance reference reproduced at the loose tolerances where the low
// orders take large steps; BDF at rtol 1e-6, what a new project got before issue 40.
#include <gtest/gtest.h>

#include "FlexTestModels.hpp"
#include "ImplicitSolverChecks.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using namespace flexarm::test;  // ImplicitSolverChecks.hpp

TEST(ImplicitSolvers, CvodeAnalyticIterationMatrixSameMotionFewerEvaluations) {
  Project p = test::loadShipped("spin-up-beam.flexarm.json");
  p.simulation.t_end = 10.0;
  const Results dq = runWith(p, kDifference, 0, 1e-7, 1e-9);
  const Results an = runWith(p, kAnalytic, 0, 1e-7, 1e-9);
  EXPECT_LE(relativeDifference(an, dq, "tip.beam.v"), 1e-4);
  EXPECT_LE(relativeDifference(an, dq, "tau.hub"), 1e-4);
  EXPECT_LT(an.stats.rhs_evaluations, dq.stats.rhs_evaluations);
  // With more coordinates the difference quotients (2n evaluations each) dominate: seed 004's arm.
  Project arm = test::loadShipped("spatial-rrr-flexible-seed004.flexarm.json");
  arm.simulation.t_end = 0.05;
  const Results arm_dq = runWith(arm, kDifference, 0, 1e-7, 1e-9, kBdf);
  const Results arm_an = runWith(arm, kAnalytic, 0, 1e-7, 1e-9, kBdf);
  for (const char* c : {"ee.x", "ee.y", "ee.z"}) EXPECT_LE(relativeDifference(arm_an, arm_dq, c), 1e-5) << c;
  EXPECT_LT(arm_an.stats.rhs_evaluations, 0.6 * arm_dq.stats.rhs_evaluations)
      << arm_an.stats.rhs_evaluations << " vs " << arm_dq.stats.rhs_evaluations;
}

// Seed 000's spin-up beam at 8 rad/s: BDF order 2 with the analytic matrix at rtol 1e-5 against
// CVODE BDF at rtol 1e-10. High order: the tip deflection within 0.1 % of its peak; zero order:
// the divergence at the same time within 1 %.
TEST(ImplicitSolvers, LowOrderBdfMatchesTightReferenceOnTheSpinUpBeam) {
  expectSpinUpAtEightMatchesReference(SimulationSettings::Method::Bdf, 2, 1e-5, 1e-7);
}

// The spin-up beam at 8 rad/s: high order within 0.1 % of the tip deflection's peak, zero order
// diverging at the reference's time to within 1 %.
TEST(BdfAtRtol1e6, SpinUpBeamMatchesTightReference) {
  const SimulationSettings d = bdfAtRtol1e6();
  expectSpinUpAtEightMatchesReference(d.method, d.max_order, d.rtol, d.atol, false);
}

TEST(BdfAtRtol1e6, Seed004MatchesTightReference) { expectSeed004MatchesTightReference(bdfAtRtol1e6()); }

TEST(BdfAtRtol1e6, FreeUndampedArmKeepsItsEnergy) { expectFreeArmKeepsItsEnergy(bdfAtRtol1e6()); }

TEST(BdfAtRtol1e6, CantileverMatchesTightReferenceAndItsStaticDeflection) {
  expectCantileverMatchesTightReference(bdfAtRtol1e6());
}
