// Speed of the dynamics kernels and of a whole run.
//   cmake -B build -DFLEXARM_BUILD_BENCH=ON && cmake --build build && ./build/bench/flexarm_bench
#include <benchmark/benchmark.h>

#include "dynamics/Crba.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/Rnea.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {
Project load(const char* name) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name);
  if (!p.project) throw std::runtime_error(p.diagnostics.text());
  return *p.project;
}

void BM_Rnea3R(benchmark::State& state) {
  const Project p = load("spatial-3r-arm.flexarm.json");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  DynamicsData data(sys);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(sys.nq, 0.3), qd = q, qdd = q;
  for (auto _ : state) benchmark::DoNotOptimize(rnea(sys, data, q, qd, qdd).data());
}
BENCHMARK(BM_Rnea3R);

void BM_Crba3R(benchmark::State& state) {
  const Project p = load("spatial-3r-arm.flexarm.json");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  DynamicsData data(sys);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(sys.nq, 0.3);
  for (auto _ : state) benchmark::DoNotOptimize(crba(sys, data, q).data());
}
BENCHMARK(BM_Crba3R);

void BM_RightHandSide3R(benchmark::State& state) {
  const Project p = load("spatial-3r-arm.flexarm.json");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  ForwardDynamics fd(sys);
  std::vector<double> y(fd.stateSize(), 0.2), ydot(fd.stateSize());
  for (auto _ : state) {
    fd.evaluate(ForwardDynamics::Request::accelerations(0.5, y.data(), ydot.data()));
    benchmark::DoNotOptimize(ydot.data());
  }
}
BENCHMARK(BM_RightHandSide3R);

// Seed 004's spatial arm (42 coordinates: 3 flexible joints, 3 links of 2 spatial elements, high-order
// coupling) in motion: the terms of M a = f that an implicit step evaluates (mass matrix, bias, internal
// forces), the same with the Cholesky solve (the ODE right-hand side), and the tangent of the iteration matrix.
void BM_Seed004(benchmark::State& state) {
  const Project p = load("spatial-rrr-flexible-seed004.flexarm.json");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  ForwardDynamics fd(sys);
  std::vector<double> y(fd.stateSize()), ydot(fd.stateSize());
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = 1e-3 * static_cast<double>(k % 7) - 2e-3;
  for (std::size_t k = 0; k < 3; ++k) y[y.size() / 2 + k * 14] = 2.0;  // joints turning
  Eigen::MatrixXd K, C;
  for (auto _ : state) {
    switch (state.range(0)) {
      case 0: fd.evaluate(ForwardDynamics::Request::terms(0.5, y.data())); break;
      case 1: fd.evaluate(ForwardDynamics::Request::accelerations(0.5, y.data(), ydot.data())); break;
      default: fd.evaluate(ForwardDynamics::Request::terms(0.5, y.data())); fd.tangent(K, C);
    }
    benchmark::DoNotOptimize(fd.residualForce().data());
  }
}
BENCHMARK(BM_Seed004)->ArgName("terms0_rhs1_tangent2")->DenseRange(0, 2);

void BM_DoublePendulum10s(benchmark::State& state) {
  Project p = load("double-pendulum.flexarm.json");
  for (auto _ : state) {
    const Results r = simulate(p);
    state.counters["steps"] = static_cast<double>(r.stats.steps);
    benchmark::DoNotOptimize(r.rows());
  }
}
BENCHMARK(BM_DoublePendulum10s)->Unit(benchmark::kMillisecond);
}  // namespace

BENCHMARK_MAIN();
