// Loops closed through flexible links (dynamics/LinkPoint.hpp, the point rows of Constraints.hpp):
// a point of any link, rigid or at a section of a flexible link, with flexible links on the way, sits
// where the equations of motion put it and moves as they move it; a beam pinned at its root and held at
// its tip has the simply supported beam's frequencies in the linearization on the motions the
// constraint allows; the rod of a flexible slider-crank deflects alike on every mesh and with assumed
// modes. (The iteration matrix of every shipped constrained project, the slider-crank and the four-bar
// among them, is checked in test_constraints.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"
#include "base/Files.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ExternalLoads.hpp"
#include "dynamics/LinkPoint.hpp"
#include "io/JsonReader.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::parseOrFail;
using flexarm::test::randomState;

namespace {

// A spatial arm with flexible links before and after a rigid one (assumed modes with axial, bending
// and torsion; a spatial FEM mesh), a flexible joint and a prismatic joint, and two loads at sections
// with offsets across them: their points are where the equations act.
Project spatialArm(const char* coupling) {
  const char* modes = R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.02}, "material": {"preset": "steel"},
                          "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1}})";
  const char* fem = R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02},
                        "material": {"preset": "aluminium"}, "basis": "fem", "elements": 3, "layout": "spatial"})";
  return parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") + coupling + R"(",
      "links": [{"name": "a", "length": 0.8, "flex": )" +
                     modes + R"(},
                {"name": "r", "length": 0.3, "mass": 1.2, "shape": {"type": "box", "width": 0.1, "height": 0.05}},
                {"name": "b", "length": 0.6, "flex": )" +
                     fem + R"(}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1], "flex": {"stiffness": 100, "rotor_inertia": 0.01, "gear_ratio": 4}},
                 {"name": "j2", "type": "prismatic", "axis": [1, 0, 0], "placement": {"rpy": [0.2, 0.1, 0]}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0], "placement": {"xyz": [0.02, 0.01, 0], "rpy": [0, 0, 0.3]}}],
      "loads": [{"name": "on_a", "link": "a", "point": [0.55, 0.01, -0.02], "force": [1, 0, 0]},
                {"name": "on_b", "link": "b", "point": [0.37, -0.015, 0.01], "force": [1, 0, 0]}]})");
}

}  // namespace

TEST(LoopClosure, ALinkPointIsWhereTheEquationsPutItAndMovesAsTheyMoveIt) {
  // Every link's tip against the distal frame of the equations' kinematics, and the loads' points at
  // sections with offsets against the equations' load points: positions to 1e-13 m; J qd against the
  // velocity the equations propagate to the tip, and J against central differences of the position.
  std::mt19937 rng(7);
  for (const char* coupling : {"zero", "geometric", "high"}) {
    const Project p = spatialArm(coupling);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    DynamicsData data(sys);
    for (int trial = 0; trial < 4; ++trial) {
      Eigen::VectorXd q, qd;
      randomState(sys, rng, q, qd);
      const Eigen::VectorXd qdd = Eigen::VectorXd::Zero(sys.nq);
      data.every_distal_jacobian = true;
      compositeEquations(sys, data, q, qd, qdd, false);
      std::vector<LinkPoint> points;
      for (std::size_t k = 0; k < sys.bodies.size(); ++k) {
        const Body& b = sys.bodies[k];
        points.emplace_back(sys, static_cast<int>(k),
                            b.isFlexible() ? Eigen::Vector3d(b.length, 0, 0) : b.X_body_distal.translation());
        const BodyFrames& fr = data.frames[k];
        Eigen::Vector3d pos;
        Eigen::Matrix<double, 3, Eigen::Dynamic> J;
        points.back().jacobian(q, pos, J);
        EXPECT_LT((pos - fr.X_world_distal.translation()).norm(), 1e-13) << coupling << " tip of " << b.name;
        const Eigen::Vector3d v = fr.X_world_distal.linear() * fr.v_distal.tail<3>();
        EXPECT_LT((J * qd - v).norm(), 1e-12 * (1.0 + v.norm()))
            << coupling << " tip of " << b.name << ": " << (J * qd).transpose() << " against " << v.transpose();
      }
      for (std::size_t k = 0; k < sys.loads.size(); ++k) {
        const Load& load = p.model.loads[k];
        points.emplace_back(sys, load.link, load.point);
        const LoadState at = loadState(sys, data, LoadFrames::Equations, static_cast<int>(k), 0.0, q);
        EXPECT_LT((points.back().position(q) - at.position).norm(), 1e-13) << coupling << " load " << load.name;
      }
      for (const LinkPoint& lp : points) {  // J against central differences of the position
        Eigen::Vector3d pos;
        Eigen::Matrix<double, 3, Eigen::Dynamic> J;
        lp.jacobian(q, pos, J);
        for (int c = 0; c < sys.nq; ++c) {
          const double h = 1e-6;
          Eigen::VectorXd qp = q, qm = q;
          qp(c) += h;
          qm(c) -= h;
          const Eigen::Vector3d d = (lp.position(qp) - lp.position(qm)) / (2 * h);
          EXPECT_LT((J.col(c) - d).norm(), 1e-8) << coupling << " body " << lp.body() << ", column " << sys.describeCoordinate(c);
        }
      }
    }
  }
}

