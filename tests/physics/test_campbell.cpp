// The Campbell diagram (core/analysis/Campbell) of the Wu-Haug / Kane spin-up beam (seed 000) against
// the published rotating-cantilever frequencies, the chordwise closed form, and the zero-order
// coupling's loss of stability at the first bending frequency.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/Campbell.hpp"

using namespace flexarm;

namespace {

// The spin-up beam with out-of-plane (flapwise) motion: spatial layout.
Project spatialBeam(CouplingOrder order) {
  Project p = test::loadShipped("spin-up-beam.flexarm.json");
  p.model.links[0].flex->discretization.planar = false;
  p.coupling = order;
  return p;
}

// sqrt(EI / (rho A L^4)): the unit of the dimensionless frequencies.
double frequencyUnit(const Project& p) {
  const FlexibleLink& f = *p.model.links[0].flex;
  const double L = p.model.links[0].length;
  return std::sqrt(f.material.E * f.section.Iz / (f.material.rho * f.section.A * std::pow(L, 4)));
}

// The curve whose shape at the first rate is mostly `direction` ("v": chordwise, "w": flapwise), lowest first.
const CampbellCurve* firstCurve(const CampbellResult& r, const std::string& direction) {
  for (const CampbellCurve& c : r.curves)
    if (c.dominant.find(" " + direction + ")") != std::string::npos) return &c;
  return nullptr;
}

}  // namespace

TEST(Campbell, RotatingCantileverFlapwiseAndChordwiseFrequencies) {
  const Project p = spatialBeam(CouplingOrder::High);
  const double unit = frequencyUnit(p);
  // Flapwise first-mode frequencies of a rotating cantilever without hub radius (Wright et al. 1982,
  // as tabulated with the Wu-Haug beam): omega/unit at Omega/unit = 1, 2, 5, 10.
  const std::vector<double> spin_bar = {1.0, 2.0, 5.0, 10.0}, flap_bar = {3.6816, 4.1373, 6.4495, 11.2023};
  std::vector<double> spins;
  for (double s : spin_bar) spins.push_back(s * unit);
  const Result<CampbellResult> r = campbellDiagram(p, spins, 4);
  ASSERT_TRUE(r) << r.error().text();
  const CampbellCurve* flap = firstCurve(r.value(), "w");
  const CampbellCurve* chord = firstCurve(r.value(), "v");
  ASSERT_TRUE(flap && chord);
  for (std::size_t k = 0; k < spins.size(); ++k) {
    EXPECT_NEAR(flap->points[k].omega / unit, flap_bar[k], 0.002 * flap_bar[k]) << "Omega/unit = " << spin_bar[k];
    // In the plane of rotation the centrifugal softening takes Omega^2 off: omega_c^2 = omega_f^2 - Omega^2.
    const double chord_bar = std::sqrt(flap_bar[k] * flap_bar[k] - spin_bar[k] * spin_bar[k]);
    EXPECT_NEAR(chord->points[k].omega / unit, chord_bar, 0.002 * chord_bar) << "Omega/unit = " << spin_bar[k];
    EXPECT_FALSE(flap->points[k].unstable || chord->points[k].unstable);
    EXPECT_GT(flap->points[k].match, 0.9);  // followed by its shape: still the flapwise mode
    EXPECT_GT(chord->points[k].match, 0.9);
  }
}

TEST(Campbell, ZeroOrderChordwiseModeTurnsUnstableAtTheFirstBendingFrequency) {
  Project p = test::loadShipped("spin-up-beam.flexarm.json");  // planar: the chordwise modes
  p.coupling = CouplingOrder::Zero;
  std::vector<double> spins;
  for (double s = 2.80; s <= 3.0001; s += 0.01) spins.push_back(s);
  const Result<CampbellResult> r = campbellDiagram(p, spins, 3);
  ASSERT_TRUE(r) << r.error().text();
  const CampbellCurve& first = r.value().curves.front();
  double onset = 0.0;
  for (const CampbellPoint& pt : first.points)
    if (pt.unstable) {
      onset = pt.spin;
      break;
    }
  // The non-rotating first bending frequency is 0.4633 Hz = 2.911 rad/s: the zero-order model loses
  // its bending stiffness against the centrifugal softening there (seed 000's divergence).
  EXPECT_NEAR(onset, 2.911, 0.011);
  EXPECT_GT(first.points.back().growth_rate, 0.0);
  // The high-order model stays stable through the same sweep.
  p.coupling = CouplingOrder::High;
  const Result<CampbellResult> high = campbellDiagram(p, spins, 3);
  ASSERT_TRUE(high);
  for (const CampbellPoint& pt : high.value().curves.front().points) EXPECT_FALSE(pt.unstable) << pt.spin;
}

