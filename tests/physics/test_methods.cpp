// Every method of the integrators' table (solvers/Integrators.hpp) on one small arm and one constrained
// arm, against an independent integration of the same motion: a rod pendulum, integrated here by
// classical Runge-Kutta on theta'' = -(3 g / 2 L) cos theta with a step far below the methods' error.
// The constrained arm is the same rod as a free body on two sliders held at its end by a point
// constraint (its sliders weigh 1e-9 kg, far below the tolerance).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "FlexTestModels.hpp"
#include "model/SolverMethods.hpp"
#include "solvers/Integrators.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::parseOrFail;

namespace {

constexpr double kL = 0.9, kMass = 1.5, kG = 9.81, kTheta0 = -0.4, kTEnd = 3.0, kOutputRate = 20.0;

std::string inertia() {
  const double i = kMass * kL * kL / 12.0;
  return "[0, " + std::to_string(i) + ", " + std::to_string(i) + ", 0, 0, 0]";
}

Project pendulum() {
  return parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "rod", "length": 0.9, "mass": 1.5, "com": [0.45, 0, 0], "inertia": )" +
                     inertia() + R"(}],
    "joints": [{"name": "theta", "type": "revolute", "axis": [0, 0, 1], "q0": -0.4}],
    "simulation": {"t_end": 3.0, "output_rate": 20}})");
}

Project heldPendulum() {
  return parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "sx", "length": 0, "mass": 1e-9, "com": [0, 0, 0], "inertia": [0, 0, 0, 0, 0, 0]},
              {"name": "sy", "length": 0, "mass": 1e-9, "com": [0, 0, 0], "inertia": [0, 0, 0, 0, 0, 0]},
              {"name": "rod", "length": 0.9, "mass": 1.5, "com": [0, 0, 0], "inertia": )" +
                     inertia() + R"(}],
    "joints": [{"name": "x", "type": "prismatic", "axis": [1, 0, 0], "q0": )" +
                     std::to_string(0.5 * kL * std::cos(kTheta0)) + R"(},
               {"name": "y", "type": "prismatic", "axis": [0, 1, 0], "q0": )" +
                     std::to_string(0.5 * kL * std::sin(kTheta0)) + R"(},
               {"name": "theta", "type": "revolute", "axis": [0, 0, 1], "q0": -0.4}],
    "constraints": [{"name": "pivot", "type": "point", "link": "rod", "point": [-0.45, 0, 0], "world": [0, 0, 0], "axes": "xy"}],
    "simulation": {"t_end": 3.0, "output_rate": 20, "solver": {"method": "ida"}}})");
}

// theta at the output times k / kOutputRate, by RK4 with 2000 steps per output interval.
std::vector<double> referenceTheta() {
  const double w2 = 1.5 * kG / kL, h = 1.0 / kOutputRate / 2000.0;
  auto acc = [&](double th) { return -w2 * std::cos(th); };
  double th = kTheta0, om = 0.0;
  std::vector<double> out{th};
  const long outputs = std::lround(kTEnd * kOutputRate);
  for (long k = 0; k < outputs; ++k) {
    for (int s = 0; s < 2000; ++s) {
      const double k1t = om, k1o = acc(th);
      const double k2t = om + 0.5 * h * k1o, k2o = acc(th + 0.5 * h * k1t);
      const double k3t = om + 0.5 * h * k2o, k3o = acc(th + 0.5 * h * k2t);
      const double k4t = om + h * k3o, k4o = acc(th + h * k3t);
      th += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
      om += h / 6.0 * (k1o + 2 * k2o + 2 * k3o + k4o);
    }
    out.push_back(th);
  }
  return out;
}

// The method at tolerances (or Newmark's step) whose error on this motion is far below 1e-5 rad. Newmark's
// iteration stalled at its round-off on the held pendulum's fastest point at this step before it accepted
// a stalled correction within 100 times its tolerance.
Project withMethod(Project p, const SolverMethodInfo& m) {
  p.simulation.method = m.method;
  p.simulation.rtol = 1e-10;
  p.simulation.atol = 1e-12;
  p.simulation.step = 2.5e-4;
  return p;
}

double worstThetaError(const Results& r, const std::vector<double>& reference) {
  const std::vector<double> theta = r.column("q.theta");
  EXPECT_EQ(theta.size(), reference.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < std::min(theta.size(), reference.size()); ++k)
    worst = std::max(worst, std::abs(theta[k] - reference[k]));
  return worst;
}

}  // namespace

TEST(Methods, EveryMethodOfTheFormatHasAnIntegratorAndAgreesOnWhetherItTakesConstraints) {
  std::size_t concrete = 0;
  for (const SolverMethodInfo& m : solverMethods()) {
    if (m.method == SimulationSettings::Method::Auto) continue;
    ++concrete;
    const IntegratorEntry& e = integrator(m.method);
    EXPECT_EQ(e.method, m.method) << m.name;
    EXPECT_NE(e.make, nullptr) << m.name;
    EXPECT_GT(e.rtol_at_1e3, 0.0) << m.name;
    SimulationSettings s;
    s.method = m.method;
    EXPECT_EQ(s.constrained(), m.constraints) << m.name;
  }
  EXPECT_EQ(integrators().size(), concrete);
}

TEST(Methods, EveryMethodFollowsAPendulumIntegratedIndependently) {
  const std::vector<double> reference = referenceTheta();
  const Project arm = pendulum();
  for (const SolverMethodInfo& m : solverMethods()) {
    if (m.method == SimulationSettings::Method::Auto) continue;
    const Results r = simulate(withMethod(arm, m));
    ASSERT_EQ(r.status, RunStatus::Completed) << m.name << ": " << r.message;
    EXPECT_LT(worstThetaError(r, reference), 1e-5) << m.name;
    EXPECT_GT(r.stats.steps, 10) << m.name;
  }
}

TEST(Methods, EveryMethodWithMultipliersFollowsThePendulumHeldByAPointConstraint) {
  const std::vector<double> reference = referenceTheta();
  const Project held = heldPendulum();
  int with_multipliers = 0;
  for (const SolverMethodInfo& m : solverMethods()) {
    if (!m.constraints || m.method == SimulationSettings::Method::Auto) continue;
    ++with_multipliers;
    const Results r = simulate(withMethod(held, m));
    ASSERT_EQ(r.status, RunStatus::Completed) << m.name << ": " << r.message;
    EXPECT_LT(worstThetaError(r, reference), 1e-5) << m.name;
    for (double v : r.column("constraint.pivot.pos")) EXPECT_LT(v, 1e-7) << m.name;
  }
  EXPECT_GE(with_multipliers, 3);  // ida, galpha and newmark
}
