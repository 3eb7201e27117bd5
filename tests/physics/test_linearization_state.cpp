// What a view needs from the linearization to draw a mode: the full equilibrium coordinates and where
// the free coordinates (the components of a mode shape) sit in them. Checked against closed forms:
// the static deflection curve of a cantilever under its own weight, and the clamped-free
// Euler-Bernoulli eigenfunction of the first bending mode.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "dynamics/Centreline.hpp"
#include "io/ProjectFile.hpp"

using namespace flexarm;
using flexarm::test::cantilever;
using flexarm::test::parseOrFail;

namespace {
// Steel strip 30 mm (y) x 12 mm (z), 1.5 m: bending about y (in z) is the weak direction.
constexpr double L = 1.5, b = 0.03, h = 0.012, E = 210e9, rho = 7850.0, g = 9.81;
const double Iy = b * h * h * h / 12, w = rho * b * h * g;  // w: weight per length [N/m]
const std::string kStrip =
    R"({"section": {"preset": "rectangle", "width": 0.03, "height": 0.012}, "material": {"preset": "steel"},
                              "basis": "fem", "elements": 10, "layout": "spatial"})";

// Static deflection of a cantilever under a uniform load w (towards -z): w x^2 (6 L^2 - 4 L x + x^2) / (24 E I).
double staticDeflection(double x) { return -w * x * x * (6 * L * L - 4 * L * x + x * x) / (24 * E * Iy); }

// The axial shortening of the tip that the bending brings (the high-order coupling draws it):
// 1/2 int_0^L w'(x)^2 dx, w'(x) = -w x (3 L^2 - 3 L x + x^2) / (6 E I), by Simpson's rule.
double foreshortening() {
  auto slope = [](double x) { return -w * x * (3 * L * L - 3 * L * x + x * x) / (6 * E * Iy); };
  const int n = 2000;
  double sum = 0.0;
  for (int k = 0; k <= n; ++k) {
    const double x = L * k / n, f = slope(x) * slope(x);
    sum += (k == 0 || k == n ? 1 : k % 2 ? 4 : 2) * f;
  }
  return 0.5 * sum * L / (3 * n);
}

// The clamped-free eigenfunction of the first bending mode, 1 at the tip.
double firstMode(double x) {
  const double bl = 1.87510407, be = bl / L;
  const double s = (std::cosh(bl) + std::cos(bl)) / (std::sinh(bl) + std::sin(bl));
  auto phi = [&](double xi) { return std::cosh(be * xi) - std::cos(be * xi) - s * (std::sinh(be * xi) - std::sin(be * xi)); };
  return phi(x) / phi(L);
}

LinearizationOptions locked() {
  LinearizationOptions o;
  o.lock_joints = true;
  return o;
}

// One flexible strip on a free revolute joint about z at q0 (gravity along -z).
Project stripOnFreeJoint(double q0) {
  return parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, -9.81],
    "links": [{"name": "beam", "length": 1.5, "flex": )" +
                     kStrip + R"(}],
    "joints": [{"name": "root", "type": "revolute", "axis": [0, 0, 1], "q0": )" +
                     std::to_string(q0) + R"(}]})");
}
}  // namespace

TEST(LinearizationState, EquilibriumIsTheStaticDeflectionUnderGravity) {
  const Project p = cantilever(kStrip, L, "", "[]", "[0, 0, -9.81]");
  const LinearizationResult r = linearize(p, locked());
  ASSERT_EQ(r.message, "");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  ASSERT_EQ(r.equilibrium_q.size(), sys.nq);
  EXPECT_TRUE(r.equilibrium_q.allFinite());
  EXPECT_EQ(r.equilibrium_q(0), 0.0);  // the held joint
  // Drawn with the centreline code (as the 3D view draws a state), q_eq is the static deflection curve.
  DynamicsData data(sys);
  const auto lines = deformedCentrelines(sys, data, r.equilibrium_q, 21);
  const double tip = staticDeflection(L);  // -19.3 mm: small against L, the linear closed form holds to ~(tip/L)^2
  EXPECT_NEAR(lines[0].back().z(), tip, 1e-3 * std::abs(tip));
  EXPECT_NEAR(lines[0].back().x(), L - foreshortening(), 1e-2 * foreshortening());  // 0.14 mm
  for (int k = 0; k <= 20; ++k) {
    const Eigen::Vector3d& pt = lines[0][k];
    const double x = L * k / 20;
    EXPECT_NEAR(pt.z(), staticDeflection(x), 1e-3 * std::abs(tip)) << "x = " << x;
    EXPECT_NEAR(pt.y(), 0.0, 1e-12) << "x = " << x;  // the load is in the x-z plane
  }
}

