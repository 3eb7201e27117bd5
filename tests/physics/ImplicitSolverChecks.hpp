#pragma once
// What the implicit solvers' tests share (test_cvode_integrator.cpp, test_ida_integrator.cpp,
// test_arkode_integrator.cpp, test_esdirk.cpp, test_generalized_alpha.cpp): runs of a shipped project
// with a method, Jacobian and tolerances, compared with a tight-tolerance reference; and a bank of
// damped oscillators with its exact motion.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "FlexTestModels.hpp"
#include "solvers/OdeIntegrator.hpp"
#include "solvers/SecondOrderStepper.hpp"
#include "solvers/Simulation.hpp"

namespace flexarm::test {

// Largest |a - b| over the rows both have, relative to the largest |b|.
inline double relativeDifference(const Results& a, const Results& b, const std::string& channel) {
  const std::vector<double> x = a.column(channel), y = b.column(channel);
  EXPECT_FALSE(x.empty() || y.empty()) << channel;
  double worst = 0.0;
  for (std::size_t k = 0; k < std::min(x.size(), y.size()); ++k) worst = std::max(worst, std::abs(x[k] - y[k]));
  return worst / peakAbs(y);
}

inline Results runWith(Project p, SimulationSettings::Jacobian jacobian, int max_order, double rtol, double atol,
                       std::optional<SimulationSettings::Method> method = std::nullopt) {
  // Else the project's own; the shipped projects that leave the method to auto had CVODE BDF (IDA with
  // constraints) before issue 40, which these comparisons were written for.
  if (method)
    p.simulation.method = *method;
  else if (p.simulation.method == SimulationSettings::Method::Auto)
    p.simulation.method = p.model.constraints.empty() ? SimulationSettings::Method::Bdf : SimulationSettings::Method::Ida;
  p.simulation.jacobian = jacobian;
  p.simulation.max_order = max_order;
  p.simulation.rtol = rtol;
  p.simulation.atol = atol;
  Results r = simulate(p);
  EXPECT_TRUE(r.status == RunStatus::Completed || r.status == RunStatus::Diverged) << r.message;
  return r;
}

inline constexpr auto kAnalytic = SimulationSettings::Jacobian::Analytic;
inline constexpr auto kDifference = SimulationSettings::Jacobian::DifferenceQuotient;
inline constexpr auto kBdf = SimulationSettings::Method::Bdf;  // for projects whose own method is another

// Seed 000's spin-up beam at 8 rad/s with `method` against CVODE BDF at rtol 1e-10: high order, the tip
// deflection within 0.1 % of its peak; zero order, the divergence time within 1 %; and (large_steps,
// for the methods that damp what a step does not resolve) with a third of the reference's steps or fewer.
inline void expectSpinUpAtEightMatchesReference(SimulationSettings::Method method, int max_order, double rtol, double atol,
                                                bool large_steps = true) {
  Project p = test::loadShipped("spin-up-beam.flexarm.json");
  p.model.joints[0].drive.law.omega0 = 8.0;
  for (CouplingOrder order : {CouplingOrder::High, CouplingOrder::Zero}) {
    p.coupling = order;
    const Results reference = runWith(p, kDifference, 0, 1e-10, 1e-12);
    const Results run = runWith(p, kAnalytic, max_order, rtol, atol, method);
    EXPECT_EQ(run.status, reference.status) << couplingName(order) << ": " << run.message;
    if (order == CouplingOrder::High) {
      ASSERT_EQ(reference.status, RunStatus::Completed);
      EXPECT_LE(relativeDifference(run, reference, "tip.beam.v"), 1e-3);
    } else {
      ASSERT_EQ(reference.status, RunStatus::Diverged);
      EXPECT_NEAR(run.end_time, reference.end_time, 0.01 * reference.end_time);
    }
    if (large_steps) {
      EXPECT_LT(run.stats.steps, reference.stats.steps / 3) << couplingName(order);
    }
  }
}

// Seed 004's arm over its first 0.3 s (the first swing, where the deflection peaks) with `settings`
// against CVODE BDF at rtol 1e-10: the end effector within 0.1 % of its travel (largest distance from
// the reference's point / the reference's largest travel from its start) and the last link's tip
// deflection within 0.1 % of its peak.
inline void expectSeed004MatchesTightReference(const SimulationSettings& settings) {
  Project arm = test::loadShipped("spatial-rrr-flexible-seed004.flexarm.json");
  const double rate = arm.simulation.output_rate;
  arm.simulation = settings;
  arm.simulation.output_rate = rate;
  arm.simulation.t_end = 0.3;
  const Results reference = runWith(arm, kAnalytic, 0, 1e-10, 1e-12, kBdf);
  const Results run = simulate(arm);
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  double travel = 0.0, distance = 0.0;
  const std::vector<double> rx = reference.column("ee.x"), ry = reference.column("ee.y"), rz = reference.column("ee.z");
  const std::vector<double> sx = run.column("ee.x"), sy = run.column("ee.y"), sz = run.column("ee.z");
  ASSERT_EQ(sx.size(), rx.size());
  for (std::size_t k = 0; k < rx.size(); ++k) {
    travel = std::max(travel, std::hypot(rx[k] - rx[0], ry[k] - ry[0], rz[k] - rz[0]));
    distance = std::max(distance, std::hypot(sx[k] - rx[k], sy[k] - ry[k], sz[k] - rz[k]));
  }
  EXPECT_GT(travel, 0.1);
  EXPECT_LE(distance, 1e-3 * travel) << distance << " m of " << travel << " m";
  const std::string link = arm.model.links.back().name;
  const double peak = std::max(peakAbs(reference.column("tip." + link + ".v")), peakAbs(reference.column("tip." + link + ".w")));
  for (const char* c : {".v", ".w"}) {
    const std::string channel = "tip." + link + c;
    EXPECT_LE(relativeDifference(run, reference, channel) * peakAbs(reference.column(channel)) / peak, 1e-3) << channel;
  }
}

// The two-link flexible arm, free (no drives), unforced and undamped, set spinning so that the links
// bend and exchange energy with the joints, simulated for 5 s with `settings`: its total energy drifts
// by less than 1e-4 of its scale (the largest kinetic or potential energy).
inline void expectFreeArmKeepsItsEnergy(const SimulationSettings& settings) {
  Project p = test::loadShipped("two-link-flexible-arm.flexarm.json");
  for (Joint& j : p.model.joints) {
    j.drive = JointDrive{};
    j.damping = 0.0;
    if (j.flex) j.flex->damping = 0.0;
  }
  for (Link& l : p.model.links)
    if (l.flex) l.flex->damping = {};
  p.model.joints[0].qd0 = 3.0;
  p.model.joints[1].qd0 = -2.0;
  const double rate = p.simulation.output_rate;
  p.simulation = settings;
  p.simulation.output_rate = rate;
  p.simulation.t_end = 5.0;
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  const std::vector<double> energy = r.column("energy.total");
  ASSERT_FALSE(energy.empty());
  double scale = 0.0, drift = 0.0;
  for (const char* c : {"energy.kinetic", "energy.potential"}) scale = std::max(scale, peakAbs(r.column(c)));
  for (double e : energy) drift = std::max(drift, std::abs(e - energy.front()));
  EXPECT_LE(drift, 1e-4 * scale) << drift << " of " << scale;
  EXPECT_GT(r.stats.steps, 10);
  EXPECT_GT(scale, 1.0);  // it moved
}

// What a new project got before issue 40: CVODE BDF of variable order up to 5 with the analytic
// iteration matrix and the condensed Newton solve, at rtol 1e-6 and atol 1e-8; IDA with the same
// tolerances once the model has constraints. Of the methods measured (docs/performance.md) it is the one
// whose error stays within 0.1 % on every shipped project, tip deflections included: generalized-alpha
// and BDF of order <= 2 drift in phase on the lightly damped cantilever (0.5 % and 0.08 %) and
// generalized-alpha on the tip deflections of seed 004 and Canadarm2 at the same tolerances.
inline SimulationSettings bdfAtRtol1e6() {
  SimulationSettings s;
  s.method = SimulationSettings::Method::Bdf;
  s.jacobian = SimulationSettings::Jacobian::Analytic;
  s.max_order = 0;
  s.rtol = 1e-6;
  s.atol = 1e-8;
  return s;
}

// The cantilever under gravity with `settings`, its Rayleigh damping bringing the tip to the static
// deflection: the whole tip history within 0.1 % of its peak of CVODE BDF at rtol 1e-10 (difference
// quotients), and the final deflection within 1 % of the closed form w L^4 / (8 E I) = -2.77 mm.
// Returns the run's statistics and the reference's steps.
inline std::pair<SolverStats, long> expectCantileverMatchesTightReference(const SimulationSettings& settings) {
  Project p = test::loadShipped("cantilever.flexarm.json");
  static const Results reference = runWith(p, kDifference, 0, 1e-10, 1e-12, kBdf);  // once per program
  const Results run = runWith(p, settings.jacobian, settings.max_order, settings.rtol, settings.atol, settings.method);
  EXPECT_EQ(run.status, RunStatus::Completed) << run.message;
  const std::string tip = "tip." + p.model.links.back().name + ".w";
  EXPECT_LE(relativeDifference(run, reference, tip), 1e-3);
  const std::vector<double> w = run.column(tip);
  EXPECT_FALSE(w.empty());
  if (!w.empty()) {
    EXPECT_NEAR(w.back(), -2.77e-3, 0.01 * 2.77e-3);
  }
  return {run.stats, reference.stats.steps};
}

// n uncoupled damped oscillators q_i'' = -k_i q_i - c_i q_i', solved as one system whose iteration
// matrix (diagonal here) is factorized as if dense: generalized-alpha's policy for costly factorizations.
class OscillatorBank final : public OdeRhs, public SecondOrderOde {
 public:
  explicit OscillatorBank(int n) : k_(n), c_(n), diagonal_(n) {
    for (int i = 0; i < n; ++i) {
      k_(i) = omega(i) * omega(i);
      c_(i) = 2.0 * kZeta * omega(i);
    }
  }
  static constexpr double kZeta = 0.05;
  static double omega(int i) { return 2.0 + 0.5 * i; }
  int size() const { return static_cast<int>(k_.size()); }
  // Every oscillator released from q = 1 at rest, and its exact motion
  // q_i = exp(-zeta w t) (cos w_d t + zeta w / w_d sin w_d t), q_i' = -exp(-zeta w t) (w^2 / w_d) sin w_d t.
  Eigen::VectorXd released() const {
    Eigen::VectorXd y0 = Eigen::VectorXd::Zero(2 * size());
    y0.head(size()).setOnes();
    return y0;
  }
  static double exactPosition(int i, double t) {
    const double w = omega(i), wd = dampedOmega(i);
    return std::exp(-kZeta * w * t) * (std::cos(wd * t) + kZeta * w / wd * std::sin(wd * t));
  }
  static double exactRate(int i, double t) {
    const double w = omega(i), wd = dampedOmega(i);
    return -std::exp(-kZeta * w * t) * (w * w / wd) * std::sin(wd * t);
  }
  // Generalized-alpha at rtol 1e-6, atol 1e-8.
  static SimulationSettings settings() {
    SimulationSettings s;
    s.method = SimulationSettings::Method::GeneralizedAlpha;
    s.rtol = 1e-6;
    s.atol = 1e-8;
    return s;
  }
  int rhs(double, const double* y, double* ydot) override {
    const int n = size();
    for (int i = 0; i < n; ++i) {
      ydot[i] = y[n + i];
      ydot[n + i] = -k_(i) * y[i] - c_(i) * y[n + i];
    }
    return 0;
  }
  int stateDerivative(double t, const double* y, double* ydot) override { return rhs(t, y, ydot); }
  int accelerationResidual(double, const double* y, const double* a, double* r, bool) override {
    const int n = size();
    for (int i = 0; i < n; ++i) r[i] = a[i] + k_(i) * y[i] + c_(i) * y[n + i];
    return 0;
  }
  int evaluateIterationMatrices(double, const double*) override { return 0; }
  int factorIteration(double c_v, double c_q) override {
    diagonal_ = Eigen::VectorXd::Ones(size()) + c_v * c_ + c_q * k_;
    ++factorizations;
    return 0;
  }
  int solveIteration(double* x) override {
    for (int i = 0; i < size(); ++i) x[i] /= diagonal_(i);
    return 0;
  }
  bool costlyIterationMatrices() const override { return dense; }
  long factorizations = 0;
  bool dense = true;

 private:
  static double dampedOmega(int i) { return omega(i) * std::sqrt(1.0 - kZeta * kZeta); }
  Eigen::VectorXd k_, c_, diagonal_;
};

}  // namespace flexarm::test
