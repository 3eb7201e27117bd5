// The deformed centreline rebuilt from the result channels (for the 3D view) against the
// closed-form static deflection curve of a cantilever; modal and Rayleigh damping ratios and the
// modal reduction of a finite-element link, against their definitions.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "dynamics/Centreline.hpp"
#include "results/RowCoordinates.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::cantilever;

TEST(Centreline, RebuiltFromResultsMatchesTheStaticDeflectionCurve) {
  // Cantilever under its own weight (along -y), damped to rest: v(x) = -w x^2 (6 L^2 - 4 L x + x^2) / (24 E I).
  constexpr double L = 1.0, b = 0.006, h = 0.04;
  const double EI = 68.9e9 * h * b * b * b / 12, w = 2700.0 * b * h * 9.81;
  const double omega1 = 3.516 * std::sqrt(EI / (2700.0 * b * h));
  const std::string flex =
      R"({"section": {"preset": "rectangle", "width": 0.006, "height": 0.04}, "material": {"preset": "aluminium"},
                              "basis": "fem", "elements": 6, "layout": "planar", "rayleigh": [)" +
      std::to_string(1.6 * omega1) + ", 0]}";
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

  // Curvature |v''| = w (L - x)^2 / (2 E I) and outer-fibre strain (b/2) |v''| (plus the axial
  // strain, which is zero here: the beam is loaded transversely). Hermite cubics give a piecewise
  // linear curvature: 2 % of the root value.
  const auto kappa = sampleLinkField(sys, q, 21, LinkField::Curvature);
  const auto strain = sampleLinkField(sys, q, 21, LinkField::Strain);
  const double kappa_root = w * L * L / (2 * EI);
  for (int k = 0; k <= 20; ++k) {
    const double x = L * k / 20.0;
    const double expected = w * (L - x) * (L - x) / (2 * EI);
    EXPECT_NEAR(kappa[0][k], expected, 0.02 * kappa_root) << "x = " << x;
    EXPECT_NEAR(strain[0][k], 0.5 * b * kappa[0][k], 1e-9 * kappa_root * b) << "x = " << x;
  }
}

TEST(Centreline, SurfaceStrainUsesTheSectionsOuterFibre) {
  // A spatial tube under a tip load along y and z: curvature |kappa| = F (L - x) sqrt(2) / (E I) at
  // rest, strain R |kappa|; a raw section uses the outer fibre of the equal rectangle sqrt(3 I / A).
  constexpr double L = 1.0, D = 0.05;
  const char* tube =
      R"({"section": {"preset": "tube", "outer_diameter": 0.05, "inner_diameter": 0.04}, "material": {"preset": "steel"},
                         "basis": "fem", "elements": 4, "layout": "spatial"})";
  const MultibodySystem sys = MultibodySystem::fromModel(cantilever(tube, L).model, CouplingOrder::High);
  const FlexibleBody& fb = *sys.bodies[0].flexible;
  EXPECT_TRUE(fb.round_section);
  EXPECT_DOUBLE_EQ(fb.fibre_y, 0.5 * D);
  EXPECT_DOUBLE_EQ(fb.fibre_z, 0.5 * D);
  // A linear deflection field v = w = c x^2 / 2 has constant curvature c sqrt(2) in each FEM
  // element: set the elastic coordinates to it (Hermite nodes: v = c x^2/2, slope c x).
  Eigen::VectorXd q = Eigen::VectorXd::Zero(sys.nq);
  const double c = 1e-3;
  ShapeRows rows;
  // Fit the coordinates by interpolation at nodes through the basis: least squares on many samples.
  Eigen::MatrixXd A(0, fb.m);
  Eigen::VectorXd rhs(0);
  for (int k = 0; k <= 40; ++k) {
    const double x = L * k / 40.0;
    fb.evaluate(x, rows);
    A.conservativeResize(A.rows() + 2, Eigen::NoChange);
    rhs.conservativeResize(rhs.size() + 2);
    A.row(A.rows() - 2) = rows.v;
    A.row(A.rows() - 1) = rows.w;
    rhs(rhs.size() - 2) = 0.5 * c * x * x;
    rhs(rhs.size() - 1) = 0.5 * c * x * x;
  }
  q.segment(sys.bodies[0].e_index, fb.m) = A.colPivHouseholderQr().solve(rhs);
  const auto kappa = sampleLinkField(sys, q, 11, LinkField::Curvature);
  const auto strain = sampleLinkField(sys, q, 11, LinkField::Strain);
  for (int k = 0; k <= 10; ++k) {
    EXPECT_NEAR(kappa[0][k], c * std::sqrt(2.0), 1e-9) << k;
    EXPECT_NEAR(strain[0][k], 0.5 * D * c * std::sqrt(2.0), 1e-10) << k;
  }
  const char* raw = R"({"section": {"A": 2e-4, "Iy": 3e-9, "Iz": 6e-9, "J": 1e-9}, "material": {"preset": "steel"},
                        "basis": "fem", "elements": 2, "layout": "spatial"})";
  const MultibodySystem raw_sys = MultibodySystem::fromModel(cantilever(raw, L).model, CouplingOrder::High);
  EXPECT_FALSE(raw_sys.bodies[0].flexible->round_section);
  EXPECT_NEAR(raw_sys.bodies[0].flexible->fibre_y, std::sqrt(3 * 6e-9 / 2e-4), 1e-15);
  EXPECT_NEAR(raw_sys.bodies[0].flexible->fibre_z, std::sqrt(3 * 3e-9 / 2e-4), 1e-15);
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
  const char* section =
      R"({"section": {"preset": "rectangle", "width": 0.02, "height": 0.03}, "material": {"preset": "aluminium"},
                            "basis": "fem", "elements": 8, "layout": "spatial")";
  LinearizationOptions lock;
  lock.lock_joints = true;
  const LinearizationResult full = linearize(cantilever(std::string(section) + "}", 1.2), lock);
  const LinearizationResult reduced = linearize(cantilever(std::string(section) + R"(, "reduce_to": 6})", 1.2), lock);
  ASSERT_EQ(reduced.modes.size(), 6u);
  // The linearization differentiates numerically: agreement to its accuracy ...
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(reduced.modes[k].omega / full.modes[k].omega, 1.0, 1e-5) << "mode " << k + 1;
  // ... and exactly for the link's own eigenproblem.
  const Project pf = cantilever(std::string(section) + "}", 1.2),
                pr = cantilever(std::string(section) + R"(, "reduce_to": 6})", 1.2);
  const auto bf = FlexibleBody::build(*pf.model.links[0].flex, 1.2), br = FlexibleBody::build(*pr.model.links[0].flex, 1.2);
  ASSERT_EQ(br->m, 6);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(br->frequencies(k) / bf->frequencies(k), 1.0, 1e-9) << "mode " << k + 1;
  // User-placed (graded) nodes converge to the same first frequency.
  const LinearizationResult graded =
      linearize(cantilever(std::string(section) + R"(, "nodes": [0.1, 0.25, 0.45, 0.7, 0.95, 1.2]})", 1.2), lock);
  EXPECT_NEAR(graded.modes[0].omega / full.modes[0].omega, 1.0, 1e-3);
}
