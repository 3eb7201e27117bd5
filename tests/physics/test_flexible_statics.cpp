// Static tip deflection of a cantilever reached by a damped run: w L^4 / (8 E I) under its own
// weight, plus P L^3 / (3 E I) under a tip payload.
#include <gtest/gtest.h>

#include <cmath>

#include "FlexTestModels.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::cantilever;

namespace {
// Aluminium strip 1.2 m, 40 mm tall (z), 6 mm thick in y; gravity along -y bends it in the x-y plane.
constexpr double L = 1.2, b = 0.006, h = 0.04, E = 68.9e9, rho = 2700.0, g = 9.81;
const double EI = E * h * b * b * b / 12, w_load = rho * b * h * g;
// Mass-proportional damping near critical for the first mode (omega_1 = 3.516 sqrt(EI / (rho A L^4))).
const double omega1 = 3.516 * std::sqrt(EI / (rho * b * h * std::pow(L, 4)));

double settledTipDeflection(const std::string& basis, const std::string& payloads, std::string coupling) {
  const std::string flex =
      R"({"section": {"preset": "rectangle", "width": 0.006, "height": 0.04}, "material": {"preset": "aluminium"}, )" + basis +
      R"(, "rayleigh": [)" + std::to_string(1.6 * omega1) + ", 0]}";
  Project p = cantilever(flex, L, R"("coupling": ")" + coupling + R"(",)", payloads, "[0, -9.81, 0]");
  p.simulation.t_end = 12.0 / omega1 * 6;
  p.simulation.output_rate = 20.0;
  p.simulation.rtol = 1e-8;
  p.simulation.atol = 1e-10;
  const Results r = simulate(p);
  EXPECT_EQ(r.status, RunStatus::Completed) << r.message;
  const auto v = r.column("tip.beam.v");
  // Settled: the last samples agree.
  EXPECT_NEAR(v[v.size() - 1], v[v.size() - 5], 1e-4 * std::abs(v.back()));
  return v.back();
}
}  // namespace

TEST(StaticDeflection, OwnWeightGivesWL4Over8EI) {
  const double expected = -w_load * std::pow(L, 4) / (8 * EI);
  for (const char* coupling : {"high", "zero"}) {
    for (const std::string& basis : {std::string(R"("basis": "fem", "elements": 6, "layout": "planar")"),
                                     std::string(R"("basis": "modes", "modes": {"bending_y": 4})")}) {
      const double v = settledTipDeflection(basis, "[]", coupling);
      EXPECT_NEAR(v / expected, 1.0, 0.01) << coupling << " " << basis << ": " << v << " vs " << expected;
    }
  }
}

TEST(StaticDeflection, TipPayloadAddsPL3Over3EI) {
  const double mass = 0.8;
  const double expected = -w_load * std::pow(L, 4) / (8 * EI) - mass * g * std::pow(L, 3) / (3 * EI);
  const std::string payload = R"([{"name": "tip", "link": "beam", "frame": "distal", "mass": 0.8}])";
  for (const std::string& basis : {std::string(R"("basis": "fem", "elements": 6, "layout": "planar")"),
                                   std::string(R"("basis": "modes", "modes": {"bending_y": 4})")}) {
    const double v = settledTipDeflection(basis, payload, "high");
    EXPECT_NEAR(v / expected, 1.0, 0.01) << basis << ": " << v << " vs " << expected;
  }
}
