// Loop closures between two links and closures that hold directions (Constraints.hpp: the `point`
// constraint's other link, `revolute` and `prismatic`): their rows' Jacobian and acceleration terms
// against difference quotients on a spatial arm with flexible links on both sides of every loop; a
// four-bar closed on a spinning platform, a slider-crank whose slider is a link on a prismatic closure,
// and a beam held by a revolute closure at its far end, against their closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"
#include "dynamics/Constraints.hpp"
#include "io/JsonReader.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::parseOrFail;
using flexarm::test::randomState;

namespace {

// A spatial arm: a flexible link (assumed modes: axial, bending, torsion), a rigid one, a flexible one
// (a spatial FEM mesh), with closures between points of each pair and to the world, at sections with
// offsets across them and along oblique axes.
std::string closedArm(const char* coupling) {
  return std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") + coupling + R"(",
      "links": [{"name": "a", "length": 0.8, "flex": {"section": {"preset": "rectangle", "width": 0.01, "height": 0.02},
                   "material": {"preset": "steel"}, "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1}}},
                {"name": "r", "length": 0.3, "mass": 1.2, "shape": {"type": "box", "width": 0.1, "height": 0.05}},
                {"name": "b", "length": 0.6, "flex": {"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02},
                   "material": {"preset": "aluminium"}, "basis": "fem", "elements": 3, "layout": "spatial"}}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1], "q0": 0.3, "flex": {"stiffness": 100, "rotor_inertia": 0.01}},
                 {"name": "j2", "type": "prismatic", "axis": [1, 0, 0], "q0": 0.05, "placement": {"rpy": [0.2, 0.1, 0]}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0], "q0": -0.4, "placement": {"xyz": [0.02, 0.01, 0], "rpy": [0, 0, 0.3]}}],
      "constraints": [
        {"name": "ba", "type": "point", "link": "b", "point": [0.4, 0.01, 0], "other_link": "a", "other_point": [0.5, 0, 0.02], "axes": "xz"},
        {"name": "bw", "type": "revolute", "link": "b", "point": [0.6, 0, 0.01], "world": [1, 0.2, 0], "axis": [0.3, 0.2, 0.9]},
        {"name": "ra", "type": "revolute", "link": "r", "point": [0.1, 0.02, 0], "other_link": "a", "other_point": [0.7, 0, 0], "axis": [0, 1, 1]},
        {"name": "br", "type": "prismatic", "link": "b", "point": [0.2, 0, 0.01], "other_link": "r", "other_point": [0.3, 0, 0], "axis": [1, 0.2, 0]},
        {"name": "aw", "type": "prismatic", "link": "a", "point": [0.3, 0, 0], "world": [0, 0, 0.1], "axis": [0, 0, 1]}],
      "simulation": {"solver": {"method": "ida"}}})";
}

}  // namespace

