// The foreshortening of `high` coupling in columns of its own (dynamics/ForeshorteningColumns.hpp) and
// the structured solve of the iteration matrices built on it (solvers/ForwardDynamicsRhs.hpp,
// base/LowRankUpdatedSolve.hpp): the split mass matrix gives back the mass matrix, the split pass
// leaves the bias and the frames as they are, the structured solve equals the dense one, and its
// factorization's size grows linearly with the mesh.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "FlexTestModels.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectFile.hpp"
#include "solvers/ForwardDynamicsRhs.hpp"

using namespace flexarm;

namespace {

struct Arm {
  std::string name;  // a shipped project
  std::vector<std::string> sets;
};

Project loadArm(const Arm& arm) {
  LoadedProject loaded = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + arm.name, arm.sets);
  if (!loaded.project) ADD_FAILURE() << arm.name << ": " << loaded.diagnostics.text();
  return loaded.project ? *loaded.project : Project{};
}

std::string describe(const Arm& arm) {
  std::string s = arm.name;
  for (const std::string& set : arm.sets) s += " " + set;
  return s;
}

// Arms with their foreshortening carried beyond a section: a chain of three spatial links with flexible
// joints (seed 004), a planar two-link arm with a payload at its tip, a tree (two arms on a torso), links
// by assumed modes (Canadarm2), and one beam with payloads on a section and at its tip.
std::vector<Arm> arms(int elements) {
  const std::string el = std::to_string(elements);
  const std::string payloads =
      R"(payloads=[{"name": "mid", "link": "beam", "frame": "section", "offset": [1.3, 0.01, -0.02], "mass": 1.5,)"
      R"( "inertia": [0.01, 0.02, 0.03, 0, 0, 0]}, {"name": "tip", "link": "beam", "frame": "distal", "mass": 0.7}])";
  return {
      {"spatial-rrr-flexible-seed004.flexarm.json",
       {"links[0].flex.elements=" + el, "links[1].flex.elements=" + el, "links[2].flex.elements=" + el}},
      {"two-link-flexible-arm.flexarm.json", {"links[0].flex.elements=" + el, "links[1].flex.elements=" + el}},
      {"dual-arm-torso.flexarm.json", {}},
      {"canadarm2-drop-seed000.flexarm.json", {}},
      {"cantilever.flexarm.json", {"links[0].flex.elements=" + el, payloads}},
  };
}

// A state away from rest: the joints turned and turning, the links deflected and vibrating.
Eigen::VectorXd stateOf(const ForwardDynamics& fd, unsigned seed) {
  std::mt19937 rng(seed);
  Eigen::VectorXd q, qd;
  test::randomState(fd.system(), rng, q, qd);
  Eigen::VectorXd y(fd.stateSize());
  fd.initialState(q, qd, y.data());
  return y;
}

}  // namespace

// The split mass matrix is the mass matrix, to round-off: T^T M~ T = M~_xx + G M~_sx + M~_xs G^T +
// G M~_ss G^T with the running-integral terms in M~_xx; and without them in M~_xx, the Schur complement of
// the running terms' unknowns added (ForeshorteningColumns.hpp). The split pass's bias (Q - b) and frames
// are the ordinary pass's, and M~_xx without the running terms is sparse where M is dense.
TEST(ForeshorteningColumns, TheSplitMassMatrixIsTheMassMatrix) {
  for (const Arm& arm : arms(6)) {
    const std::string what = describe(arm);
    const Project p = loadArm(arm);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, CouplingOrder::High);
    ForwardDynamics fd(sys);
    ASSERT_GT(fd.foreshorteningColumns(), 0) << what;
    const int nf = fd.stateSize() / 2;
    for (unsigned seed : {1u, 2u}) {
      const Eigen::VectorXd y = stateOf(fd, seed);
      fd.evaluate(ForwardDynamics::Request::terms(0.3, y.data()));
      const Eigen::MatrixXd M = fd.massMatrix();
      const Eigen::VectorXd f = fd.residualForce();
      const Eigen::MatrixXd J_last = fd.data().frames.back().J_body;
      for (bool without_running : {false, true}) {
        fd.setMassWithoutRunningTerms(without_running);
        fd.setForeshorteningColumns(true);
        fd.evaluate(ForwardDynamics::Request::terms(0.3, y.data()));
        fd.setForeshorteningColumns(false);
        fd.setMassWithoutRunningTerms(false);
        const Eigen::MatrixXd M_xx = fd.massMatrix();
        ForwardDynamics::SplitMass split;
        fd.splitMass(split);
        const Eigen::MatrixXd& G = split.G;
        Eigen::MatrixXd joined = M_xx + G * split.M_xs.transpose() + split.M_xs * G.transpose() + G * split.M_ss * G.transpose();
        EXPECT_EQ(split.running_count > 0, without_running) << what;
        if (split.running_count > 0) {  // the running terms: A - X Y^-1 X^T of the whole system's blocks
          Eigen::MatrixXd W = Eigen::MatrixXd::Zero(nf + split.running_count, nf + split.running_count);
          for (const Eigen::Triplet<double>& t : split.running) W(t.row(), t.col()) += t.value();
          EXPECT_TRUE(W.topLeftCorner(nf, nf).isZero(0.0)) << what;
          const Eigen::MatrixXd X = W.topRightCorner(nf, split.running_count);
          const Eigen::MatrixXd Y = W.bottomRightCorner(split.running_count, split.running_count);
          joined -= X * Y.fullPivLu().solve(X.transpose());
        }
        EXPECT_LE((joined - M).norm(), 1e-11 * M.norm()) << what << " seed " << seed << " running " << !without_running;
        EXPECT_LE((fd.residualForce() - f).norm(), 1e-12 * f.norm()) << what;
        EXPECT_LE((fd.data().frames.back().J_body - J_last).norm(), 1e-12 * J_last.norm()) << what;
        EXPECT_GT((M_xx - M).norm(), 1e-9 * M.norm()) << what;  // the split moved something
      }
    }
  }
  // Three links of 20 spatial elements: M~_xx without the running terms holds a small part of M's non-zeros.
  const Project p = loadArm(arms(20).front());
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, CouplingOrder::High);
  ForwardDynamics fd(sys);
  const Eigen::VectorXd y = stateOf(fd, 3);
  fd.evaluate(ForwardDynamics::Request::terms(0.3, y.data()));
  const Eigen::Index nonzeros = (fd.massMatrix().array() != 0.0).count();
  fd.setMassWithoutRunningTerms(true);
  fd.setForeshorteningColumns(true);
  fd.evaluate(ForwardDynamics::Request::terms(0.3, y.data()));
  const Eigen::Index split_nonzeros = (fd.massMatrix().array() != 0.0).count();
  EXPECT_LT(split_nonzeros, nonzeros / 4);
  EXPECT_LT(static_cast<double>(split_nonzeros), 0.1 * static_cast<double>(fd.massMatrix().size()));
}

