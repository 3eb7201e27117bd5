// External loads and the static solver against closed forms: Euler-Bernoulli cantilevers under a tip
// force, a force inside the span, a tip moment, a torque and their own weight; a rigid pendulum pushed
// sideways; a PD-held rod against gravity; and the motion of rigid bodies under constant loads.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/StaticEquilibrium.hpp"
#include "base/Constants.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::cantilever;
using flexarm::test::parseOrFail;

namespace {

// A steel bar 1.5 m long with a raw section, so that each stiffness is known exactly.
constexpr double L = 1.5, A = 4e-4, Iy = 2e-8, Iz = 5e-8, J = 3e-8, E = 2.1e11, G = 8.1e10, rho = 7850.0;

std::string bar(const std::string& basis) {
  return R"({"section": {"A": 4e-4, "Iy": 2e-8, "Iz": 5e-8, "J": 3e-8}, "material": {"E": 2.1e11, "G": 8.1e10, "rho": 7850}, )" +
         basis + "}";
}
const std::string kPlanar = R"("basis": "fem", "elements": 6, "layout": "planar")";
const std::string kSpatial = R"("basis": "fem", "elements": 6, "layout": "spatial")";
const std::string kModes = R"("basis": "modes", "modes": {"bending_y": 5, "bending_z": 5, "axial": 2, "torsion": 2})";

// The cantilever of FlexTestModels.hpp (held root joint) with `loads` (JSON array) and gravity.
Project loadedBar(const std::string& basis, const std::string& loads, const std::string& coupling = "high",
                  const std::string& gravity = "[0, 0, 0]") {
  Project p = cantilever(bar(basis), L, R"("coupling": ")" + coupling + R"(", "loads": )" + loads + ",", "[]", gravity);
  return p;
}

StaticSolution solve(const Project& p) {
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  StaticSolution s = staticEquilibrium(p, sys);
  EXPECT_TRUE(s.converged) << s.message;
  return s;
}

double channel(const StaticSolution& s, const std::string& name) {
  const int c = s.results.channelIndex(name);
  EXPECT_GE(c, 0) << name;
  return c < 0 ? std::nan("") : s.results.value(0, static_cast<std::size_t>(c));
}

std::string tipLoad(const std::string& point, const std::string& force, const std::string& torque = "[0, 0, 0]",
                    const std::string& axes = "world") {
  return R"([{"name": "tool", "link": "beam", "point": )" + point + R"(, "force": )" + force + R"(, "torque": )" + torque +
         R"(, "axes": ")" + axes + R"("}])";
}

}  // namespace

TEST(StaticEquilibrium, TipForceGivesPL3Over3EIForEveryBasisAndCoupling) {
  const double P = 40.0;
  const double expected = -P * L * L * L / (3 * E * Iz);  // about 5 % of L: small, but not round-off
  for (const std::string& basis : {kPlanar, kSpatial, kModes})
    for (const char* coupling : {"zero", "geometric", "high"}) {
      const StaticSolution s = solve(loadedBar(basis, tipLoad("[1.5, 0, 0]", "[0, -40, 0]"), coupling));
      // Elements are exact at their nodes; five modes within 0.1 %. `high` coupling adds only the
      // foreshortening's second-order terms (|v/L|^2 ~ 1e-3 of v).
      const double v = channel(s, "tip.beam.v");
      EXPECT_NEAR(v / expected, 1.0, basis == kModes ? 5e-3 : 2e-3) << basis << " " << coupling;
      // The effort that holds the root: the force's moment about it.
      EXPECT_NEAR(s.effort(0) / (P * L), 1.0, 5e-3) << basis << " " << coupling;
    }
}

TEST(StaticEquilibrium, ForceInsideTheSpanGivesTheClosedFormAtTheTip) {
  // P at x = a: v(L) = P a^2 (3 L - a) / (6 E I). a = 0.55 L lies inside an element of the six.
  const double P = 25.0, a = 0.55 * L;
  const double expected = -P * a * a * (3 * L - a) / (6 * E * Iz);
  for (const std::string& basis : {kPlanar, kModes}) {
    const StaticSolution s = solve(loadedBar(basis, tipLoad("[0.825, 0, 0]", "[0, -25, 0]"), "zero"));
    EXPECT_NEAR(channel(s, "tip.beam.v") / expected, 1.0, basis == kModes ? 5e-3 : 1e-6) << basis;
  }
}

