// Motions with closed-form answers: the compound pendulum's small-oscillation period, the torque
// that drives a rod along a prescribed spin-up, and a prismatic joint under gravity and a force.
#include <gtest/gtest.h>

#include <cmath>

#include "base/Constants.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
using flexarm::kPi;

Project rodProject(const std::string& joint_json, const std::string& gravity, double t_end) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1, "gravity": )" + gravity + R"(,
    "links": [{"name": "rod", "length": 1.2, "mass": 3, "shape": {"type": "rod"}}],
    "joints": [)" + joint_json +
                           R"(],
    "simulation": {"t_end": )" +
                           std::to_string(t_end) +
                           R"(, "output_rate": 1000, "solver": {"method": "bdf", "rtol": 1e-10, "atol": 1e-12}}})";
  LoadedProject p = parseProjectText(text, ".");
  EXPECT_TRUE(p.project) << p.diagnostics.text();
  return *p.project;
}
}  // namespace

TEST(ClosedForm, CompoundPendulumSmallOscillationPeriod) {
  // Hanging rod (q = pi/2 points the rod down), released 0.01 rad off: T = 2 pi sqrt(2 L / (3 g)).
  const Project p =
      rodProject(R"({"name": "pivot", "type": "revolute", "axis": [0, 1, 0], "q0": 1.5807963267948966})", "[0, 0, -9.81]", 6.0);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto t = r.column("t"), q = r.column("q.pivot");
  std::vector<double> crossings;  // upward zero crossings of q - pi/2, linearly interpolated
  for (std::size_t k = 1; k < t.size(); ++k) {
    const double a = q[k - 1] - kPi / 2, b = q[k] - kPi / 2;
    if (a < 0 && b >= 0) crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * (-a) / (b - a));
  }
  ASSERT_GE(crossings.size(), 3u);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double expected = 2 * kPi * std::sqrt(2 * 1.2 / (3 * 9.81));
  // Amplitude 0.01 rad lengthens the period by theta0^2/16 = 6e-6 relative.
  EXPECT_NEAR(period / expected, 1.0, 2e-5) << period << " vs " << expected;
}

TEST(ClosedForm, TorqueToFollowAPrescribedSpinUpIsInertiaTimesAcceleration) {
  // Rod about a vertical axis through its end, no gravity effect: tau = (m L^2 / 3) theta''(t).
  const Project p = rodProject(
      R"({"name": "hub", "type": "revolute", "axis": [0, 0, 1], "drive": {"type": "prescribed", "law": "spinup", "omega0": 3, "T": 2}})",
      "[0, 0, -9.81]", 3.0);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const double I = 3.0 * 1.2 * 1.2 / 3.0;
  const auto t = r.column("t"), tau = r.column("tau.hub");
  for (std::size_t k = 0; k < t.size(); k += 97) {
    const double accel = t[k] < 2.0 ? 3.0 / 2.0 * (1 - std::cos(2 * kPi * t[k] / 2.0)) : 0.0;
    EXPECT_NEAR(tau[k], I * accel, 1e-10) << "t=" << t[k];
  }
}

TEST(ClosedForm, TorqueToFollowAPrescribedSwingInGravity) {
  // Rod swinging in a vertical plane along seed 001's law: tau = (m L^2/3) q'' - m g (L/2) cos q.
  const Project p = rodProject(
      R"({"name": "hub", "type": "revolute", "axis": [0, 1, 0], "drive": {"type": "prescribed", "law": "out_and_back", "amplitude": 0.5235987755982988, "t0": 1.0}})",
      "[0, 0, -9.81]", 1.0);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const TimeFunction& law = p.model.joints[0].drive.law;
  const auto t = r.column("t"), tau = r.column("tau.hub");
  for (std::size_t k = 0; k < t.size(); k += 53) {
    const TimeSample s = law.evaluate(t[k]);
    const double expected = 3.0 * 1.2 * 1.2 / 3.0 * s.accel - 3.0 * 9.81 * 0.6 * std::cos(s.value);
    EXPECT_NEAR(tau[k], expected, 1e-9) << "t=" << t[k];
  }
}

TEST(ClosedForm, PrismaticJointUnderGravityAndConstantForce) {
  // Vertical slider: x(t) = 1/2 (F/m - g) t^2 with F = 40 N, m = 3 kg.
  const Project p = rodProject(
      R"({"name": "lift", "type": "prismatic", "axis": [0, 0, 1], "drive": {"type": "effort", "law": "constant", "value": 40}})",
      "[0, 0, -9.81]", 2.0);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto t = r.column("t"), x = r.column("q.lift"), tau = r.column("tau.lift");
  for (std::size_t k = 0; k < t.size(); k += 100) {
    EXPECT_NEAR(x[k], 0.5 * (40.0 / 3.0 - 9.81) * t[k] * t[k], 1e-8) << t[k];
    EXPECT_EQ(tau[k], 40.0);
  }
}