TEST(LinearizationState, WithoutGravityTheEquilibriumIsUndeformed) {
  const Project p = cantilever(kStrip, L);
  const LinearizationResult r = linearize(p, locked());
  ASSERT_EQ(r.message, "");
  ASSERT_EQ(r.equilibrium_q.size(), 1 + 60);  // the joint and 10 spatial elements x 6 nodal coordinates
  EXPECT_LT(r.equilibrium_q.cwiseAbs().maxCoeff(), 1e-12);
}

TEST(LinearizationState, FreeCoordinatesMapTheShapeOntoTheFullCoordinates) {
  const Project p = cantilever(kStrip, L, "", "[]", "[0, 0, -9.81]");
  const LinearizationResult r = linearize(p, locked());
  ASSERT_EQ(r.message, "");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  // The held joint (coordinate 0) is not free; every elastic coordinate is, in order.
  ASSERT_EQ(r.free_coordinates.size(), static_cast<std::size_t>(sys.nq - 1));
  ASSERT_EQ(r.coordinate_names.size(), r.free_coordinates.size());
  for (std::size_t k = 0; k < r.free_coordinates.size(); ++k) {
    EXPECT_EQ(r.free_coordinates[k], static_cast<int>(k) + 1);
    EXPECT_EQ(r.coordinate_names[k], sys.coordinates.names[r.free_coordinates[k]]);
  }
  ASSERT_FALSE(r.modes.empty());
  const LinearMode& m = r.modes.front();
  ASSERT_EQ(m.shape.size(), static_cast<Eigen::Index>(r.free_coordinates.size()));
  const double a = 1e-3;
  const Eigen::VectorXd q = modeDisplacement(r, m, a).value();
  EXPECT_EQ(q(0), r.equilibrium_q(0));  // the prescribed joint does not move
  for (std::size_t k = 0; k < r.free_coordinates.size(); ++k)
    EXPECT_NEAR(q(r.free_coordinates[k]) - r.equilibrium_q(r.free_coordinates[k]), a * m.shape(static_cast<Eigen::Index>(k)),
                1e-15);

  // Placed on the right coordinates, the first mode (weak-axis bending, in z) draws the clamped-free
  // eigenfunction: the displacement of the centreline from the equilibrium, relative to its tip value.
  DynamicsData data(sys);
  const auto at_eq = deformedCentrelines(sys, data, r.equilibrium_q, 21);
  const auto displaced = deformedCentrelines(sys, data, q, 21);
  const double tip = displaced[0].back().z() - at_eq[0].back().z();
  ASSERT_GT(std::abs(tip), 0.5 * a);  // the tip translation is the largest component of the shape (1)
  for (int k = 0; k <= 20; ++k) {
    const double x = at_eq[0][k].x();
    EXPECT_NEAR((displaced[0][k].z() - at_eq[0][k].z()) / tip, firstMode(x), 2e-3) << "x = " << x;
    // No bending in y: what remains is the noise of the finite-difference linearization.
    EXPECT_NEAR(displaced[0][k].y() - at_eq[0][k].y(), 0.0, 1e-6 * a) << "x = " << x;
  }

  LinearMode foreign = m;
  foreign.shape = Eigen::VectorXd::Ones(3);
  EXPECT_FALSE(modeDisplacement(r, foreign, 1.0));  // not a mode of this result: an error, not a displacement
}