TEST(ClosureJoints, RowsJacobianAndAccelerationTermsAgreeWithDifferenceQuotients) {
  // Phi_q against central differences of Phi, column by column; and along a path
  // q(t) = q + t qd + t^2/2 qdd, d^2 Phi/dt^2 = Phi_q qdd - h against the second difference of Phi.
  // The iteration matrix's terms of the rows against difference quotients. The direction rows of
  // revolute and prismatic closures are zero in the initial state (they hold what the initial state has).
  std::mt19937 rng(11);
  for (const char* coupling : {"zero", "high"}) {
    const Project p = parseOrFail(closedArm(coupling));
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    ConstraintSet cs;
    ASSERT_TRUE(cs.build(sys, p.model, false));
    ASSERT_EQ(cs.size(), 2 + 5 + 5 + 5 + 5);
    ConstraintRows at, plus, minus;
    Eigen::VectorXd q0, qd0;
    sys.initialState(p.model, q0, qd0);
    cs.evaluate(0.0, q0, qd0, at);
    for (const ConstraintSet::Group& g : cs.groups())
      if (g.rows == 5) {
        const int first_direction = g.name == "br" || g.name == "aw" ? 2 : 3;
        for (int r = first_direction; r < 5; ++r) EXPECT_LT(std::abs(at.phi(g.first_row + r)), 1e-14) << g.name << " row " << r;
      }
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd q, qd;
      randomState(sys, rng, q, qd);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      Eigen::VectorXd qdd(sys.nq);
      for (int i = 0; i < sys.nq; ++i) qdd(i) = u(rng);
      cs.evaluate(0.0, q, qd, at);
      for (int c = 0; c < sys.nq; ++c) {
        const double h = 1e-6;
        Eigen::VectorXd qp = q, qm = q;
        qp(c) += h;
        qm(c) -= h;
        cs.evaluate(0.0, qp, qd, plus);
        cs.evaluate(0.0, qm, qd, minus);
        const Eigen::VectorXd d = (plus.phi - minus.phi) / (2 * h);
        EXPECT_LT((at.Phi_q.col(c) - d).cwiseAbs().maxCoeff(), 1e-7) << coupling << ", column " << sys.describeCoordinate(c);
      }
      // The iteration matrix's terms (ConstraintSet::addForceDerivative, rateDerivative).
      Eigen::VectorXd w(cs.size());
      for (int r = 0; r < cs.size(); ++r) w(r) = u(rng);
      const flexarm::test::ConstraintDerivatives dq = flexarm::test::constraintDerivatives(cs, 0.0, q, qd, w);
      EXPECT_GT(dq.G.norm(), 0.01);
      EXPECT_LT((dq.G - dq.G_differences).norm(), 1e-6 * dq.G.norm()) << coupling;
      EXPECT_LT((dq.R - dq.R_differences).norm(), 1e-6 * dq.R.norm()) << coupling;
      const double h = 1e-4;
      cs.evaluate(0.0, q + h * qd + 0.5 * h * h * qdd, qd, plus);
      cs.evaluate(0.0, q - h * qd + 0.5 * h * h * qdd, qd, minus);
      const Eigen::VectorXd second = (plus.phi - 2 * at.phi + minus.phi) / (h * h);
      const Eigen::VectorXd expected = at.Phi_q * qdd - at.h;
      for (const ConstraintSet::Group& g : cs.groups())
        EXPECT_LT((second - expected).segment(g.first_row, g.rows).cwiseAbs().maxCoeff(),
                  1e-5 * (1.0 + expected.cwiseAbs().maxCoeff()))
            << coupling << ", " << g.name << ": " << second.segment(g.first_row, g.rows).transpose() << " against "
            << expected.segment(g.first_row, g.rows).transpose();
    }
  }
}

namespace {

// The four-bar's closed form in the platform's frame: crank pivot A0 at the origin, rocker pivot at
// (g, 0); crank a at angle theta; coupler b from A to B, rocker c from B to D = (g, 0), B above the
// line A D (the branch the project starts on). Returns the coupler's angle relative to the crank and the
// rocker's relative to the coupler.
std::pair<double, double> fourBar(double a, double b, double c, double g, double theta) {
  const Eigen::Vector2d A(a * std::cos(theta), a * std::sin(theta)), D(g, 0.0);
  const Eigen::Vector2d AD = D - A;
  const double d = AD.norm();
  const double along = (b * b - c * c + d * d) / (2 * d), across = std::sqrt(b * b - along * along);
  const Eigen::Vector2d u = AD / d, n(-u.y(), u.x());
  const Eigen::Vector2d B = A + along * u + across * n;
  const double coupler = std::atan2(B.y() - A.y(), B.x() - A.x()), rocker = std::atan2(D.y() - B.y(), D.x() - B.x());
  return {std::remainder(coupler - theta, 2 * kPi), std::remainder(rocker - coupler, 2 * kPi)};
}

}  // namespace

namespace {

constexpr double kCrank = 0.1, kCoupler = 0.35, kRocker = 0.3, kGround = 0.3, kCrankRate = 12.0;

// A platform on a revolute joint about the world's z, its angle prescribed as amplitude sin(pi t); on
// it, a crank driven relative to it at 12 rad/s from its tip (0.2 m), a coupler and a rocker, the
// rocker's end pinned to the platform's point 0.5 m along it (a point closure between two links, held in
// the platform's x and y): the pivots 0.3 m apart.
Project platformFourBar(double amplitude) {
  const auto [q2, q3] = fourBar(kCrank, kCoupler, kRocker, kGround, 0.0);
  auto full = [](double x) { return Json(x).dump(); };  // every digit
  return parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, -9.81, 0],
    "links": [{"name": "platform", "length": 0.2, "mass": 3, "com": [0.1, 0, 0], "inertia": [0.01, 0.02, 0.02]},
              {"name": "crank", "length": 0.1, "mass": 0.2, "com": [0.05, 0, 0], "inertia": [1e-5, 2e-4, 2e-4]},
              {"name": "coupler", "length": 0.35, "mass": 0.5, "com": [0.175, 0, 0], "inertia": [1e-5, 5e-3, 5e-3]},
              {"name": "rocker", "length": 0.3, "mass": 0.4, "com": [0.15, 0, 0], "inertia": [1e-5, 3e-3, 3e-3]}],
    "joints": [{"name": "spin", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "sine", "amplitude": )" +
                     full(amplitude) + R"(, "frequency": 0.5}},
               {"name": "crank", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "polynomial", "coefficients": [0, 12]}},
               {"name": "coupler", "type": "revolute", "axis": [0, 0, 1], "q0": )" +
                     full(q2) + R"(},
               {"name": "rocker", "type": "revolute", "axis": [0, 0, 1], "q0": )" +
                     full(q3) + R"(}],
    "constraints": [{"name": "pin", "type": "point", "link": "rocker", "point": [0.3, 0, 0],
                     "other_link": "platform", "other_point": [0.5, 0, 0], "axes": "xy"}],
    "simulation": {"t_end": 1.0, "output_rate": 100, "solver": {"method": "ida", "rtol": 1e-10, "atol": 1e-12}}})");
}

}  // namespace

