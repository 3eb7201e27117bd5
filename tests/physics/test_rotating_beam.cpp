// A cantilever (hub radius 0) linearized about a steady spin Omega: dynamic stiffening.
// Southwell coefficients (omega_1^2 - omega_10^2) / Omega^2: 1.193 out of plane and 0.193 in plane
// for `high` and `geometric`, -1 in plane for `zero`; second mode 6.478 and 5.478. Out-of-plane
// frequencies against the published table of Hodges & Rutkowski (AIAA J. 19(11), 1981):
// lambda = omega sqrt(rho A L^4 / EI) = 3.6816, 4.1373, 4.7973 at Omega sqrt(rho A L^4 / EI) = 1, 2, 3.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "analysis/Linearization.hpp"

using namespace flexarm;

namespace {
struct Spin {
  double in_plane[2];   // first two in-plane (bending_y) frequencies [rad/s]
  double out_plane[2];  // first two out-of-plane (bending_z) frequencies
};

// The spin-up beam with separate in-plane and out-of-plane assumed modes (no axial coupling).
Spin spinFrequencies(const char* coupling, double omega) {
  Project p = flexarm::test::loadShipped("spin-up-beam.flexarm.json");
  p.coupling = coupling == std::string("high")   ? CouplingOrder::High
               : coupling == std::string("zero") ? CouplingOrder::Zero
                                                 : CouplingOrder::Geometric;
  LinkDiscretization& d = p.model.links[0].flex->discretization;
  d = LinkDiscretization{};
  d.kind = LinkDiscretization::Kind::AssumedModes;
  d.bending_y = 5;
  d.bending_z = 5;
  p.model.links[0].flex->damping = StructuralDamping{};
  LinearizationOptions opt;
  opt.spin_rate = omega;
  const LinearizationResult r = linearize(p, opt);
  EXPECT_EQ(r.message, "");
  Spin s{};
  int ny = 0, nz = 0;
  for (const LinearMode& m : r.modes) {
    int imax = 0;
    m.shape.cwiseAbs().maxCoeff(&imax);
    const bool in_plane = imax < 5;  // the first five coordinates are the bending_y modes
    if (in_plane && ny < 2) s.in_plane[ny++] = m.unstable ? -m.omega : m.omega;
    if (!in_plane && nz < 2) s.out_plane[nz++] = m.omega;
  }
  return s;
}

constexpr double kScale = 1.2079109;  // sqrt(rho A L^4 / EI) of the spin-up beam [s]
}  // namespace

TEST(RotatingBeam, SouthwellCoefficientsHighAndGeometric) {
  for (const char* coupling : {"high", "geometric"}) {
    const Spin rest = spinFrequencies(coupling, 0.0);
    EXPECT_NEAR(rest.in_plane[0], rest.out_plane[0], 1e-9 * rest.in_plane[0]);
    // Small spin: the Southwell coefficients themselves.
    const double W = 0.25;
    const Spin s = spinFrequencies(coupling, W);
    auto K = [&](double w, double w0) { return (w * w - w0 * w0) / (W * W); };
    EXPECT_NEAR(K(s.out_plane[0], rest.out_plane[0]) / 1.193, 1.0, 0.02) << coupling;
    EXPECT_NEAR(K(s.in_plane[0], rest.in_plane[0]) / 0.193, 1.0, 0.02) << coupling;
    EXPECT_NEAR(K(s.out_plane[1], rest.out_plane[1]) / 6.478, 1.0, 0.02) << coupling;
    EXPECT_NEAR(K(s.in_plane[1], rest.in_plane[1]) / 5.478, 1.0, 0.02) << coupling;
    // Up to the first non-rotating frequency: the out-of-plane coefficient stays within 2 % of 1.193,
    // and in-plane is exactly out-of-plane minus the centrifugal softening (omega_in^2 = omega_out^2 - Omega^2).
    for (double omega : {0.5, 1.0, 1.5, 2.0, 2.5, 2.9}) {
      const Spin t = spinFrequencies(coupling, omega);
      const double Kout = (t.out_plane[0] * t.out_plane[0] - rest.out_plane[0] * rest.out_plane[0]) / (omega * omega);
      EXPECT_NEAR(Kout / 1.193, 1.0, 0.02) << coupling << " Omega " << omega;
      EXPECT_NEAR(t.in_plane[0] * t.in_plane[0], t.out_plane[0] * t.out_plane[0] - omega * omega,
                  1e-6 * t.out_plane[0] * t.out_plane[0])
          << coupling << " Omega " << omega;
    }
  }
}

TEST(RotatingBeam, OutOfPlaneFrequenciesMatchHodgesRutkowski1981) {
  const double lambda0 = 3.5160, table[] = {3.6816, 4.1373, 4.7973};
  EXPECT_NEAR(spinFrequencies("high", 0.0).out_plane[0] * kScale / lambda0, 1.0, 5e-4);
  for (int k = 0; k < 3; ++k) {
    const double omega = (k + 1) / kScale;
    EXPECT_NEAR(spinFrequencies("high", omega).out_plane[0] * kScale / table[k], 1.0, 5e-4) << "Omega bar " << k + 1;
  }
}

TEST(RotatingBeam, ZeroOrderSoftensInPlaneAndLosesStabilityAtOmega10) {
  const Spin rest = spinFrequencies("zero", 0.0);
  for (double omega : {0.5, 1.5, 2.5}) {
    const Spin s = spinFrequencies("zero", omega);
    const double K = (s.in_plane[0] * s.in_plane[0] - rest.in_plane[0] * rest.in_plane[0]) / (omega * omega);
    EXPECT_NEAR(K, -1.0, 0.02) << "Omega " << omega;
    // No stiffening out of plane either: the zero-order model misses it entirely.
    EXPECT_NEAR(s.out_plane[0], rest.out_plane[0], 1e-6 * rest.out_plane[0]);
  }
  EXPECT_NEAR(rest.in_plane[0], 2.911, 0.002);
  // Past omega_10 = 2.911 rad/s the in-plane mode is a real, growing one.
  const Spin past = spinFrequencies("zero", 3.0);
  EXPECT_LT(past.in_plane[0], 0.0) << "expected an unstable in-plane mode at 3 rad/s";
}
