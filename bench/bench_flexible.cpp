// Speed of the flexible engine on the seed 000 spin-up beam (high-order coupling, Omega0 = 2 rad/s):
// one right-hand-side evaluation and one full 30 s spin-up run, for assumed modes (1, 5, 10 bending
// modes) and planar finite elements (5, 10, 20, 40 elements). The run benchmarks report
// sim_s_per_wall_s = simulated seconds per wall-clock second.
#include <benchmark/benchmark.h>

#include "discretization/FlexibleBody.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/ForwardDynamicsRhs.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
Project spinUp(bool modes, int count) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/spin-up-beam.flexarm.json");
  if (!p.project) throw std::runtime_error(p.diagnostics.text());
  LinkDiscretization& d = p.project->model.links[0].flex->discretization;
  if (modes) {
    d = LinkDiscretization{};
    d.kind = LinkDiscretization::Kind::AssumedModes;
    d.bending_y = count;
  } else {
    d.elements = count;
  }
  return *p.project;
}

void rhs(benchmark::State& state, bool modes) {
  const Project p = spinUp(modes, static_cast<int>(state.range(0)));
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  ForwardDynamics fd(sys);
  std::vector<double> y(fd.stateSize(), 1e-3), ydot(fd.stateSize());
  for (auto _ : state) {
    fd.evaluate(ForwardDynamics::Request::accelerations(7.5, y.data(), ydot.data()));
    benchmark::DoNotOptimize(ydot.data());
  }
  state.counters["coordinates"] = sys.nq;
}

// The equations alone (bias and internal forces, with or without the mass matrix; no factorization)
// for one coupling order, at 5-200 elements. Without the mass matrix the cost grows linearly with the
// mesh; the dense mass matrix itself (n^2 entries to clear and fill) adds O(n^2).
void equations(benchmark::State& state, CouplingOrder coupling) {
  Project p = spinUp(false, static_cast<int>(state.range(0)));
  p.coupling = coupling;
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData d(sys);
  Eigen::VectorXd q = Eigen::VectorXd::Constant(sys.nq, 1e-3), qd = q, qdd = Eigen::VectorXd::Zero(sys.nq);
  for (auto _ : state) {
    compositeEquations(sys, d, q, qd, qdd, state.range(1) != 0);
    internalForces(sys, d, q, qd);
    benchmark::DoNotOptimize(d.M.data());
  }
  state.counters["coordinates"] = sys.nq;
}

void run(benchmark::State& state, bool modes) {
  const Project p = spinUp(modes, static_cast<int>(state.range(0)));
  double wall = 0.0;
  long steps = 0, rhs_evaluations = 0;
  for (auto _ : state) {
    const Results r = simulate(p);
    if (r.status != RunStatus::Completed) state.SkipWithError(r.message.c_str());
    wall += r.stats.wall_time;
    steps = r.stats.steps;
    rhs_evaluations = r.stats.rhs_evaluations;
  }
  state.counters["sim_s_per_wall_s"] = p.simulation.t_end * static_cast<double>(state.iterations()) / wall;
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["rhs_evaluations"] = static_cast<double>(rhs_evaluations);
}

// Building one spatial finite-element link (the cantilever tube): matrices integrated element by element,
// lowest modes by sparse subspace iteration. Grows with the square of the mesh (dense m x m matrices and
// full shape rows are still stored), where it grew with its cube:
// 183 s for 200 elements before.
void BM_BuildSpatialLink(benchmark::State& state) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json");
  if (!p.project) throw std::runtime_error(p.diagnostics.text());
  const Link& link = p.project->model.links[0];
  FlexibleLink flex = *link.flex;
  flex.discretization.elements = static_cast<int>(state.range(0));
  int m = 0;
  for (auto _ : state) {
    const auto body = FlexibleBody::build(flex, link.length);
    m = body->m;
    benchmark::DoNotOptimize(body.get());
  }
  state.counters["coordinates"] = m;
}