TEST(StaticEquilibrium, TipMomentTorqueAndOffsetForceGiveTheirClosedForms) {
  // A moment about z bends in x-y: v(L) = M L^2 / (2 E Iz); a torque about x twists: phi(L) = T L / (G J).
  const double M = 30.0, T = 12.0;
  for (const std::string& basis : {kSpatial, kModes}) {
    // Elements: exact (linear twist, cubic bending). Five clamped-free modes: within 1 % (a tip moment's
    // modal series converges slowly, as 1/k^2).
    const double tolerance = basis == kModes ? 1e-2 : 1e-9;
    const StaticSolution bent = solve(loadedBar(basis, tipLoad("[1.5, 0, 0]", "[0, 0, 0]", "[0, 0, 30]"), "zero"));
    EXPECT_NEAR(channel(bent, "tip.beam.v") / (M * L * L / (2 * E * Iz)), 1.0, tolerance) << basis;
    // Two clamped-free torsion modes sin((2k - 1) pi x / (2 L)) give the exact twist's modal series cut
    // after two terms: sum 8 / ((2k - 1)^2 pi^2) = 0.9006 of it.
    const double modes_share = basis == kModes ? 8 / (kPi * kPi) * (1.0 + 1.0 / 9.0) : 1.0;
    const StaticSolution twisted = solve(loadedBar(basis, tipLoad("[1.5, 0, 0]", "[0, 0, 0]", "[12, 0, 0]"), "zero"));
    EXPECT_NEAR(channel(twisted, "tip.beam.phi") / (modes_share * T * L / (G * J)), 1.0, basis == kModes ? 1e-6 : 1e-9) << basis;
  }
  // A force F along x at an offset d along z across the tip section: axial u = F L / (E A), and its
  // moment (0, F d, 0) about y bends in x-z: w(L) = -F d L^2 / (2 E Iy) (to first order in the tip slope).
  const double F = 500.0, d = 0.05;
  const StaticSolution s = solve(loadedBar(kSpatial, tipLoad("[1.5, 0, 0.05]", "[500, 0, 0]"), "zero"));
  EXPECT_NEAR(channel(s, "tip.beam.u") / (F * L / (E * A)), 1.0, 1e-3);
  EXPECT_NEAR(channel(s, "tip.beam.w") / (-F * d * L * L / (2 * E * Iy)), 1.0, 1e-3);
}

TEST(StaticEquilibrium, OwnWeightGivesWL4Over8EIWithoutARun) {
  const double g = 9.81, w = rho * A * g;
  const double expected = -w * std::pow(L, 4) / (8 * E * Iz);
  for (const std::string& basis : {kPlanar, kModes})
    for (const char* coupling : {"zero", "high"}) {
      const StaticSolution s = solve(loadedBar(basis, "[]", coupling, "[0, -9.81, 0]"));
      EXPECT_NEAR(channel(s, "tip.beam.v") / expected, 1.0, 5e-3) << basis << " " << coupling;
      EXPECT_NEAR(s.effort(0) / (w * L * L / 2), 1.0, 5e-3) << basis << " " << coupling;
      if (basis == kPlanar) {
        // The largest force balanced is an inner node's weight w h (and the elasticity that holds it), not
        // their sum, which is the residual itself (before, the force scale was that sum: 1e-11 N).
        EXPECT_NEAR(s.force_scale / (w * L / 6), 1.0, 1e-9) << coupling;
        EXPECT_LE(s.residual, 1e-10 * s.force_scale) << coupling;
      }
    }
}

