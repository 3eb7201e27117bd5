// The implicit integrators' right-hand side (solvers/ForwardDynamicsRhs.hpp): CVODE's condensed Newton
// solve against the dense system, and the iteration matrices of the methods on M a = f, banded where
// that pays.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "solvers/ForwardDynamicsRhs.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

// The condensed Newton solve (ForwardDynamicsRhs.hpp) gives the solution of the dense 2n x 2n system
// (I - gamma J) x = b built from the same Jacobian, on arms with rigid and flexible joints, in motion,
// for small and large gamma, when the Jacobian is reused at a new gamma, and after a new evaluation.
// The condensed Newton solve against the dense 2n x 2n system (I - gamma J) x = b. The two-link arm
// with 30 elements per link (about 190 free coordinates, flexible joints, PD drives) keeps its
// iteration matrices sparse with zero and geometric coupling, and dense with `high` (whose
// foreshortening fills the mass matrix).
TEST(ImplicitSolvers, CondensedNewtonSolveEqualsTheDenseSystem) {
  struct Case {
    std::string name;
    std::vector<std::string> sets;
    bool sparse;
  };
  std::vector<Case> cases;
  for (const char* name : {"spatial-rrr-flexible-seed004.flexarm.json", "spin-up-beam.flexarm.json",
                           "two-link-flexible-arm.flexarm.json", "canadarm2-drop-seed000.flexarm.json"})
    cases.push_back({name, {}, false});
  for (const char* coupling : {"zero", "geometric", "high"})
    cases.push_back({"two-link-flexible-arm.flexarm.json",
                     {"links[0].flex.elements=30", "links[1].flex.elements=30", std::string("coupling=") + coupling},
                     std::string(coupling) != "high"});
  for (const Case& c : cases) {
    const std::string name = c.name + (c.sets.empty() ? "" : " " + c.sets.back());
    LoadedProject loaded = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + c.name, c.sets);
    ASSERT_TRUE(loaded.project) << loaded.diagnostics.text();
    const Project& p = *loaded.project;
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    ForwardDynamics fd(sys);
    ForwardDynamicsRhs rhs(fd);
    const int n = fd.stateSize();
    ASSERT_GT(n, 0) << name;
    if (c.sparse) {
      ASSERT_GE(n / 2, SymmetricSolve::kSparseFrom) << name;
    }
    Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(n, -0.3, 0.4);  // a state away from rest
    y.head(n / 2) *= 0.05;                                         // small deflections, finite rates
    Eigen::MatrixXd J(n, n);
    ASSERT_EQ(rhs.jacobian(0.2, y.data(), Eigen::Map<Eigen::MatrixXd>(J.data(), n, n)), 0) << name;
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, 1.0, -2.0).cwiseProduct(Eigen::VectorXd::LinSpaced(n, 0.5, 3.0));
    bool evaluated = false;
    for (double gamma : {1e-5, 1e-3, 0.05}) {
      for (bool reuse : {false, true}) {
        ASSERT_EQ(rhs.setupNewton(0.2, y.data(), gamma, reuse, &evaluated), 0) << name;
        EXPECT_EQ(evaluated, !reuse) << name;  // reuse keeps the Jacobian of the first setup
        EXPECT_EQ(rhs.sparseIterationMatrices(), c.sparse) << name;
        Eigen::VectorXd x = b;
        ASSERT_EQ(rhs.solveNewton(x.data()), 0) << name;
        if (!c.sets.empty()) {
          // A fine mesh: J = [0 I; -M^-1 K_t, -M^-1 C_t] itself is inaccurate (M^-1 of an
          // ill-conditioned M), so the reference is the same system multiplied by [I 0; 0 M]:
          // x_q - gamma x_v = b_q,  gamma K_t x_q + (M + gamma C_t) x_v = M b_v.
          fd.evaluate(ForwardDynamics::Request::terms(0.2, y.data()));
          const Eigen::MatrixXd M = fd.massMatrix();
          Eigen::MatrixXd K, C;
          fd.tangent(K, C);
          const int m = n / 2;
          Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
          B.topLeftCorner(m, m).setIdentity();
          B.topRightCorner(m, m) = -gamma * Eigen::MatrixXd::Identity(m, m);
          B.bottomLeftCorner(m, m) = gamma * K;
          B.bottomRightCorner(m, m) = M + gamma * C;
          Eigen::VectorXd rhs_m(n);
          rhs_m << b.head(m), M * b.tail(m);
          const Eigen::VectorXd dense = B.fullPivLu().solve(rhs_m);
          EXPECT_LE((x - dense).norm(), 1e-9 * dense.norm()) << name << " gamma " << gamma;
          continue;
        }
        const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n) - gamma * J;
        const Eigen::VectorXd dense = A.fullPivLu().solve(b);
        EXPECT_LE((x - dense).norm(), 1e-9 * dense.norm()) << name << " gamma " << gamma;
        // and it solves that system to round-off (normwise backward error; J holds stiffnesses over masses, ~1e8)
        EXPECT_LE((A * x - b).norm() / (A.norm() * x.norm() + b.norm()), 1e-13) << name << " gamma " << gamma;
      }
    }
  }
}

namespace {
// rhs's factorization and solve of its iteration matrix for two steps' coefficients (c_v, c_q) equal
// the dense solve of M + c_v C + c_q K, to 1e-9.
void expectIterationSolveEqualsDense(ForwardDynamicsRhs& rhs, const Eigen::MatrixXd& M, const Eigen::MatrixXd& K,
                                     const Eigen::MatrixXd& C, const std::string& what) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(M.rows(), 1.0, -2.0);
  for (double c_v : {1e-4, 1e-2}) {
    const double c_q = 0.3 * c_v * c_v;
    ASSERT_EQ(rhs.factorIteration(c_v, c_q), 0) << what;
    Eigen::VectorXd x = b;
    ASSERT_EQ(rhs.solveIteration(x.data()), 0) << what;
    const Eigen::VectorXd dense = (M + c_v * C + c_q * K).ldlt().solve(b);
    EXPECT_LE((x - dense).norm(), 1e-9 * dense.norm()) << what << " " << c_v;
  }
}
}  // namespace

