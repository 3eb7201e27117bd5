// The CVODE run loop: output grid, prescribed coordinates, cancel, progress, failures.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
Project twoLinkArm() {
  const char* text = R"({"format": "flexarm-project", "schema_version": 1, "name": "two-link", "gravity": [0, 0, 0],
    "links": [{"name": "hub", "length": 1, "mass": 1, "shape": {"type": "rod"}},
              {"name": "arm", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "spinup", "omega0": 2, "T": 1.5}},
               {"name": "j2", "type": "revolute", "axis": [0, 0, 1], "qd0": 0.3}],
    "simulation": {"t_end": 2, "output_rate": 50, "solver": {"method": "bdf", "rtol": 1e-9, "atol": 1e-11}}})";
  LoadedProject p = parseProjectText(text, ".");
  EXPECT_TRUE(p.project) << p.diagnostics.text();
  return *p.project;
}
}  // namespace

TEST(Simulation, OutputGridAndChannels) {
  Project p = twoLinkArm();
  p.simulation.t_end = 1.03;  // not on the 50 Hz grid: the last row is t_end itself
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  ASSERT_EQ(r.rows(), 53u);
  EXPECT_DOUBLE_EQ(r.value(0, 0), 0.0);
  EXPECT_NEAR(r.value(51, 0), 1.02, 1e-12);
  EXPECT_DOUBLE_EQ(r.value(52, 0), 1.03);
  for (const char* name : {"t", "q.j1", "q.j2", "qd.j1", "qd.j2", "tau.j1", "tau.j2", "ee.x", "ee.y", "ee.z", "energy.kinetic",
                           "energy.potential", "energy.total"})
    EXPECT_GE(r.channelIndex(name), 0) << name;
  EXPECT_GT(r.stats.steps, 0);
  EXPECT_GT(r.stats.rhs_evaluations, r.stats.steps);
  EXPECT_GT(r.stats.jacobian_evaluations, 0);
  EXPECT_GT(r.stats.wall_time, 0.0);
}

TEST(Simulation, PrescribedJointFollowsItsLaw) {
  const Project p = twoLinkArm();
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const TimeFunction& law = p.model.joints[0].drive.law;
  const auto t = r.column("t"), q = r.column("q.j1"), qd = r.column("qd.j1");
  for (std::size_t k = 0; k < t.size(); ++k) {
    EXPECT_NEAR(q[k], law.evaluate(t[k]).value, 1e-12);
    EXPECT_NEAR(qd[k], law.evaluate(t[k]).rate, 1e-12);
  }
}

TEST(Simulation, AllJointsPrescribedNeedsNoIntegration) {
  Project p = twoLinkArm();
  p.model.joints[1].drive = p.model.joints[0].drive;
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  EXPECT_EQ(r.rows(), 101u);
  EXPECT_NEAR(r.column("q.j2").back(), p.model.joints[1].drive.law.evaluate(2.0).value, 1e-14);
}

TEST(Simulation, AdamsAgreesWithBdf) {
  Project p = twoLinkArm();
  const Results bdf = simulate(p);
  p.simulation.method = SimulationSettings::Method::Adams;
  const Results adams = simulate(p);
  ASSERT_EQ(adams.status, RunStatus::Completed) << adams.message;
  EXPECT_EQ(adams.stats.jacobian_evaluations, 0);
  EXPECT_NEAR(adams.column("q.j2").back(), bdf.column("q.j2").back(), 1e-6);
}

TEST(Simulation, ProgressIsReportedAndCancelStopsTheRun) {
  Project p = twoLinkArm();
  p.simulation.t_end = 100.0;
  std::atomic<bool> cancel{false};
  double last_progress = -1.0;
  bool monotone = true;
  RunControl control;
  control.cancel = &cancel;
  control.progress = [&](double t, double t_end) {
    EXPECT_EQ(t_end, 100.0);
    monotone = monotone && t >= last_progress;
    last_progress = t;
    if (t > 1.0) cancel = true;
  };
  const Results r = simulate(p, control);
  EXPECT_EQ(r.status, RunStatus::Cancelled);
  EXPECT_TRUE(monotone);
  EXPECT_GT(r.end_time, 1.0);
  EXPECT_LT(r.end_time, 2.0);
  EXPECT_GE(r.rows(), 50u);  // results up to the cancel are kept
  EXPECT_NE(r.message.find("cancelled"), std::string::npos);
}