TEST(ClosureJoints, AFourBarClosedOnASpinningPlatformFollowsItsClosedForm) {
  // Whatever the platform does (here it swings by 2 rad), the joints' angles are the four-bar's of the
  // platform's frame: within 1e-8 rad over two turns of the crank.
  const Results run = simulate(platformFourBar(2.0));
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  const std::vector<double> t = run.column("t"), coupler = run.column("q.coupler"), rocker = run.column("q.rocker"),
                            spin = run.column("q.spin");
  ASSERT_EQ(t.size(), 101u);
  double worst = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const auto [e2, e3] = fourBar(kCrank, kCoupler, kRocker, kGround, kCrankRate * t[k]);
    worst =
        std::max({worst, std::abs(std::remainder(coupler[k] - e2, 2 * kPi)), std::abs(std::remainder(rocker[k] - e3, 2 * kPi))});
  }
  double swing = 0.0;
  for (double x : spin) swing = std::max(swing, std::abs(x));
  EXPECT_GT(swing, 1.9);  // the platform did turn
  EXPECT_LT(worst, 1e-8);
}

TEST(ClosureJoints, AnEndEffectorTheLoopHoldsStillHasNoErrorEstimateOfItsOwn) {
  // The same four-bar on a platform held still, run at the automatic method's accuracy: the end
  // effector (the rocker's end) is pinned, what it seems to move is the closure's violation (at the
  // output times, between steps), and an error as a fraction of that would mean nothing
  // (ErrorEstimate.hpp): the run reports the joints' error and no "ee" group. On the swinging platform
  // the pinned end moves with it, and has one.
  auto groups = [](const Results& r) {
    std::vector<std::string> g;
    for (const ErrorEstimate& e : r.errors) g.push_back(e.group);
    return g;
  };
  Project still = platformFourBar(0.0);
  still.simulation.rtol = still.simulation.atol = 0.0;  // the automatic method's tolerances, and its estimate
  still.simulation.method = SimulationSettings::Method::Auto;
  const Results a = simulate(still);
  ASSERT_EQ(a.status, RunStatus::Completed) << a.message;
  EXPECT_EQ(groups(a), std::vector<std::string>{"joints"});
  Project swinging = platformFourBar(2.0);
  swinging.simulation.rtol = swinging.simulation.atol = 0.0;
  swinging.simulation.method = SimulationSettings::Method::Auto;
  const Results b = simulate(swinging);
  ASSERT_EQ(b.status, RunStatus::Completed) << b.message;
  EXPECT_EQ(groups(b), (std::vector<std::string>{"ee", "joints"}));
}