namespace {

// A beam on a free revolute joint at its root, its tip held by a point constraint: on a roller (the
// world's y held) it is simply supported; held in x too, pinned at both ends. EI = 1400 N m²,
// rho A = 1.08 kg/m, L = 1 m.
std::string pinnedBeam(const std::string& axes, const std::string& basis) {
  return R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "beam", "length": 1.0, "flex": {"section": {"A": 4e-4, "Iy": 2e-8, "Iz": 2e-8, "J": 4e-8},
               "material": {"E": 7e10, "G": 2.6e10, "rho": 2700}, )" +
         basis + R"(}}],
    "joints": [{"name": "pin", "type": "revolute", "axis": [0, 0, 1]}],
    "constraints": [{"name": "tip", "type": "point", "link": "beam", "point": [1.0, 0, 0], "world": [1.0, 0, 0], "axes": ")" +
         axes + R"("}]})";
}

}  // namespace

TEST(LoopClosure, ABeamPinnedAtItsRootAndHeldAtItsTipHasTheSimplySupportedBeamsFrequencies) {
  // The linearization on the motions the tip's constraint allows (Linearization.hpp): in the plane of
  // the pin, omega_k = (k pi / L)^2 sqrt(EI / rho A) (Euler-Bernoulli), the first three within 0.1 %,
  // on a planar mesh and on a spatial one (whose bending out of the plane is a cantilever's: the pin
  // holds it at the root and the roller leaves it free at the tip). Held in x as well, the in-plane
  // bending frequencies stay: the axial motion is not coupled to them at rest.
  const double L = 1.0, EI = 7e10 * 2e-8, rhoA = 2700 * 4e-4;
  const double w1 = std::pow(kPi / L, 2) * std::sqrt(EI / rhoA);
  struct Case {
    std::string axes, basis;
  };
  for (const Case& c : {Case{"y", R"("basis": "fem", "elements": 12, "layout": "planar")"},
                        Case{"xy", R"("basis": "fem", "elements": 12, "layout": "planar")"},
                        Case{"y", R"("basis": "fem", "elements": 12, "layout": "spatial")"}}) {
    const Project p = parseOrFail(pinnedBeam(c.axes, c.basis));
    LinearizationOptions options;
    const LinearizationResult r = linearize(p, options);
    ASSERT_EQ(r.message, "") << c.axes << " " << c.basis;
    EXPECT_LT(r.equilibrium_residual, 1e-9);
    // The in-plane bending modes: those that turn the pin (by half their largest component; the
    // out-of-plane ones turn it by round-off of the difference quotients, below 1e-3).
    std::vector<double> in_plane;
    for (const LinearMode& m : r.modes)
      if (std::abs(m.shape(0)) > 0.1 && m.omega < 20 * w1) in_plane.push_back(m.omega);
    ASSERT_GE(in_plane.size(), 3u) << c.axes << " " << c.basis;
    for (int k = 1; k <= 3; ++k)
      EXPECT_NEAR(in_plane[static_cast<std::size_t>(k - 1)] / (k * k * w1), 1.0, 1e-3)
          << c.axes << " " << c.basis << ": mode " << k << " at " << in_plane[static_cast<std::size_t>(k - 1)]
          << " rad/s against " << k * k * w1;
  }
}

namespace {

// The shipped flexible slider-crank with its rod meshed by `flex` (the JSON of links[1].flex but the
// section and material), run for t_end at the accuracy given: the largest mid-span deflection of the
// rod from its chord, v(L/2) - v(L)/2 in its body frame (pinned at both ends, the rod's frame is
// tangent to it at the crank pin).
double rodMidSpanDeflection(const Json& flex, double t_end, double accuracy) {
  Json doc = Json::parse(readRegularFile(std::string(FLEXARM_PROJECTS_DIR) + "/flexible-slider-crank.flexarm.json").value());
  Json& rod = doc["links"][1]["flex"];
  const Json section = rod["section"], material = rod["material"];
  rod = flex;
  rod["section"] = section;
  rod["material"] = material;
  doc["simulation"]["t_end"] = t_end;
  doc["simulation"]["accuracy"] = accuracy;
  const Project p = parseOrFail(doc.dump());
  const Results run = simulate(p);
  EXPECT_EQ(run.status, RunStatus::Completed) << flex.dump() << ": " << run.message;
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  const Body& b = sys.bodies[1];
  ShapeRows mid, tip;
  b.flexible->evaluate(0.5 * b.length, mid);
  b.flexible->evaluate(b.length, tip);
  const Eigen::RowVectorXd chord = mid.v - 0.5 * tip.v;
  double peak = 0.0;
  for (std::size_t r = 0; r < run.rows(); ++r) {
    double d = 0.0;
    for (int k = 0; k < b.e_count; ++k) d += chord(k) * run.value(r, run.channelIndex(sys.coordinates.names[b.e_index + k]));
    peak = std::max(peak, std::abs(d));
  }
  return peak;
}

}  // namespace