// The iteration matrices of the methods on M a = f: the structured solve (the sparse system of M~_xx +
// c_v C_t + c_q K_t with the running terms' unknowns, and the rank-2L update) equals the dense solve of
// M + c_v C_t + c_q K_t with the whole M, to 1e-10, on three spatial links with flexible joints, a planar
// arm with a payload, a tree, links by assumed modes and a beam with payloads; without foreshortening
// columns (zero and geometric coupling) the iteration matrices are not split.
TEST(ForeshorteningColumns, TheStructuredSolveEqualsTheDenseOne) {
  for (const Arm& arm : arms(20)) {
    for (CouplingOrder coupling : {CouplingOrder::Zero, CouplingOrder::Geometric, CouplingOrder::High}) {
      const std::string what = describe(arm) + " coupling " + std::to_string(static_cast<int>(coupling));
      const Project p = loadArm(arm);
      const MultibodySystem sys = MultibodySystem::fromModel(p.model, coupling);
      ForwardDynamics fd(sys);
      ForwardDynamicsRhs rhs(fd);
      const int nf = fd.stateSize() / 2;
      if (nf < ForwardDynamicsRhs::kBandedMassFrom) continue;  // the whole M: not split
      const Eigen::VectorXd y = stateOf(fd, 4);
      ASSERT_EQ(rhs.evaluateIterationMatrices(0.3, y.data()), 0) << what;
      const bool high = coupling == CouplingOrder::High;
      EXPECT_EQ(rhs.splitIterationMatrices(), high) << what;
      fd.evaluate(ForwardDynamics::Request::terms(0.3, y.data()));
      const Eigen::MatrixXd M = fd.massMatrix();
      Eigen::MatrixXd K, C;
      fd.tangent(K, C);
      const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(nf, 1.0, -2.0).cwiseProduct(Eigen::VectorXd::LinSpaced(nf, 0.5, 3.0));
      for (double c_v : {1e-4, 3e-3}) {
        const double c_q = 0.3 * c_v * c_v;
        ASSERT_EQ(rhs.factorIteration(c_v, c_q), 0) << what;
        Eigen::VectorXd x = b;
        ASSERT_EQ(rhs.solveIteration(x.data()), 0) << what;
        const Eigen::MatrixXd S = M + c_v * C + c_q * K;
        const Eigen::VectorXd dense = S.lu().solve(b);
        EXPECT_LE((x - dense).norm(), 1e-10 * dense.norm()) << what << " c_v " << c_v;
      }
    }
  }
}

// The cost of the structured factorization grows linearly with the mesh: the non-zeros of the factors
// of three spatial links with flexible joints, 10 to 80 elements each (186 to 1446 coordinates), per
// coordinate, stay bounded: below 150 and within a factor 2.5 of each other (a dense factorization's
// grow with the coordinates, from 186 to 1446 per coordinate). They are factorized in their band and
// border (base/BorderedBandSolve.hpp: half-bandwidth 16, 15 border unknowns), not by the general sparse LU.
TEST(ForeshorteningColumns, TheStructuredFactorizationGrowsLinearlyWithTheMesh) {
  std::vector<double> per_coordinate;
  for (int elements : {10, 20, 40, 80}) {
    const Project p = loadArm(arms(elements).front());
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, CouplingOrder::High);
    ForwardDynamics fd(sys);
    ForwardDynamicsRhs rhs(fd);
    const Eigen::VectorXd y = stateOf(fd, 5);
    ASSERT_EQ(rhs.evaluateIterationMatrices(0.3, y.data()), 0) << elements;
    ASSERT_TRUE(rhs.splitIterationMatrices()) << elements;
    ASSERT_EQ(rhs.factorIteration(1e-3, 3e-7), 0) << elements;
    // In its band and border, not by the general sparse LU, from 20 elements: at 10 the rows of the links'
    // distal coordinates hold too few non-zeros to be taken for the border, and the band would be 83 wide.
    if (elements >= 20) EXPECT_TRUE(rhs.iterationFactorInBand()) << elements;
    per_coordinate.push_back(static_cast<double>(rhs.iterationFactorNonZeros()) / (fd.stateSize() / 2));
  }
  const auto [lo, hi] = std::minmax_element(per_coordinate.begin(), per_coordinate.end());
  EXPECT_LE(*hi, 150.0);
  EXPECT_LE(*hi, 2.5 * *lo) << per_coordinate[0] << " " << per_coordinate[1] << " " << per_coordinate[2] << " "
                            << per_coordinate[3];
}
