// Clamped-free frequencies of one flexible link with its joint held, against Euler-Bernoulli closed
// forms: bending (beta L = 1.87510, 4.69409, 7.85476), axial and torsional rods, and a tip mass.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"
#include "discretization/FlexibleBody.hpp"
#include "discretization/LowestModes.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::cantilever;
using flexarm::test::heldJointOmegas;

namespace {
using flexarm::kPi;
const double kBetaL[] = {1.87510407, 4.69409113, 7.85475744};

// Steel strip 30 mm (y) x 12 mm (z), 1.5 m: distinct frequencies for every family.
const char* kSteelStrip =
    R"({"section": {"preset": "rectangle", "width": 0.03, "height": 0.012}, "material": {"preset": "steel"}, )";
constexpr double L = 1.5, b = 0.03, h = 0.012, E = 210e9, G = 81e9, rho = 7850.0;

// The computed frequency closest to `expected`, relative error.
double closestError(const std::vector<double>& w, double expected) {
  double best = 1e300;
  for (double x : w) best = std::min(best, std::abs(x - expected) / expected);
  return best;
}

double bendingOmega(int k, double EI) { return kBetaL[k] * kBetaL[k] / (L * L) * std::sqrt(EI / (rho * b * h)); }
}  // namespace

TEST(ClampedFreeFrequencies, SpatialFiniteElementsMatchEulerBernoulliAndRods) {
  const Project p = cantilever(std::string(kSteelStrip) + R"("basis": "fem", "elements": 10, "layout": "spatial"})", L);
  const std::vector<double> w = heldJointOmegas(p);
  ASSERT_EQ(w.size(), 60u);
  const double Iz = h * b * b * b / 12, Iy = b * h * h * h / 12;
  for (int k = 0; k < 3; ++k) {
    EXPECT_LT(closestError(w, bendingOmega(k, E * Iz)), 0.005) << "bending_y mode " << k + 1;
    EXPECT_LT(closestError(w, bendingOmega(k, E * Iy)), 0.005) << "bending_z mode " << k + 1;
  }
  const double axial = kPi / (2 * L) * std::sqrt(E / rho);
  EXPECT_LT(closestError(w, axial), 0.005) << "axial";
  const BeamSection s = sectionFromPreset({SectionPreset::Kind::Rectangle, b, h});
  const double torsion = kPi / (2 * L) * std::sqrt(G * s.J / (rho * s.polar()));
  EXPECT_LT(closestError(w, torsion), 0.005) << "torsion";
  // The lowest frequency is the first bending mode about the weak axis, nothing spurious below it.
  EXPECT_NEAR(w.front() / bendingOmega(0, E * Iy), 1.0, 1e-4);
}

TEST(ClampedFreeFrequencies, AssumedModesAreExactForTheirFamilies) {
  const Project p = cantilever(
      std::string(kSteelStrip) + R"("basis": "modes", "modes": {"axial": 1, "bending_y": 3, "bending_z": 3, "torsion": 1}})", L);
  const std::vector<double> w = heldJointOmegas(p);
  ASSERT_EQ(w.size(), 8u);
  const double Iz = h * b * b * b / 12, Iy = b * h * h * h / 12;
  for (int k = 0; k < 3; ++k) {
    EXPECT_LT(closestError(w, bendingOmega(k, E * Iz)), 1e-6) << "bending_y mode " << k + 1;
    EXPECT_LT(closestError(w, bendingOmega(k, E * Iy)), 1e-6) << "bending_z mode " << k + 1;
  }
  EXPECT_LT(closestError(w, kPi / (2 * L) * std::sqrt(E / rho)), 1e-6);
}

// Clamped-free beam with a tip mass M: 1 + cos(bL) cosh(bL) + mu bL (cos(bL) sinh(bL) - sin(bL) cosh(bL)) = 0,
// mu = M / (rho A L); solved here by bisection.
TEST(ClampedFreeFrequencies, TipMassFrequencyEquation) {
  const double mu = 0.5;
  auto f = [&](double x) {
    return 1 + std::cos(x) * std::cosh(x) + mu * x * (std::cos(x) * std::sinh(x) - std::sin(x) * std::cosh(x));
  };
  double lo = 0.5, hi = 1.875;
  ASSERT_LT(f(lo) * f(hi), 0.0);
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(lo) * f(mid) <= 0 ? hi : lo) = mid;
  }
  const double betaL = 0.5 * (lo + hi);
  const double Iz = h * b * b * b / 12, mass = mu * rho * b * h * L;
  const double expected = betaL * betaL / (L * L) * std::sqrt(E * Iz / (rho * b * h));
  const std::string payload = R"([{"name": "tip", "link": "beam", "frame": "distal", "mass": )" + std::to_string(mass) + "}]";
  for (const std::string& basis : {std::string(R"("basis": "fem", "elements": 10, "layout": "planar"})"),
                                   std::string(R"("basis": "modes", "modes": {"bending_y": 5}})")}) {
    const Project p = cantilever(std::string(kSteelStrip) + basis, L, "", payload);
    const std::vector<double> w = heldJointOmegas(p);
    ASSERT_FALSE(w.empty());
    EXPECT_NEAR(w.front() / expected, 1.0, 0.005) << basis << " beta L = " << betaL;
  }
}

TEST(ClampedFreeFrequencies, SpinUpBeamFirstFrequencyIs0464Hz) {
  const Project p = flexarm::test::loadShipped("spin-up-beam.flexarm.json");
  const std::vector<double> w = heldJointOmegas(p);
  ASSERT_FALSE(w.empty());
  EXPECT_NEAR(w.front() / (2 * kPi), 0.464, 0.464 * 0.005);
}

