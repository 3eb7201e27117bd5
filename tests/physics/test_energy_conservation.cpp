// Without damping and drives, total energy is conserved (an exact property of the equations).
#include <gtest/gtest.h>

#include <cmath>

#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
double maxEnergyDrift(const Results& r) {
  const auto e = r.column("energy.total");
  double drift = 0.0;
  for (double x : e) drift = std::max(drift, std::abs(x - e.front()));
  return drift;
}
}  // namespace

TEST(EnergyConservation, FreeDoublePendulumTenSeconds) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/double-pendulum.flexarm.json");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  p.project->simulation.t_end = 10.0;
  p.project->simulation.rtol = 1e-10;
  p.project->simulation.atol = 1e-12;
  const Results r = simulate(*p.project);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  ASSERT_EQ(r.column("t").back(), 10.0);
  // Energy scale: the potential energy released when both rods hang down from horizontal,
  // m g (L/2) + m g (L + L/2) for 1 kg, 1 m rods.
  const double scale = 1.0 * 9.81 * 0.5 + 1.0 * 9.81 * 1.5;
  const double kinetic_peak = [&] {
    double k = 0.0;
    for (double x : r.column("energy.kinetic")) k = std::max(k, x);
    return k;
  }();
  EXPECT_GT(kinetic_peak, 0.5 * scale);  // the pendulum really moves (chaotically)
  EXPECT_LT(maxEnergyDrift(r) / scale, 1e-7) << "drift " << maxEnergyDrift(r) << " J";
}

TEST(EnergyConservation, FreeSpatialChainWithPrismaticJoint) {
  const char* text = R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0.3, -0.2, -9.81],
    "links": [{"name": "a", "length": 0.5, "mass": 2, "shape": {"type": "box", "width": 0.1, "height": 0.2}},
              {"name": "b", "length": 0.8, "mass": 1.5, "shape": {"type": "cylinder", "radius": 0.05}},
              {"name": "c", "length": 0.6, "mass": 1, "com": [0.3, 0.05, 0], "inertia": [0.01, 0.04, 0.04, 0.001, 0, 0]}],
    "joints": [{"name": "a", "type": "revolute", "axis": [0, 0, 1], "qd0": 1.5},
               {"name": "b", "type": "prismatic", "axis": [1, 0, 0], "placement": {"rpy": [0.4, 0.2, 0]}, "qd0": 0.2},
               {"name": "c", "type": "revolute", "axis": [0, 1, 1], "q0": 0.3}],
    "payloads": [{"name": "tip", "link": "c", "frame": "distal", "mass": 0.4, "inertia": [0.001, 0.001, 0.001]}],
    "simulation": {"t_end": 5, "output_rate": 50, "solver": {"method": "bdf", "rtol": 1e-10, "atol": 1e-12}}})";
  LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const Results r = simulate(*p.project);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  double kmax = 0.0;
  for (double x : r.column("energy.kinetic")) kmax = std::max(kmax, x);
  ASSERT_GT(kmax, 1.0);
  EXPECT_LT(maxEnergyDrift(r) / kmax, 1e-7);
}
