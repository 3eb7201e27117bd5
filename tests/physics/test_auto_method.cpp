// The automatic method (solvers/AutoMethod.hpp) and the error estimate (solvers/ErrorEstimate.hpp) on
// the shipped projects: what auto chooses and says why; at the default accuracy the end effector stays
// within 0.1 % of its excursion against a run at a tolerance 10^5 times tighter; a tighter accuracy is
// more accurate; the error estimate does not understate the measured error by more than 3 times; a
// constrained project with no solver settings runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using Method = SimulationSettings::Method;

namespace {

Project shipped(const std::string& name, const std::vector<std::string>& sets = {}) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name + ".flexarm.json", sets);
  if (!p.project) ADD_FAILURE() << p.diagnostics.text();
  return p.project ? *p.project : Project{};
}

// The same project, integrated tightly: BDF at rtol 1e-10 (constraints: IDA at 1e-8, difference quotients).
Results tightRun(Project p) {
  SimulationSettings& s = p.simulation;
  const bool constrained = !p.model.constraints.empty();
  s.method = constrained ? Method::Ida : Method::Bdf;
  s.max_order = 0;
  s.rtol = constrained ? 1e-8 : 1e-10;
  s.atol = constrained ? 1e-10 : 1e-12;
  s.jacobian = constrained ? SimulationSettings::Jacobian::DifferenceQuotient : SimulationSettings::Jacobian::Analytic;
  s.max_steps = 100000000;
  return simulate(p);
}

// The end effector's largest distance from the reference's, over the reference's largest excursion from
// its start (the benchmark's measure, bench/bench_solvers.cpp).
double endEffectorError(const Results& run, const Results& reference) {
  const char* axes[3] = {"ee.x", "ee.y", "ee.z"};
  std::vector<double> x[3], r[3];
  for (int a = 0; a < 3; ++a) {
    x[a] = run.column(axes[a]);
    r[a] = reference.column(axes[a]);
  }
  EXPECT_EQ(x[0].size(), r[0].size());
  const std::size_t n = std::min(x[0].size(), r[0].size());
  double worst = 0.0, excursion = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    double d = 0.0, e = 0.0;
    for (int a = 0; a < 3; ++a) {
      d += std::pow(x[a][k] - r[a][k], 2);
      e += std::pow(r[a][k] - r[a][0], 2);
    }
    worst = std::max(worst, std::sqrt(d));
    excursion = std::max(excursion, std::sqrt(e));
  }
  return worst / excursion;
}

// A tip's deflection (v, w): its largest distance from the reference's over the reference's largest
// deflection (the estimate's measure, ErrorEstimate.hpp).
double tipError(const Results& run, const Results& reference, const std::string& link) {
  const std::vector<double> v = run.column("tip." + link + ".v"), w = run.column("tip." + link + ".w"),
                            rv = reference.column("tip." + link + ".v"), rw = reference.column("tip." + link + ".w");
  EXPECT_FALSE(v.empty() || rv.empty()) << link;
  const std::size_t n = std::min({v.size(), w.size(), rv.size(), rw.size()});
  double worst = 0.0, peak = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    worst = std::max(worst, std::hypot(v[k] - rv[k], w[k] - rw[k]));
    peak = std::max(peak, std::hypot(rv[k], rw[k]));
  }
  return peak > 0.0 ? worst / peak : worst;
}

double estimate(const Results& r, const std::string& group) {
  for (const ErrorEstimate& e : r.errors)
    if (e.group == group) return e.relative;
  ADD_FAILURE() << "no estimate for " << group;
  return 0.0;
}

struct Case {
  const char* project;
  std::vector<std::string> sets;  // shortened where the tight reference takes long
};