TEST(StaticEquilibrium, APayloadOnASectionWeighsOnTheBeamThere) {
  // Own weight w L^4 / (8 E I) plus the payload's weight M g at x = a: M g a^2 (3 L - a) / (6 E I) at the
  // tip. a = 0.55 L lies inside an element of the six; the payload sits on the neutral axis.
  const double g = 9.81, w = rho * A * g, M = 2.0, a = 0.55 * L;
  const double expected = -(w * std::pow(L, 4) / (8 * E * Iz) + M * g * a * a * (3 * L - a) / (6 * E * Iz));
  const std::string payload = R"([{"name": "motor", "link": "beam", "frame": "section", "offset": [0.825, 0, 0], "mass": 2.0}])";
  for (const std::string& basis : {kPlanar, kModes})
    for (const char* coupling : {"zero", "high"}) {
      Project p = cantilever(bar(basis), L, std::string(R"("coupling": ")") + coupling + R"(",)", payload, "[0, -9.81, 0]");
      const StaticSolution s = solve(p);
      const bool exact = basis == kPlanar && std::string(coupling) == "zero";
      EXPECT_NEAR(channel(s, "tip.beam.v") / expected, 1.0, exact ? 1e-6 : 5e-3) << basis << " " << coupling;
      EXPECT_NEAR(s.effort(0) / (w * L * L / 2 + M * g * a), 1.0, 5e-3) << basis << " " << coupling;
    }
}

// A fine mesh: each coordinate's residual sums element forces far larger than what is left, so it
// stalls at its round-off above the force tolerance; the Newton step is then the measure of
// convergence (before, every load step was refused down to 0.1 % of gravity).
TEST(StaticEquilibrium, OwnWeightOfATwoHundredElementBeamConvergesAtItsRoundOff) {
  const double g = 9.81, w = rho * A * g;
  const double expected = -w * std::pow(L, 4) / (8 * E * Iz);
  const StaticSolution s =
      solve(loadedBar(R"("basis": "fem", "elements": 200, "layout": "spatial")", "[]", "high", "[0, -9.81, 0]"));
  EXPECT_EQ(s.load_steps, 1);
  EXPECT_NEAR(channel(s, "tip.beam.v") / expected, 1.0, 1e-3);
  // Newton on the sparse tangent stiffness throughout: no difference-quotient Jacobian (1 200 passes of
  // the equations and a dense LU of 1 200 rows each), so the solve's cost is linear in the mesh.
  EXPECT_EQ(s.difference_jacobians, 0);
}

// A fine mesh whose tangent stiffness cannot serve: a free joint (nothing but gravity and the push holds
// it, so K_t is singular there) takes the difference-quotient Jacobian, and hangs at the rigid rod's angle
// F L cos(theta) = m g (L/2) sin(theta) (the steel bar bends by micrometres).
TEST(StaticEquilibrium, AFineMeshOnAFreeJointFallsBackToTheDifferenceQuotients) {
  const double m = rho * A * L, F = 5.0, g = 9.81;
  const Project p =
      parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "coupling": "high", "gravity": [0, -9.81, 0],
    "links": [{"name": "beam", "length": 1.5, "flex": )" +
                  bar(R"("basis": "fem", "elements": 20, "layout": "spatial")") + R"(}],
    "joints": [{"name": "pivot", "type": "revolute", "axis": [0, 0, 1], "q0": -1.5707963267948966, "drive": {"type": "free"}}],
    "loads": [{"name": "push", "link": "beam", "point": [1.5, 0, 0], "force": [5, 0, 0], "axes": "world"}]})");
  const StaticSolution s = solve(p);
  EXPECT_GE(s.difference_jacobians, 1);
  EXPECT_NEAR(s.q(0), -kPi / 2 + std::atan(2 * F / (m * g)), 1e-4);
}

TEST(StaticEquilibrium, FollowerForceTurnsWithTheDeflectedTip) {
  // A tip force (0, -P, 0) in the link's axes turns with the tip section (slope theta = -P L^2 / (2 E Iz)):
  // in the body frame it is (P sin(theta), -P cos(theta), 0), so that with zero coupling (no
  // foreshortening) it compresses the bar by P sin(theta) L / (E A), which a world force does not.
  const double P = 40.0;
  const StaticSolution world = solve(loadedBar(kSpatial, tipLoad("[1.5, 0, 0]", "[0, -40, 0]"), "zero"));
  const StaticSolution follower = solve(loadedBar(kSpatial, tipLoad("[1.5, 0, 0]", "[0, -40, 0]", "[0, 0, 0]", "link"), "zero"));
  const double theta = -P * L * L / (2 * E * Iz);
  EXPECT_NEAR(channel(follower, "tip.beam.v") / channel(world, "tip.beam.v"), std::cos(theta), 1e-6);
  EXPECT_NEAR(channel(world, "tip.beam.u"), 0.0, 1e-15);
  EXPECT_NEAR(channel(follower, "tip.beam.u") / (P * std::sin(theta) * L / (E * A)), 1.0, 1e-4);
}

TEST(StaticEquilibrium, RigidPendulumPushedSidewaysHangsAtTheClosedFormAngle) {
  // A uniform rod of mass m on a free revolute joint, gravity along -y, a horizontal force F at its end:
  // F L cos(theta) = m g (L/2) sin(theta), theta from the vertical.
  const double m = 2.0, F = 5.0, g = 9.81;
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "rod", "length": 0.8, "mass": 2.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "pivot", "type": "revolute", "axis": [0, 0, 1], "q0": -1.5707963267948966, "drive": {"type": "free"}}],
    "loads": [{"name": "push", "link": "rod", "point": [0.8, 0, 0], "force": [5, 0, 0]}]})");
  const StaticSolution s = solve(p);
  const double theta = std::atan(2 * F / (m * g));
  EXPECT_NEAR(s.q(0), -kPi / 2 + theta, 1e-9);
}

