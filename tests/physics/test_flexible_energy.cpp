// A spatial two-link flexible arm with flexible joints, no damping and no drives, released from a
// deformed, moving state: total energy (kinetic + gravity + elastic + joint springs) is conserved.
// This exercises every term of the equations of motion at once, including the foreshortening
// terms of `high` coupling and the rotations of the deformed distal frames. (Torsion is left out
// only to keep the highest frequency, and so the run time at rtol 1e-10, low; the torsion terms are
// checked exactly in test_equations_of_motion.)
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
Project spatialArm(const char* coupling) {
  // A soft (polymer-like) material keeps the stiffest mode of the arm near 300 rad/s, so that 5 s at
  // rtol 1e-10 stays a short run; conservation does not depend on the material.
  const char* flex =
      R"({"section": {"preset": "rectangle", "width": 0.008, "height": 0.03}, "material": {"E": 3e9, "G": 1.1e9, "rho": 1200},
                         "basis": "modes", "modes": {"bending_y": 2, "bending_z": 1}, "e0": [0.02, -0.004, 0.01]})";
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling +
                                    R"(", "gravity": [0.5, 0, -9.81],
    "links": [{"name": "a", "length": 0.9, "flex": )" +
                                    flex + R"(},
              {"name": "b", "length": 0.7, "flex": )" +
                                    flex + R"(}],
    "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1], "qd0": 1.2, "mass": 0.4,
                "flex": {"stiffness": 300, "rotor_inertia": 0.01, "gear_ratio": 3}},
               {"name": "j2", "type": "revolute", "axis": [0, 1, 0], "placement": {"rpy": [0.3, 0, 0.2]}, "q0": 0.4, "qd0": -0.8,
                "flex": {"stiffness": 150, "rotor_inertia": 0.004, "gear_ratio": 2}}],
    "payloads": [{"name": "tip", "link": "b", "frame": "distal", "offset": [0.03, 0.01, 0], "mass": 0.25, "inertia": [1e-4, 2e-4, 2e-4]}],
    "simulation": {"t_end": 5, "output_rate": 20, "solver": {"method": "bdf", "rtol": 1e-10, "atol": 1e-12}}})");
}
}  // namespace

TEST(FlexibleEnergy, ConservedForHighAndZeroCoupling) {
  for (const char* coupling : {"high", "zero"}) {
    const Project p = spatialArm(coupling);
    const Results r = simulate(p);
    ASSERT_EQ(r.status, RunStatus::Completed) << coupling << ": " << r.message;
    ASSERT_DOUBLE_EQ(r.column("t").back(), 5.0);
    const auto E = r.column("energy.total"), K = r.column("energy.kinetic");
    const auto torsion = r.column("torsion.j1"), tip = r.column("tip.b.w");
    double drift = 0.0, kmax = 0.0, tmax = 0.0, wmax = 0.0;
    for (std::size_t k = 0; k < E.size(); ++k) {
      drift = std::max(drift, std::abs(E[k] - E[0]));
      kmax = std::max(kmax, K[k]);
      tmax = std::max(tmax, std::abs(torsion[k]));
      wmax = std::max(wmax, std::abs(tip[k]));
    }
    // It really moves, twists and bends.
    EXPECT_GT(kmax, 0.5) << coupling;
    EXPECT_GT(tmax, 1e-3) << coupling;
    EXPECT_GT(wmax, 1e-3) << coupling;
    const double scale = std::max(std::abs(E[0]), kmax);
    EXPECT_LT(drift / scale, 1e-6) << coupling << ": drift " << drift << " J of " << scale << " J, " << r.stats.steps << " steps";
  }
}
