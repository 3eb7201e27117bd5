// Rigid limit: with E and the joint stiffness scaled up by 1e6, the flexible two-link arm moves like
// the rigid model of the same mass distribution (Euler-Bernoulli: no rotary inertia of bending, polar
// inertia rho Ip L) within 1e-5 m over 2 s. The stiffened structure keeps a structural damping
// (stiffness-proportional on the links, a damper in the joints) so that its 1e4..1e7 rad/s
// vibrations decay instead of having to be resolved step by step; deformation rates vanish in the
// rigid limit, so the dampers do not act on the rigid motion.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
constexpr double L1 = 1.0, L2 = 0.8, b = 0.01, h = 0.03, rho = 2700.0;

std::string link(const char* name, double L, bool flexible) {
  const double m = rho * b * h * L, Ip = b * h * h * h / 12 + h * b * b * b / 12;
  if (flexible)
    return std::string(R"({"name": ")") + name + R"(", "length": )" + std::to_string(L) +
           R"(, "flex": {"section": {"preset": "rectangle", "width": 0.01, "height": 0.03},
                        "material": {"E": 6.89e16, "G": 2.6e16, "rho": 2700},
                        "basis": "modes", "modes": {"bending_y": 2, "bending_z": 2, "torsion": 1},
                        "rayleigh": [0, 1e-4]}})";
  char buf[512];
  std::snprintf(buf, sizeof buf,
                R"({"name": "%s", "length": %.17g, "mass": %.17g, "com": [%.17g, 0, 0], "inertia": [%.17g, %.17g, %.17g]})", name,
                L, m, L / 2, rho * Ip * L, m * L * L / 12, m * L * L / 12);
  return buf;
}

Project arm(bool flexible) {
  // Joint flexibility: k 1e6 x (2e2 N m/rad), rotor 1e-9 kg m^2 (the rigid model has no rotor: a rotor of
  // 1e-7 kg m^2 alone moves the tip by 2e-5 m over the 2 s), gear 2; the motor torque
  // is half the rigid joint torque.
  const std::string jflex =
      flexible ? R"("flex": {"stiffness": 2e8, "damping": 40, "rotor_inertia": 1e-9, "gear_ratio": 2},)" : "";
  const double scale = flexible ? 0.5 : 1.0;
  char drives[256];
  std::snprintf(drives, sizeof drives, R"("drive": {"type": "effort", "law": "sine", "amplitude": %.17g, "frequency": 0.7}})",
                6.0 * scale);
  return flexarm::test::parseOrFail(R"({"format": "flexarm-project", "schema_version": 1, "gravity": [0, 0, -9.81],
    "links": [)" + link("a", L1, flexible) +
                                    ", " + link("b", L2, flexible) + R"(],
    "joints": [{"name": "j1", "type": "revolute", "axis": [0, 1, 0], )" +
                                    jflex + drives + R"(,
               {"name": "j2", "type": "revolute", "axis": [0, 0.6, 0.8], "q0": 0.5, )" +
                                    jflex + R"("drive": {"type": "free"}}],
    "payloads": [{"name": "tip", "link": "b", "frame": "distal", "mass": 0.3}],
    "simulation": {"t_end": 2, "output_rate": 50, "solver": {"method": "bdf", "rtol": 1e-9, "atol": 1e-11}}})");
}
}  // namespace

TEST(RigidLimit, StiffFlexibleArmFollowsTheRigidModel) {
  const Results rigid = simulate(arm(false));
  const Results stiff = simulate(arm(true));
  ASSERT_EQ(rigid.status, RunStatus::Completed) << rigid.message;
  ASSERT_EQ(stiff.status, RunStatus::Completed) << stiff.message;
  ASSERT_EQ(rigid.rows(), stiff.rows());
  double worst = 0.0, travel = 0.0;
  for (const char* axis : {"ee.x", "ee.y", "ee.z"}) {
    const auto a = rigid.column(axis), c = stiff.column(axis);
    for (std::size_t k = 0; k < a.size(); ++k) {
      worst = std::max(worst, std::abs(a[k] - c[k]));
      travel = std::max(travel, std::abs(a[k] - a[0]));
    }
  }
  EXPECT_GT(travel, 0.3);  // the arm really swings
  EXPECT_LT(worst, 1e-5) << "largest end-effector difference " << worst << " m";
}