TEST(StaticEquilibrium, PdDriveHoldsARodAgainstGravityWhereItsTorqueBalances) {
  // kp (0 - q) = m g (L/2) cos(q) (the rod's weight pulls it down from the set-point 0): solved here by
  // bisection, independently of the solver; the balance decreases in q.
  const double m = 3.0, len = 1.0, kp = 40.0, g = 9.81;
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "rod", "length": 1.0, "mass": 3.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "shoulder", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "pd", "kp": 40, "kd": 5, "setpoint": {"law": "constant", "value": 0}}}]})");
  double lo = -1.5, hi = 0.0;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (kp * (0 - mid) - m * g * 0.5 * len * std::cos(mid) > 0 ? lo : hi) = mid;
  }
  const StaticSolution s = solve(p);
  EXPECT_NEAR(s.q(0), 0.5 * (lo + hi), 1e-9);
  EXPECT_NEAR(s.effort(0), -kp * s.q(0), 1e-9);
}

TEST(StaticEquilibrium, SaysWhichJointNothingHolds) {
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, 0],
    "links": [{"name": "rod", "length": 1.0, "mass": 3.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "shoulder", "type": "revolute", "axis": [0, 0, 1], "drive": {"type": "free"}}]})");
  const StaticSolution s = staticEquilibrium(p, MultibodySystem::fromModel(p.model, p.coupling));
  EXPECT_FALSE(s.converged);
  EXPECT_NE(s.message.find("nothing holds q.shoulder"), std::string::npos) << s.message;
}

TEST(ExternalLoads, ConstantForceAcceleratesASliderAtFOverM) {
  // A 4 kg block on a prismatic joint along x, no gravity, 10 N along world x from t = 0: x = F t^2 / (2 m).
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, -9.81],
    "links": [{"name": "block", "length": 0.2, "mass": 4.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "rail", "type": "prismatic", "axis": [1, 0, 0], "drive": {"type": "free"}}],
    "loads": [{"name": "push", "link": "block", "point": [0.1, 0, 0.05], "force": [10, 0, 0]}],
    "simulation": {"t_end": 2.0, "accuracy": 1e-6}})");
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto x = r.column("q.rail"), t = r.column("t");
  for (std::size_t k = 0; k < x.size(); k += 37) EXPECT_NEAR(x[k], 10.0 * t[k] * t[k] / 8.0, 1e-6) << t[k];
}

TEST(ExternalLoads, FollowerForceSpinsARodAtConstantAngularAcceleration) {
  // A force normal to a rod at its end, in the rod's axes: a constant torque F L about the pivot,
  // theta = F L t^2 / (2 m L^2 / 3); in world axes the same force would not stay normal. A sine law
  // scales it: theta'' = F L sin(2 pi f t) / I.
  const double m = 1.5, len = 0.6, F = 2.0, I = m * len * len / 3;
  const std::string head = R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, 0],
    "links": [{"name": "rod", "length": 0.6, "mass": 1.5, "shape": {"type": "rod"}}],
    "joints": [{"name": "pivot", "type": "revolute", "axis": [0, 0, 1], "drive": {"type": "free"}}],
    "simulation": {"t_end": 1.5, "accuracy": 1e-6}, "loads": [{"name": "thrust", "link": "rod", "point": [0.6, 0, 0],
    "force": [0, 2, 0], "axes": "link")";
  {
    const Results r = simulate(parseOrFail(head + "}]}"));
    ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
    const auto q = r.column("q.pivot"), t = r.column("t");
    for (std::size_t k = 0; k < q.size(); k += 29) EXPECT_NEAR(q[k], F * len * t[k] * t[k] / (2 * I), 1e-6) << t[k];
  }
  const double f = 0.5, w = 2 * kPi * f;  // theta = (F L / I) (t / w - sin(w t) / w^2)
  const Results r = simulate(parseOrFail(head + R"(, "law": {"law": "sine", "amplitude": 1, "frequency": 0.5}}]})"));
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto q = r.column("q.pivot"), t = r.column("t");
  for (std::size_t k = 0; k < q.size(); k += 29)
    EXPECT_NEAR(q[k], F * len / I * (t[k] / w - std::sin(w * t[k]) / (w * w)), 1e-6) << t[k];
}