// The pieces of one implicit step on the cantilever (61 coordinates, `high` coupling, Rayleigh damping):
// the residual M a - f without M (linear in the mesh), the same with M and the iteration matrices, the
// factorization of M + c_v C_t + c_q K_t, and one solve with it.
enum class StepPiece { MassFreeResidual, ResidualWithMatrices, Factorization, Solve };
void cantileverStep(benchmark::State& state, StepPiece piece) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json");
  if (!p.project) throw std::runtime_error(p.diagnostics.text());
  const MultibodySystem sys = MultibodySystem::fromModel(p.project->model, p.project->coupling);
  ForwardDynamics fd(sys);
  ForwardDynamicsRhs ode(fd);
  const int n = fd.stateSize() / 2;
  std::vector<double> y(fd.stateSize(), 1e-3), a(n, 1e-2), r(n);
  ode.accelerationResidual(0.1, y.data(), a.data(), r.data(), true);
  ode.factorIteration(1e-4, 1e-8);
  for (auto _ : state) {
    switch (piece) {
      case StepPiece::MassFreeResidual: ode.accelerationResidual(0.1, y.data(), a.data(), r.data(), false); break;
      case StepPiece::ResidualWithMatrices: ode.accelerationResidual(0.1, y.data(), a.data(), r.data(), true); break;
      case StepPiece::Factorization: ode.factorIteration(1e-4, 1e-8); break;
      case StepPiece::Solve: ode.solveIteration(r.data()); break;
    }
    benchmark::DoNotOptimize(r.data());
  }
  state.counters["coordinates"] = n;
}

void BM_CantileverMassFreeResidual(benchmark::State& s) { cantileverStep(s, StepPiece::MassFreeResidual); }
void BM_CantileverResidualWithMatrices(benchmark::State& s) { cantileverStep(s, StepPiece::ResidualWithMatrices); }
void BM_CantileverFactorization(benchmark::State& s) { cantileverStep(s, StepPiece::Factorization); }
void BM_CantileverSolve(benchmark::State& s) { cantileverStep(s, StepPiece::Solve); }
void BM_SpinUpRhs_AssumedModes(benchmark::State& s) { rhs(s, true); }
void BM_SpinUpRhs_FiniteElements(benchmark::State& s) { rhs(s, false); }
void BM_Equations_Zero(benchmark::State& s) { equations(s, CouplingOrder::Zero); }
void BM_Equations_Geometric(benchmark::State& s) { equations(s, CouplingOrder::Geometric); }
void BM_Equations_High(benchmark::State& s) { equations(s, CouplingOrder::High); }
void BM_SpinUpRun30s_AssumedModes(benchmark::State& s) { run(s, true); }
void BM_SpinUpRun30s_FiniteElements(benchmark::State& s) { run(s, false); }
}  // namespace

BENCHMARK(BM_BuildSpatialLink)->ArgName("elements")->Arg(10)->Arg(50)->Arg(100)->Arg(200)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CantileverMassFreeResidual);
BENCHMARK(BM_CantileverResidualWithMatrices);
BENCHMARK(BM_CantileverFactorization);
BENCHMARK(BM_CantileverSolve);
BENCHMARK(BM_SpinUpRhs_AssumedModes)->ArgName("modes")->Arg(1)->Arg(5)->Arg(10);
BENCHMARK(BM_SpinUpRhs_FiniteElements)->ArgName("elements")->Arg(5)->Arg(10)->Arg(20)->Arg(40);
BENCHMARK(BM_Equations_Zero)->ArgNames({"elements", "mass_matrix"})->ArgsProduct({{5, 10, 20, 40, 100, 200}, {0, 1}});
BENCHMARK(BM_Equations_Geometric)->ArgNames({"elements", "mass_matrix"})->ArgsProduct({{5, 10, 20, 40, 100, 200}, {0, 1}});
BENCHMARK(BM_Equations_High)->ArgNames({"elements", "mass_matrix"})->ArgsProduct({{5, 10, 20, 40, 100, 200}, {0, 1}});
BENCHMARK(BM_SpinUpRun30s_AssumedModes)->ArgName("modes")->Arg(1)->Arg(5)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_SpinUpRun30s_FiniteElements)
    ->ArgName("elements")
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Arg(40)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