TEST(Simulation, SolverFailureSaysWhenAndKeepsResults) {
  Project p = twoLinkArm();
  p.simulation.max_steps = 40;
  const Results r = simulate(p);
  EXPECT_EQ(r.status, RunStatus::Failed);
  EXPECT_NE(r.message.find("maximum number of steps"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("t = "), std::string::npos) << r.message;
  EXPECT_GT(r.end_time, 0.0);
  EXPECT_GE(r.rows(), 1u);
  EXPECT_LE(r.column("t").back(), r.end_time);
}

TEST(Simulation, SingularMassMatrixIsAClearFailure) {
  Project p = twoLinkArm();
  p.model.links[1].length = 0.0;  // a rod of zero length has no inertia about the joint
  const Results r = simulate(p);
  EXPECT_EQ(r.status, RunStatus::Failed);
  EXPECT_NE(r.message.find("not positive definite"), std::string::npos) << r.message;
}

TEST(Simulation, EveryMethodWithMultipliersRunsAConstrainedPendulum) {
  // A rod on two sliders and a revolute joint, one end held at the origin by a point constraint (x and
  // y): a pendulum in multipliers. Each method that takes constraints (IDA, Newmark, generalized-alpha
  // on the index-3 equations) keeps the end there, and the three agree on how far the rod fell in 0.2 s.
  // Short, for the sanitizer pass: the steppers' work space, the multipliers and the dense output.
  LoadedProject loaded = parseProjectText(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "sx", "length": 0, "mass": 1e-3, "com": [0, 0, 0], "inertia": [0, 0, 0, 0, 0, 0]},
              {"name": "sy", "length": 0, "mass": 1e-3, "com": [0, 0, 0], "inertia": [0, 0, 0, 0, 0, 0]},
              {"name": "rod", "length": 0.9, "mass": 1.5, "com": [0, 0, 0], "inertia": [0, 0.1, 0.1, 0, 0, 0]}],
    "joints": [{"name": "x", "type": "prismatic", "axis": [1, 0, 0], "q0": 0.41451},
               {"name": "y", "type": "prismatic", "axis": [0, 1, 0], "q0": -0.17524},
               {"name": "theta", "type": "revolute", "axis": [0, 0, 1], "q0": -0.4}],
    "constraints": [{"name": "pivot", "type": "point", "link": "rod", "point": [-0.45, 0, 0], "world": [0, 0, 0], "axes": "xy"}],
    "simulation": {"t_end": 0.2, "output_rate": 50, "solver": {"rtol": 1e-8, "atol": 1e-10, "step": 1e-4}}})",
                                          ".");
  ASSERT_TRUE(loaded.project) << loaded.diagnostics.text();
  Project p = *loaded.project;
  std::vector<double> fallen;
  for (const auto method :
       {SimulationSettings::Method::Ida, SimulationSettings::Method::Newmark, SimulationSettings::Method::GeneralizedAlpha}) {
    p.simulation.method = method;
    const Results r = simulate(p);
    ASSERT_EQ(r.status, RunStatus::Completed) << r.solver_description << ": " << r.message;
    for (double v : r.column("constraint.pivot.pos")) EXPECT_LT(v, 1e-6) << r.solver_description;
    fallen.push_back(r.column("q.theta").back());
  }
  ASSERT_EQ(fallen.size(), 3u);
  EXPECT_LT(fallen[0], -0.6);  // from -0.4 towards -pi/2
  EXPECT_NEAR(fallen[1], fallen[0], 1e-4);
  EXPECT_NEAR(fallen[2], fallen[0], 1e-5);
}