// Every shipped project that runs forward (not Newmark's fixed step, not the inverse-dynamics path).
const std::vector<Case> kCases = {
    {"cantilever", {}},
    {"spin-up-beam", {}},
    {"two-link-flexible-arm", {}},
    {"rigid-flexible-arm-seed001", {}},
    {"double-pendulum", {}},
    {"spatial-3r-arm", {}},
    {"sliding-beam-slow-push", {}},
    {"sliding-beam-fast-push", {}},
    {"sliding-beam-fast-pull", {}},
    {"flexible-four-bar", {}},
    {"flexible-slider-crank", {}},
    {"palletizer-parallelogram", {}},
    {"canadarm2-drop-seed000", {"simulation.t_end=1"}},          // the reference: 9 s for 1 s
    {"spatial-rrr-flexible-seed004", {"simulation.t_end=0.4"}},  // the reference: 7 s for 0.4 s
};

}  // namespace

TEST(AutoMethod, ChoosesFromTheModelAndSaysWhy) {
  struct Expected {
    const char* project;
    Method method;
    int order;
    const char* words;
  };
  for (const Expected& e :
       {Expected{"sliding-beam-slow-push", Method::GeneralizedAlpha, 0, "constraints"},
        Expected{"spatial-rrr-flexible-seed004", Method::GeneralizedAlpha, 0, "driven"},
        Expected{"spin-up-beam", Method::GeneralizedAlpha, 0, "driven"},
        Expected{"canadarm2-drop-seed000", Method::GeneralizedAlpha, 0, "moves freely"},
        Expected{"cantilever", Method::Esdirk, 5, "vibrating"}, Expected{"double-pendulum", Method::Bdf, 0, "rigid"}}) {
    const Project p = shipped(e.project);
    EXPECT_EQ(p.simulation.method, Method::Auto) << e.project << " ships with auto";
    const SolverChoice c = solverChoice(p);
    EXPECT_TRUE(c.automatic);
    EXPECT_EQ(c.settings.method, e.method) << e.project << ": " << c.reason;
    if (e.order > 0) {
      EXPECT_EQ(c.settings.max_order, e.order) << e.project;
    }
    EXPECT_NE(c.reason.find(e.words), std::string::npos) << e.project << ": " << c.reason;
    EXPECT_GT(c.settings.rtol, 0.0);
    EXPECT_GT(c.settings.atol, 0.0);
    // The run says it too.
    Project shorter = p;
    shorter.simulation.t_end = 0.05;
    const Results r = simulate(shorter);
    EXPECT_EQ(r.status, RunStatus::Completed) << e.project << ": " << r.message;
    EXPECT_NE(r.method_choice.find(e.words), std::string::npos) << r.method_choice;
    EXPECT_EQ(r.solver_description.rfind("auto: ", 0), 0u) << r.solver_description;
  }
  // With constraints at half generalized-alpha's tolerance without; below rtol 1e-7 (accuracy 1e-5:
  // 5e-5 x 10^-3) IDA, which has multipliers too (CVODE has none), at its own tolerance for the accuracy.
  EXPECT_EQ(solverChoice(shipped("flexible-four-bar")).settings.rtol, 5e-5);
  const SolverChoice tight = solverChoice(shipped("flexible-four-bar", {"simulation.accuracy=1e-5"}));
  EXPECT_EQ(tight.settings.method, Method::Ida) << tight.reason;
  EXPECT_NE(tight.reason.find("IDA of variable order"), std::string::npos) << tight.reason;
  EXPECT_GT(tight.settings.rtol, 1e-7) << "IDA's own tolerance for the accuracy, not generalized-alpha's";
  // A named method keeps its name; rtol and atol set by the user override the accuracy.
  Project named = shipped("cantilever", {"simulation.solver.method=bdf", "simulation.solver.rtol=3e-7"});
  const SolverChoice c = solverChoice(named);
  EXPECT_FALSE(c.automatic);
  EXPECT_EQ(c.settings.method, Method::Bdf);
  EXPECT_EQ(c.settings.rtol, 3e-7);
  EXPECT_EQ(c.settings.atol, 3e-9);
}