TEST(ExternalLoads, DynamicTipForceOnAFlexibleLinkSettlesAtTheStaticDeflection) {
  // The same tip force in a damped run: the arm comes to rest where the static solver puts it.
  Project p = loadedBar(kPlanar, tipLoad("[1.5, 0, 0]", "[0, -40, 0]"));
  p.model.links[0].flex->damping.rayleigh_alpha = 60.0;
  p.simulation.t_end = 3.0;
  p.simulation.output_rate = 20.0;
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const double v_static = channel(solve(p), "tip.beam.v");
  EXPECT_NEAR(r.column("tip.beam.v").back() / v_static, 1.0, 2e-3);
}

TEST(StaticEquilibrium, TwoLinkArmOnFlexibleJointsTwistsEachSpringByItsGravityTorque) {
  // Two rods on flexible joints (spring k, gear ratio N) whose motors a PD holds at 0, gravity along -y.
  // At rest each spring carries the gravity torque of what is beyond its joint, G_i(q):
  //   G_2 = m2 g (L2/2) cos(q1 + q2),  G_1 = m1 g (L1/2) cos q1 + m2 g (L1 cos q1 + (L2/2) cos(q1 + q2)),
  // so the torsion q_m/N - q is G_i / k_i, the motor drive supplies G_i / N, and its PD (on q_m / N)
  // stands at q_m / N = -G_i / (N kp).
  const double m1 = 4.0, L1 = 0.8, m2 = 2.5, L2 = 0.6, g = 9.81, k1 = 900.0, k2 = 400.0, N = 2.0, kp = 300.0;
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "upper", "length": 0.8, "mass": 4.0, "shape": {"type": "rod"}},
              {"name": "fore", "length": 0.6, "mass": 2.5, "shape": {"type": "rod"}}],
    "joints": [{"name": "shoulder", "type": "revolute", "axis": [0, 0, 1],
                "flex": {"stiffness": 900, "damping": 1, "rotor_inertia": 0.02, "gear_ratio": 2},
                "drive": {"type": "pd", "kp": 300, "kd": 10, "setpoint": {"law": "constant", "value": 0}}},
               {"name": "elbow", "type": "revolute", "axis": [0, 0, 1],
                "flex": {"stiffness": 400, "damping": 1, "rotor_inertia": 0.02, "gear_ratio": 2},
                "drive": {"type": "pd", "kp": 300, "kd": 10, "setpoint": {"law": "constant", "value": 0}}}]})");
  const StaticSolution s = solve(p);
  const double q1 = channel(s, "q.shoulder"), q2 = channel(s, "q.elbow");
  const double G2 = m2 * g * L2 / 2 * std::cos(q1 + q2);
  const double G1 = m1 * g * L1 / 2 * std::cos(q1) + m2 * g * (L1 * std::cos(q1) + L2 / 2 * std::cos(q1 + q2));
  EXPECT_LT(q1, -0.05);  // it sags
  EXPECT_NEAR(channel(s, "torsion.shoulder"), G1 / k1, 1e-9);
  EXPECT_NEAR(channel(s, "torsion.elbow"), G2 / k2, 1e-9);
  EXPECT_NEAR(s.effort(0), G1 / N, 1e-8);
  EXPECT_NEAR(s.effort(1), G2 / N, 1e-8);
  EXPECT_NEAR(channel(s, "qm.shoulder") / N, -G1 / (N * kp), 1e-9);
  EXPECT_NEAR(channel(s, "qm.elbow") / N, -G2 / (N * kp), 1e-9);
}

TEST(ExternalLoads, APiecewiseLawSwitchesTheForceOff) {
  // 10 N on a 4 kg slider until t = 1 s, then nothing: x = F t^2 / (2 m), then x(1) + v(1) (t - 1).
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, -9.81],
    "links": [{"name": "block", "length": 0.2, "mass": 4.0, "shape": {"type": "rod"}}],
    "joints": [{"name": "rail", "type": "prismatic", "axis": [1, 0, 0], "drive": {"type": "free"}}],
    "loads": [{"name": "push", "link": "block", "point": [0.1, 0, 0], "force": [10, 0, 0],
               "law": {"law": "piecewise", "pieces": [{"from": 0, "law": {"law": "constant", "value": 1}},
                                                      {"from": 1, "law": {"law": "constant", "value": 0}}]}}],
    "simulation": {"t_end": 2.0, "accuracy": 1e-6}})");
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto x = r.column("q.rail"), t = r.column("t");
  const double a = 10.0 / 4.0;
  for (std::size_t k = 0; k < x.size(); k += 13) {
    const double expected = t[k] <= 1.0 ? 0.5 * a * t[k] * t[k] : 0.5 * a + a * (t[k] - 1.0);
    EXPECT_NEAR(x[k], expected, 1e-5) << t[k];
  }
}