TEST(LoopClosure, TheFlexibleSliderCranksRodDeflectionConvergesWithTheMeshAndAgreesWithAssumedModes) {
  // Simeon's slider-crank (projects/flexible-slider-crank.flexarm.json), the loop closed through the
  // flexible rod by the slider's constraint: over the first 20 ms (half a turn of the crank) the rod's
  // largest mid-span deflection converges as the mesh is refined, and assumed modes agree with the
  // finest mesh within 1 %.
  const double t_end = 0.02, accuracy = 1e-4;
  std::vector<double> fem;
  for (int elements : {2, 4, 8})
    fem.push_back(rodMidSpanDeflection(Json{{"basis", "fem"}, {"elements", elements}, {"layout", "planar"}}, t_end, accuracy));
  const double modes = rodMidSpanDeflection(Json{{"basis", "modes"}, {"modes", {{"bending_y", 4}}}}, t_end, accuracy);
  EXPECT_GT(fem[2], 1e-4);  // a deflection of the order of a millimetre: the test measures something
  const std::string measured = "2, 4, 8 elements: " + std::to_string(fem[0]) + ", " + std::to_string(fem[1]) + ", " +
                               std::to_string(fem[2]) + " m; modes: " + std::to_string(modes) + " m";
  EXPECT_LT(std::abs(fem[2] - fem[1]), std::abs(fem[1] - fem[0])) << measured;
  EXPECT_NEAR(fem[1] / fem[2], 1.0, 0.01) << measured;
  EXPECT_NEAR(modes / fem[2], 1.0, 0.01) << measured;
}

TEST(LoopClosure, ARigidSliderCrankFollowsItsClosedFormKinematics) {
  // The shipped slider-crank with a rigid rod (its mass, centre and inertia): the crank turns at
  // omega = 150 rad/s (a prescribed joint, held by a multiplier), and the slider, the rod's far end held
  // on the x axis, is at x = L1 cos(omega t) + sqrt(L2^2 - L1^2 sin^2(omega t)) at every instant over 2.4
  // turns: within 1e-9 m under IDA (rtol 1e-11), and within 2e-9 m under generalized-alpha on the
  // index-3 equations (ConstrainedAlphaStepper.cpp; rtol 1e-9, measured 4.6e-10 m), whose positions stay
  // on the constraint.
  Json doc = Json::parse(readRegularFile(std::string(FLEXARM_PROJECTS_DIR) + "/flexible-slider-crank.flexarm.json").value());
  const double L1 = 0.15, L2 = 0.3, omega = 150.0, m = 7870.0 * 0.008 * 0.008 * L2;
  doc["links"][1] = Json{{"name", "rod"},
                         {"length", L2},
                         {"mass", m},
                         {"com", {L2 / 2, 0.0, 0.0}},
                         {"inertia", {1e-9, m * L2 * L2 / 12, m * L2 * L2 / 12}}};
  struct Case {
    const char* method;
    double rtol, bound;
  };
  for (const Case& c : {Case{"ida", 1e-11, 1e-9}, Case{"galpha", 1e-9, 2e-9}}) {
    doc["simulation"]["solver"] = Json{{"method", c.method}, {"rtol", c.rtol}, {"atol", c.rtol / 100}};
    const Project p = parseOrFail(doc.dump());
    const Results run = simulate(p);
    ASSERT_EQ(run.status, RunStatus::Completed) << c.method << ": " << run.message;
    const std::vector<double> t = run.column("t"), x = run.column("ee.x"), y = run.column("ee.y");
    ASSERT_EQ(t.size(), 201u);
    double worst = 0.0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double s = std::sin(omega * t[k]), expected = L1 * std::cos(omega * t[k]) + std::sqrt(L2 * L2 - L1 * L1 * s * s);
      worst = std::max({worst, std::abs(x[k] - expected), std::abs(y[k])});
    }
    EXPECT_LT(worst, c.bound) << c.method;
    for (double v : run.column("constraint.slider.pos")) EXPECT_LT(v, c.bound) << c.method;
  }
}