TEST(ClosureJoints, ASliderOnAPrismaticClosureFollowsTheSliderCranksClosedForm) {
  // A crank (0.15 m) at 150 rad/s, a rod (0.3 m), and a slider: a short link on a revolute joint at the
  // rod's tip, held by a prismatic closure along the world's x (its line and its orientation). The
  // slider's tip is at x = L1 cos(omega t) + sqrt(L2^2 - L1^2 sin^2(omega t)) + s, y = 0 and its angle
  // stays 0: within 1e-9 m over 2.4 turns.
  const double L1 = 0.15, L2 = 0.3, s = 0.05, omega = 150.0;
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, 0],
    "links": [{"name": "crank", "length": 0.15, "mass": 0.36, "com": [0.075, 0, 0], "inertia": [1e-5, 7.02e-4, 7.02e-4]},
              {"name": "rod", "length": 0.3, "mass": 0.15, "com": [0.15, 0, 0], "inertia": [1e-9, 1.1e-3, 1.1e-3]},
              {"name": "slider", "length": 0.05, "mass": 0.0756, "com": [0.025, 0, 0], "inertia": [1e-5, 2e-5, 2e-5]}],
    "joints": [{"name": "crank", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "polynomial", "coefficients": [0, 150]}},
               {"name": "rod", "type": "revolute", "axis": [0, 0, 1], "qd0": -225},
               {"name": "slider", "type": "revolute", "axis": [0, 0, 1], "qd0": 75}],
    "constraints": [{"name": "guide", "type": "prismatic", "link": "slider", "point": [0, 0, 0], "world": [0.45, 0, 0], "axis": [1, 0, 0]}],
    "simulation": {"t_end": 0.1, "output_rate": 2000, "solver": {"method": "ida", "rtol": 1e-11, "atol": 1e-13}}})");
  const Results run = simulate(p);
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  const std::vector<double> t = run.column("t"), x = run.column("ee.x"), y = run.column("ee.y");
  const std::vector<double> q1 = run.column("q.crank"), q2 = run.column("q.rod"), q3 = run.column("q.slider");
  ASSERT_EQ(t.size(), 201u);
  double worst = 0.0, turn = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double sn = std::sin(omega * t[k]), expected = L1 * std::cos(omega * t[k]) + std::sqrt(L2 * L2 - L1 * L1 * sn * sn) + s;
    worst = std::max({worst, std::abs(x[k] - expected), std::abs(y[k])});
    turn = std::max(turn, std::abs(q1[k] + q2[k] + q3[k]));
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_LT(turn, 1e-9);
}

TEST(ClosureJoints, ABeamHingedAtBothEndsHasThePinnedAndTheClampedBeamsFrequencies) {
  // A beam on a revolute joint about z at its root, its tip held by a revolute closure to the world
  // about z (spatial FEM, 16 elements). In the plane of the hinges it is simply supported:
  // omega_k = (k pi / L)^2 sqrt(E Iz / rho A); out of it, both ends are clamped (the hinges hold the
  // turn about y): omega_1 = (4.730041 / L)^2 sqrt(E Iy / rho A); and its twist is held at both ends:
  // omega_1 = (pi / L) sqrt(G J / rho Ip). From the linearization on the motions the closure allows:
  // the bending frequencies within 0.1 %, the twist's within 1 % (the mesh's twist is linear in x).
  const double L = 1.0, E = 7e10, G = 2.6e10, rho = 2700, A = 4e-4, Iy = 1e-8, Iz = 3e-8, J = 2.5e-8;
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, 0],
    "links": [{"name": "beam", "length": 1.0, "flex": {"section": {"A": 4e-4, "Iy": 1e-8, "Iz": 3e-8, "J": 2.5e-8},
               "material": {"E": 7e10, "G": 2.6e10, "rho": 2700}, "basis": "fem", "elements": 16, "layout": "spatial"}}],
    "joints": [{"name": "hinge", "type": "revolute", "axis": [0, 0, 1]}],
    "constraints": [{"name": "far", "type": "revolute", "link": "beam", "point": [1, 0, 0], "world": [1, 0, 0], "axis": [0, 0, 1]}]})");
  LinearizationOptions options;
  const LinearizationResult r = linearize(p, options);
  ASSERT_EQ(r.message, "");
  EXPECT_LT(r.equilibrium_residual, 1e-9);
  auto nearest = [&](double omega) {
    double best = 1e300;
    for (const LinearMode& m : r.modes) best = std::min(best, std::abs(m.omega / omega - 1.0));
    return best;
  };
  const double in_plane = std::pow(kPi / L, 2) * std::sqrt(E * Iz / (rho * A));
  for (int k = 1; k <= 3; ++k) EXPECT_LT(nearest(k * k * in_plane), 1e-3) << "in-plane mode " << k;
  EXPECT_LT(nearest(std::pow(4.730041 / L, 2) * std::sqrt(E * Iy / (rho * A))), 1e-3) << "out-of-plane mode 1";
  EXPECT_LT(nearest(kPi / L * std::sqrt(G * J / (rho * (Iy + Iz)))), 1e-2) << "twist mode 1";
  // Nothing lower than the first in-plane mode: the closure leaves no rigid motion.
  for (const LinearMode& m : r.modes) EXPECT_GT(m.omega, 0.99 * in_plane);
}