TEST(LinearizationState, HeldJointStaysAtItsInitialAngle) {
  // A free joint at q0 = 0.4 rad, held for the linearization: q_eq keeps the angle, the beam sags in z.
  const Project p = stripOnFreeJoint(0.4);
  const LinearizationResult r = linearize(p, locked());
  ASSERT_EQ(r.message, "");
  EXPECT_EQ(r.equilibrium_q(0), 0.4);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData data(sys);
  const Eigen::Vector3d tip = deformedCentrelines(sys, data, r.equilibrium_q, 5)[0].back();
  const double radius = L - foreshortening();
  EXPECT_NEAR(tip.x(), radius * std::cos(0.4), 1e-6);
  EXPECT_NEAR(tip.y(), radius * std::sin(0.4), 1e-6);
  EXPECT_NEAR(tip.z(), staticDeflection(L), 1e-3 * std::abs(staticDeflection(L)));

  // Not held, the joint is a free coordinate (first in the list) and a rigid-body mode about z.
  const LinearizationResult loose = linearize(p, LinearizationOptions{});
  ASSERT_EQ(loose.message, "");
  ASSERT_FALSE(loose.free_coordinates.empty());
  EXPECT_EQ(loose.free_coordinates.front(), 0);
  EXPECT_EQ(loose.coordinate_names.front(), "q.root");
  EXPECT_EQ(loose.equilibrium_q(0), 0.4);
  EXPECT_EQ(loose.rigid_body_modes, 1);
}

TEST(LinearizationState, PrescribedMotionIsFrozenAtTheRequestedTime) {
  // root(t) = 0.5 sin(2 pi 0.25 t): at t = 1 s the joint is at 0.5 rad and at rest.
  const Project p = parseOrFail(R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "beam", "length": 1.5, "flex": )" +
                                kStrip + R"(}],
    "joints": [{"name": "root", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "prescribed", "law": "sine", "amplitude": 0.5, "frequency": 0.25}}]})");
  LinearizationOptions o;
  o.time = 1.0;
  const LinearizationResult r = linearize(p, o);
  ASSERT_EQ(r.message, "");
  EXPECT_NEAR(r.equilibrium_q(0), 0.5, 1e-15);
  o.time = 0.0;
  EXPECT_NEAR(linearize(p, o).equilibrium_q(0), 0.0, 1e-15);
}

TEST(LinearizationState, CoordinatesAreDescribedByWhatTheyAre) {
  // The strip bends first about its weak axis (along z): that mode's largest component is the tip's
  // w displacement (its slope there is 1.38 / L = 0.92 rad per metre of deflection, smaller).
  LinearizationOptions opt;
  opt.lock_joints = true;
  const LinearizationResult fem = linearize(cantilever(kStrip, L), opt);
  ASSERT_EQ(fem.message, "");
  ASSERT_EQ(fem.coordinate_descriptions.size(), fem.coordinate_names.size());
  int imax = 0;
  fem.modes.front().shape.cwiseAbs().maxCoeff(&imax);
  EXPECT_EQ(fem.coordinate_descriptions[imax], fem.coordinate_names[imax] + " (node 10 w)");
  // Assumed modes name their family.
  const LinearizationResult modes = linearize(
      cantilever(R"({"section": {"preset": "rectangle", "width": 0.03, "height": 0.012}, "material": {"preset": "steel"},
                     "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1}})",
                 L),
      opt);
  ASSERT_EQ(modes.message, "");
  ASSERT_EQ(modes.coordinate_descriptions.size(), 6u);
  EXPECT_EQ(modes.coordinate_descriptions[0], "e.beam.1 (axial 1)");
  EXPECT_EQ(modes.coordinate_descriptions[4], "e.beam.5 (bending_z 2)");
  EXPECT_EQ(modes.coordinate_descriptions[5], "e.beam.6 (torsion 1)");
  modes.modes.front().shape.cwiseAbs().maxCoeff(&imax);
  EXPECT_EQ(modes.coordinate_descriptions[imax], "e.beam.4 (bending_z 1)");
}

// Issue 21: with gravity 9.2e18 (or a 1e9 m link) seed 004's equations cannot be evaluated near the
// configuration; the equilibrium Newton used to difference the residuals of failed evaluations (empty
// vectors) and crashed. The loader refuses such values now; linearize() itself must still say why.
TEST(LinearizationState, EquationsThatCannotBeEvaluatedGiveAMessageNotACrash) {
  const LoadedProject loaded = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/spatial-rrr-flexible-seed004.flexarm.json");
  ASSERT_TRUE(loaded.project) << loaded.diagnostics.text();
  Project p = *loaded.project;
  p.model.gravity = Eigen::Vector3d(0, 0, -9.2e18);
  const LinearizationResult r = linearize(p, LinearizationOptions{});
  EXPECT_NE(r.message.find("no equilibrium of the elastic and motor coordinates was found"), std::string::npos) << r.message;
  EXPECT_TRUE(r.modes.empty());
}