TEST(Campbell, OnsetBetweenCoarseRatesIsTheFirstBendingFrequency) {
  Project p = test::loadShipped("spin-up-beam.flexarm.json");
  p.coupling = CouplingOrder::Zero;
  std::vector<double> spins;
  for (int k = 0; k <= 16; ++k) spins.push_back(0.25 * k);  // 0 to 4 rad/s: unstable from the 3 rad/s point
  const Result<CampbellResult> r = campbellDiagram(p, spins, 2);
  ASSERT_TRUE(r) << r.error().text();
  const CampbellOnset onset = instabilityOnset(r.value().curves.front());
  ASSERT_EQ(onset.index, 12);
  // The zero-order model softens as omega^2 = omega_1^2 - Omega^2, so the onset is the clamped-free
  // first bending frequency (beta L = 1.87510) of the non-rotating beam.
  const FlexibleLink& f = *p.model.links[0].flex;
  const double L = p.model.links[0].length;
  const double omega1 =
      1.875104 * 1.875104 * std::sqrt(f.material.E * f.section.Iz / (f.material.rho * f.section.A * std::pow(L, 4)));
  EXPECT_NEAR(onset.spin, omega1, 0.002 * omega1);
  EXPECT_NEAR(onset.spin, 2.911, 0.002);
  // The high-order curve stays stable: no onset.
  p.coupling = CouplingOrder::High;
  const Result<CampbellResult> high = campbellDiagram(p, spins, 2);
  ASSERT_TRUE(high);
  EXPECT_EQ(instabilityOnset(high.value().curves.front()).index, -1);
}

TEST(Campbell, ProgressIsReportedAndCancels) {
  const Project p = test::loadShipped("spin-up-beam.flexarm.json");
  std::vector<std::size_t> seen;
  const Result<CampbellResult> stopped = campbellDiagram(p, {0.0, 1.0, 2.0, 3.0}, 2, [&](std::size_t done, std::size_t total) {
    seen.push_back(done);
    EXPECT_EQ(total, 4u);
    return done < 2;
  });
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.error().text(), "cancelled");
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1, 2}));
}

// The rates are linearized side by side on the machine's cores: each point is what a linearization
// about its rate alone gives, in the order of the rates.
TEST(Campbell, EachPointIsItsRateLinearizedAlone) {
  const Project p = spatialBeam(CouplingOrder::High);
  const std::vector<double> spins = {0.0, 4.0, 1.0, 3.0, 2.0};
  const Result<CampbellResult> sweep = campbellDiagram(p, spins, 3);
  ASSERT_TRUE(sweep) << sweep.error().text();
  for (std::size_t k = 0; k < spins.size(); ++k) {
    LinearizationOptions options;
    options.spin_rate = spins[k];
    options.modes = 2 * 3 + 10;
    const LinearizationResult alone = linearize(p, options);
    ASSERT_EQ(alone.message, "");
    for (const CampbellCurve& c : sweep.value().curves) {
      EXPECT_EQ(c.points[k].spin, spins[k]);
      bool found = false;
      for (const LinearMode& m : alone.modes) found = found || m.omega == c.points[k].omega;
      EXPECT_TRUE(found) << c.dominant << " at " << spins[k] << " rad/s: " << c.points[k].omega;
    }
  }
}

TEST(Campbell, RefusesAnEmptySweep) {
  const Project p = test::loadShipped("spin-up-beam.flexarm.json");
  EXPECT_FALSE(campbellDiagram(p, {}, 3));
  EXPECT_FALSE(campbellDiagram(p, {1.0}, 0));
}