// The sparse subspace iteration of a fine mesh against Eigen's dense generalized solver on the same
// matrices (forced by a dense limit of 0): a strip with distinct frequencies and a round tube, whose two
// bending planes share every frequency (the iteration may return any basis of such a space). The dense
// solver's lowest eigenvalues carry a round-off of about eps lambda_max / lambda_k (7e-8 for the first mode
// here, the axial modes of 4 cm elements being 3e8 times stiffer), the bound allowed below.
TEST(ClampedFreeFrequencies, SubspaceIterationGivesTheDenseSolversLowestModes) {
  for (const char* section : {R"({"section": {"preset": "rectangle", "width": 0.03, "height": 0.012}, )",
                              R"({"section": {"preset": "tube", "outer_diameter": 0.05, "inner_diameter": 0.044}, )"}) {
    const Project p = cantilever(
        std::string(section) + R"("material": {"preset": "steel"}, "basis": "fem", "elements": 40, "layout": "spatial"})", L);
    const auto body = FlexibleBody::build(*p.model.links[0].flex, L);
    ASSERT_EQ(body->m, 240);
    const int n = 12;
    const LowestModes iterated = lowestModes(body->K, body->M, n, 0);
    const LowestModes dense = lowestModes(body->K, body->M, n + 2, 1000);  // two more: a space cut at n stays whole
    ASSERT_EQ(iterated.values.size(), n);
    for (int k = 0; k < n; ++k) {
      EXPECT_NEAR(iterated.values(k) / dense.values(k), 1.0, 1e-7) << section << " mode " << k + 1;
      // M-normalized, and inside the dense solver's space of the same frequency.
      const Eigen::VectorXd x = iterated.vectors.col(k);
      EXPECT_NEAR(x.dot(body->M * x), 1.0, 1e-12);
      Eigen::VectorXd rest = x;
      for (int j = 0; j < n + 2; ++j)
        if (std::abs(dense.values(j) / dense.values(k) - 1.0) < 1e-8)
          rest -= dense.vectors.col(j) * dense.vectors.col(j).dot(body->M * x);
      EXPECT_LT(std::sqrt(rest.dot(body->M * rest)), 1e-8) << section << " mode " << k + 1;
    }
  }
}

// A 200-element spatial link (1 200 coordinates) is built by the iteration: its first frequency is
// Euler-Bernoulli's, and the next two are the stiff plane's first and the weak plane's second bending
// modes. The discretization error, (beta h)^4 = 8e-9, is below the round-off floor of the stiffness
// matrix of so fine a mesh, eps (L/h)^4 = 4e-7 (Hermite elements' K has condition ~ (L/h)^4; 10 to 40
// elements converge as h^4 to 2e-9, 160 elements sit at 4e-7 with the dense solver too): 2e-6 allowed.
TEST(ClampedFreeFrequencies, TwoHundredElementLinkHasTheClosedFormFirstFrequency) {
  const Project p = cantilever(std::string(kSteelStrip) + R"("basis": "fem", "elements": 200, "layout": "spatial"})", L);
  const auto body = FlexibleBody::build(*p.model.links[0].flex, L);
  ASSERT_EQ(body->m, 1200);
  ASSERT_EQ(body->frequencies.size(), FlexibleBody::kKeptModes);
  const double Iz = h * b * b * b / 12, Iy = b * h * h * h / 12;
  EXPECT_NEAR(body->frequencies(0) / bendingOmega(0, E * Iy), 1.0, 2e-6);
  EXPECT_NEAR(body->frequencies(1) / bendingOmega(0, E * Iz), 1.0, 2e-6);
  EXPECT_NEAR(body->frequencies(2) / bendingOmega(1, E * Iy), 1.0, 2e-6);
}

TEST(FreeVibration, InitialElasticRateInTheFirstModeGivesItsSineAtTheClosedFormFrequency) {
  // Clamped-free assumed modes are the beam's eigenfunctions: with the joint held, zero coupling and no
  // gravity, a rate ed0 of the first bending mode alone starts e_1(t) = (ed0 / omega_1) sin(omega_1 t),
  // omega_1 = 1.8751^2 / L^2 sqrt(E I / (rho A)) (the same I about y and z).
  const double A = 5.76e-4, I = 1.2595e-7, len = 1.2, rate = 0.05;
  const double w1 = kBetaL[0] * kBetaL[0] / (len * len) * std::sqrt(E * I / (rho * A));
  Project p =
      cantilever(R"({"section": {"A": 5.76e-4, "Iy": 1.2595e-7, "Iz": 1.2595e-7, "J": 1e-7}, "material": {"preset": "steel"},
    "basis": "modes", "modes": {"bending_y": 3}, "ed0": [0.05, 0, 0]})",
                 len, R"("coupling": "zero",)");
  p.simulation.t_end = 0.5;
  p.simulation.accuracy = 1e-6;
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto e1 = r.column("e.beam.1"), e2 = r.column("e.beam.2"), t = r.column("t");
  ASSERT_FALSE(t.empty());
  for (std::size_t k = 0; k < t.size(); k += 7) {
    EXPECT_NEAR(e1[k], rate / w1 * std::sin(w1 * t[k]), 1e-4 * rate / w1) << t[k];
    EXPECT_NEAR(e2[k], 0.0, 1e-6 * rate / w1) << t[k];  // the other modes stay still
  }
}