// Generalized-alpha's iteration matrices with `high` coupling from ForwardDynamicsRhs::kBandedMassFrom
// free coordinates leave out the mass matrix's running-integral terms (the residual keeps them): for
// one link the matrices are banded and factorized sparse, and the solve equals the dense solve of
// M_banded + c_v C_t + c_q K_t, M_banded being what Output::Terms builds without those terms; they
// are a small part of M, but there (0.8 % where the beam spun up at 8 rad/s deflects most, 0.63 m at
// its 8 m tip). CVODE's Newton matrices keep the whole M.
TEST(ImplicitSolvers, GeneralizedAlphaIterationMatrixOfHighCouplingIsBanded) {
  Project beam = test::loadShipped("spin-up-beam.flexarm.json");
  beam.model.links[0].flex->discretization.elements = 60;
  const MultibodySystem sys = MultibodySystem::fromModel(beam.model, CouplingOrder::High);
  ForwardDynamics fd(sys);
  ForwardDynamicsRhs rhs(fd);
  const int n = fd.stateSize(), nf = n / 2;
  ASSERT_GE(nf, ForwardDynamicsRhs::kBandedMassFrom);
  // The state of the beam spun up at 8 rad/s where its tip deflects most (rates: not in M).
  beam.model.joints[0].drive.law.omega0 = 8.0;
  beam.simulation.t_end = 4.0;
  beam.simulation.method = SimulationSettings::Method::GeneralizedAlpha;
  const Results run = simulate(beam);
  ASSERT_EQ(run.status, RunStatus::Completed) << run.message;
  const std::vector<double> tip = run.column("tip.beam.v");
  const std::size_t row = static_cast<std::size_t>(
      std::max_element(tip.begin(), tip.end(), [](double a, double b) { return std::abs(a) < std::abs(b); }) - tip.begin());
  Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < nf; ++k) y(k) = run.column("e.beam." + std::to_string(k + 1))[row];
  fd.evaluate(ForwardDynamics::Request::terms(0.1, y.data()));
  const Eigen::MatrixXd M_exact = fd.massMatrix();
  fd.setMassWithoutRunningTerms(true);
  fd.evaluate(ForwardDynamics::Request::terms(0.1, y.data()));
  fd.setMassWithoutRunningTerms(false);
  const Eigen::MatrixXd M = fd.massMatrix();
  Eigen::MatrixXd K, C;
  fd.tangent(K, C);
  EXPECT_GT((M - M_exact).norm(), 1e-6 * M_exact.norm());
  EXPECT_LT((M - M_exact).norm(), 0.05 * M_exact.norm());
  EXPECT_NE(M_exact(nf - 1, 0), 0.0);  // the running integrals fill M ...
  EXPECT_EQ(M(nf - 1, 0), 0.0);        // ... which is banded without them
  ASSERT_EQ(rhs.evaluateIterationMatrices(0.1, y.data()), 0);
  EXPECT_TRUE(rhs.sparseIterationMatrices());
  expectIterationSolveEqualsDense(rhs, M, K, C, "spin-up beam");
  // CVODE's condensed Newton solve: with the whole M (dense here).
  bool evaluated = false;
  ASSERT_EQ(rhs.setupNewton(0.1, y.data(), 1e-3, false, &evaluated), 0);
  EXPECT_FALSE(rhs.sparseIterationMatrices());
}

// Below the sparse path, from ForwardDynamicsRhs::kBandedMassFrom free coordinates, the iteration
// matrices of the methods on M a = f leave out M's running-integral terms where that makes them
// banded enough for the envelope factorization: the cantilever's 60 coordinates, whose solve then
// equals the dense solve of M_banded + c_v C_t + c_q K_t. Seed 004's three links couple through their
// tips, so its banded matrix is not cheaper to factorize: it keeps the whole M.
TEST(ImplicitSolvers, IterationMatricesAreBandedWhereTheEnvelopePays) {
  for (const char* name : {"cantilever.flexarm.json", "spatial-rrr-flexible-seed004.flexarm.json"}) {
    const Project p = test::loadShipped(name);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    ForwardDynamics fd(sys);
    ForwardDynamicsRhs rhs(fd);
    const int n = fd.stateSize(), nf = n / 2;
    ASSERT_GE(nf, ForwardDynamicsRhs::kBandedMassFrom) << name;
    ASSERT_LT(nf, SymmetricSolve::kSparseFrom) << name;
    Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(n, -0.3, 0.4);  // deflected, moving
    y.head(nf) *= 0.01;
    ASSERT_EQ(rhs.evaluateIterationMatrices(0.1, y.data()), 0) << name;
    const bool cantilever = std::string(name) == "cantilever.flexarm.json";
    EXPECT_EQ(rhs.bandedIterationMatrices(), cantilever) << name;
    fd.setMassWithoutRunningTerms(cantilever);
    fd.evaluate(ForwardDynamics::Request::terms(0.1, y.data()));
    fd.setMassWithoutRunningTerms(false);
    const Eigen::MatrixXd M = fd.massMatrix();
    Eigen::MatrixXd K, C;
    fd.tangent(K, C);
    expectIterationSolveEqualsDense(rhs, M, K, C, name);
  }
}
