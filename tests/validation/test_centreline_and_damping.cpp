// The deformed centreline rebuilt from the result channels (for the 3D view) against the
// closed-form static deflection curve of a cantilever; modal and Rayleigh damping ratios and the
// modal reduction of a finite-element link, against their definitions.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "dynamics/Centreline.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::cantilever;

TEST(Centreline, RebuiltFromResultsMatchesTheStaticDeflectionCurve) {
  // Cantilever under its own weight (along -y), damped to rest: v(x) = -w x^2 (6 L^2 - 4 L x + x^2) / (24 E I).
  constexpr double L = 1.0, b = 0.006, h = 0.04;
  const double EI = 68.9e9 * h * b * b * b / 12, w = 2700.0 * b * h * 9.81;
  const double omega1 = 3.516 * std::sqrt(EI / (2700.0 * b * h));
  const std::string flex = R"({"section": {"preset": "rectangle", "width": 0.006, "height": 0.04}, "material": {"preset": "aluminium"},
                              "basis": "fem", "elements": 6, "layout": "planar", "rayleigh": [)" + std::to_string(1.6 * omega1) + ", 0]}";
  Project p = cantilever(flex, L, "", "[]", "[0, -9.81, 0]");
  p.simulation.t_end = 60.0 / omega1;
  p.simulation.output_rate = 10.0;
  p.simulation.rtol = 1e-9;
  p.simulation.atol = 1e-12;
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData data(sys);
  Eigen::VectorXd q;
  ASSERT_TRUE(coordinatesAtRow(sys, r, r.rows() - 1, q));
  const auto lines = deformedCentrelines(sys, data, q, 21);
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0].size(), 21u);
  EXPECT_LT(lines[0].front().norm(), 1e-15);  // clamped at the origin
  // The last point is the recorded tip.
  EXPECT_NEAR(lines[0].back().x(), r.column("tip.beam.x").back(), 1e-12);
  EXPECT_NEAR(lines[0].back().y(), r.column("tip.beam.y").back(), 1e-12);
  for (const Eigen::Vector3d& pt : lines[0]) {
    const double x = pt.x();  // foreshortening moves points by ~v'^2 L: far below the tolerance
    const double expected = -w * x * x * (6 * L * L - 4 * L * x + x * x) / (24 * EI);
    EXPECT_NEAR(pt.y(), expected, 1e-3 * std::abs(w * std::pow(L, 4) / (8 * EI))) << "x = " << x;
  }
  EXPECT_FALSE(coordinatesAtRow(sys, Results{}, 0, q));
}

TEST(StructuralDamping, ModalAndRayleighRatiosAreWhatWasAskedFor) {
  const char* section = R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.05}, "material": {"preset": "steel"},
                            "basis": "fem", "elements": 8, "layout": "planar", )";
  LinearizationOptions lock;
  lock.lock_joints = true;
  // Modal damping: zeta_k exactly on the first modes, none on the others.
  const LinearizationResult modal = linearize(cantilever(std::string(section) + R"("modal_damping": [0.02, 0.05]})", 1.0), lock);
  ASSERT_GE(modal.modes.size(), 3u);
  EXPECT_NEAR(modal.modes[0].damping_ratio, 0.02, 1e-5);
  EXPECT_NEAR(modal.modes[1].damping_ratio, 0.05, 1e-5);
  EXPECT_NEAR(modal.modes[2].damping_ratio, 0.0, 1e-6);
  // Rayleigh: zeta = alpha / (2 omega) + beta omega / 2.
  const double alpha = 3.0, beta = 2e-5;
  const LinearizationResult ray = linearize(cantilever(std::string(section) + R"("rayleigh": [3.0, 2e-5]})", 1.0), lock);
  for (int k = 0; k < 3; ++k) {
    const double w = ray.modes[k].omega;
    EXPECT_NEAR(ray.modes[k].damping_ratio, alpha / (2 * w) + beta * w / 2, 1e-5) << "mode " << k + 1;
  }
}

TEST(ModalReduction, KeepsExactlyTheLowestModesOfTheFiniteElementModel) {
  const char* section = R"({"section": {"preset": "rectangle", "width": 0.02, "height": 0.03}, "material": {"preset": "aluminium"},
                            "basis": "fem", "elements": 8, "layout": "spatial")";
  LinearizationOptions lock;
  lock.lock_joints = true;
  const LinearizationResult full = linearize(cantilever(std::string(section) + "}", 1.2), lock);
  const LinearizationResult reduced = linearize(cantilever(std::string(section) + R"(, "reduce_to": 6})", 1.2), lock);
  ASSERT_EQ(reduced.modes.size(), 6u);
  // The linearization differentiates numerically: agreement to its accuracy ...
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(reduced.modes[k].omega / full.modes[k].omega, 1.0, 1e-5) << "mode " << k + 1;
  // ... and exactly for the link's own eigenproblem.
  const Project pf = cantilever(std::string(section) + "}", 1.2), pr = cantilever(std::string(section) + R"(, "reduce_to": 6})", 1.2);
  const auto bf = FlexibleBody::build(*pf.model.links[0].flex, 1.2), br = FlexibleBody::build(*pr.model.links[0].flex, 1.2);
  ASSERT_EQ(br->m, 6);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(br->frequencies(k) / bf->frequencies(k), 1.0, 1e-9) << "mode " << k + 1;
  // User-placed (graded) nodes converge to the same first frequency.
  const LinearizationResult graded =
      linearize(cantilever(std::string(section) + R"(, "nodes": [0.1, 0.25, 0.45, 0.7, 0.95, 1.2]})", 1.2), lock);
  EXPECT_NEAR(graded.modes[0].omega / full.modes[0].omega, 1.0, 1e-3);
}