TEST(AutoMethod, ConstrainedProjectWithoutSolverSettingsRuns) {
  // The shipped sliding beam names no method: auto integrates its supports with multipliers.
  const Project p = shipped("sliding-beam-fast-pull", {"simulation.t_end=0.2"});
  ASSERT_EQ(p.simulation.method, Method::Auto);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  EXPECT_FALSE(r.column("constraint.support1.pos").empty());  // the constrained stepper's channels
}

TEST(AutoMethod, MeetsTheDefaultAccuracyOnEveryShippedProject) {
  for (const Case& c : kCases) {
    const Project p = shipped(c.project, c.sets);
    ASSERT_EQ(p.simulation.accuracy, 1e-3);
    const Results run = simulate(p), reference = tightRun(p);
    ASSERT_EQ(run.status, RunStatus::Completed) << c.project << ": " << run.message;
    ASSERT_EQ(reference.status, RunStatus::Completed) << c.project << ": " << reference.message;
    const double error = endEffectorError(run, reference);
    EXPECT_LE(error, 1e-3) << c.project << " (" << run.solver_description << ")";
    // The estimate does not understate the measured error by more than 3 times: the end effector's,
    // and each tip's, whose errors are larger (the accuracy is the end effector's; docs/performance.md,
    // "The tips under auto"; at most 1.95 times understated there).
    EXPECT_GE(3.0 * estimate(run, "ee"), error) << c.project;
    for (const ErrorEstimate& e : run.errors) {
      if (e.group.rfind("tip.", 0) != 0) continue;
      const double tip = tipError(run, reference, e.group.substr(4));
      EXPECT_GE(3.0 * e.relative, tip) << c.project << " " << e.group;
    }
  }
}

TEST(AutoMethod, TighterAccuracyIsMoreAccurate) {
  for (const char* name : {"two-link-flexible-arm", "spin-up-beam"}) {
    const Project loose = shipped(name), tight = shipped(name, {"simulation.accuracy=1e-4"});
    const Results reference = tightRun(loose);
    const double e3 = endEffectorError(simulate(loose), reference), e4 = endEffectorError(simulate(tight), reference);
    EXPECT_LE(e4, 1e-4) << name;
    EXPECT_LT(3.0 * e4, e3) << name << ": " << e4 << " at 1e-4, " << e3 << " at 1e-3";
  }
}

TEST(AutoMethod, VerificationMeasuresWhatTheEstimateBounds) {
  // --verify: a run at a tenth of the accuracy; each group's measured difference next to its estimate.
  for (const char* name : {"two-link-flexible-arm", "cantilever", "rigid-flexible-arm-seed001", "sliding-beam-fast-pull"}) {
    const Project p = shipped(name);
    Results r = simulate(p);
    ASSERT_EQ(r.status, RunStatus::Completed) << name;
    ASSERT_FALSE(r.errors.empty()) << name;
    const Results tighter = verifyErrors(MultibodySystem::fromModel(p.model, p.coupling), p.simulation, r);
    ASSERT_EQ(tighter.status, RunStatus::Completed) << name;
    EXPECT_EQ(tighter.accuracy, 1e-4);
    for (const ErrorEstimate& e : r.errors) {
      ASSERT_GE(e.measured, 0.0) << name << " " << e.group;
      EXPECT_GE(3.0 * e.relative, e.measured) << name << " " << e.group << ": estimate " << e.relative;
    }
  }
}

// What a new project gets since issue 40 (SimulationSettings' defaults): the automatic method at the
// accuracy 1e-3, its tolerances from the accuracy (AutoMethod.* above).
TEST(DefaultSolver, IsAutoAtTheAccuracy1e3) {
  const SimulationSettings d;
  EXPECT_EQ(d.method, SimulationSettings::Method::Auto);
  EXPECT_EQ(d.accuracy, 1e-3);
  EXPECT_EQ(d.jacobian, SimulationSettings::Jacobian::Analytic);
  EXPECT_EQ(d.max_order, 0);
  EXPECT_EQ(d.rtol, 0.0);
  EXPECT_EQ(d.atol, 0.0);
}
