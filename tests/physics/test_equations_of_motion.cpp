// The equations of motion (EquationsOfMotion.hpp, Kane's equations over every mass element, the
// stations gathered per link):
//  - they equal an independent evaluation (IndependentEquations.hpp: the positions of every mass
//    element differentiated along the motion, Newton-Euler at each) to 1e-10, for every coupling order,
//    basis, layout and joint type: M, M qdd + b, the energies, every frame's motion, Jacobian and forces;
//  - for rigid chains they equal the recursive algorithms (CRBA, RNEA; themselves checked against
//    Orocos KDL) to 1e-10;
//  - their bias equals Lagrange's equations from finite differences of M(q) and of the potential:
//    b = dM/dt qd - 1/2 d(qd' M qd)/dq + dV_gravity/dq.
#include <gtest/gtest.h>

#include <random>

#include "FlexTestModels.hpp"
#include "IndependentEquations.hpp"
#include "dynamics/Crba.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"
#include "dynamics/GeometricStiffness.hpp"
#include "dynamics/Rnea.hpp"
#include "dynamics/TangentStiffness.hpp"

using namespace flexarm;
using flexarm::test::randomState;

namespace {
double relErr(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}
}  // namespace

TEST(EquationsOfMotion, EqualRecursiveRigidAlgorithms) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const char* name : {"double-pendulum.flexarm.json", "spatial-3r-arm.flexarm.json"}) {
    Project p = flexarm::test::loadShipped(name);
    p.model.joints[1].type = JointType::Prismatic;  // mix in a prismatic joint
    const MultibodySystem sys = MultibodySystem::fromModel(p.model);
    ASSERT_TRUE(sys.isRigid());
    DynamicsData fast(sys), composite(sys);
    for (int trial = 0; trial < 20; ++trial) {
      Eigen::VectorXd q(sys.nq), qd(sys.nq), qdd(sys.nq);
      for (int i = 0; i < sys.nq; ++i) q(i) = 2 * u(rng), qd(i) = 2 * u(rng), qdd(i) = 2 * u(rng);
      const Eigen::MatrixXd M = crba(sys, fast, q);
      const Eigen::VectorXd tau = rnea(sys, fast, q, qd, qdd);
      const Eigen::VectorXd composite_tau = flexarm::test::inverseDynamicsWithGravity(sys, composite, q, qd, qdd, true);
      const flexarm::test::IndependentEquations independent = flexarm::test::independentEquations(sys, q, qd, qdd);
      EXPECT_LT(relErr(independent.M, M), 1e-10) << name;
      EXPECT_LT(relErr(independent.tau, tau), 1e-10) << name;
      EXPECT_LT(relErr(composite.M, M), 1e-10) << name;
      EXPECT_LT(relErr(composite_tau, tau), 1e-10) << name;
      // The gravity term on the recursive algorithms' frames: the same force.
      rnea(sys, fast, q, qd, qdd);
      EXPECT_LT(relErr(flexarm::test::gravityForce(sys, fast, q, qd), flexarm::test::gravityForce(sys, composite, q, qd)), 1e-12)
          << name;
      // The pass sums 1/2 v^T I v over its mass elements; CRBA's M gives 1/2 qd^T M qd.
      const double kinetic = 0.5 * qd.dot(M * qd);
      EXPECT_NEAR(composite.kinetic, kinetic, 1e-12 * kinetic) << name;
    }
  }
}

namespace {
// The flexible links of the arms below: a steel bar of assumed modes (every field), and a spatial mesh of
// two elements on an aluminium tube.
constexpr const char* kSteelModes =
    R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.02}, "material": {"preset": "steel"},
        "basis": "modes", "modes": {"axial": 1, "bending_y": 2, "bending_z": 2, "torsion": 1}})";
constexpr const char* kTubeTwoElements =
    R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02}, "material": {"preset": "aluminium"},
        "basis": "fem", "elements": 2, "layout": "spatial"})";

// A spatial arm with everything: assumed-mode and FEM flexible links, a rigid link, flexible
// revolute and prismatic joints, joint mass, an offset tip payload with rotational inertia, and
// payloads riding on sections inside both flexible links (off the neutral axis, with inertia).
Project mixedArm(const char* coupling) {
  const char* flex = kSteelModes;
  const char* fem = kTubeTwoElements;
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling +
                                    R"(", "gravity": [0.4, -0.3, -9.81],
      "links": [{"name": "a", "length": 0.8, "flex": )" +
                                    flex + R"(},
                {"name": "r", "length": 0.3, "mass": 1.2, "shape": {"type": "box", "width": 0.1, "height": 0.05}},
                {"name": "b", "length": 0.6, "flex": )" +
                                    fem + R"(}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1], "flex": {"stiffness": 100, "rotor_inertia": 0.01, "gear_ratio": 4}},
                 {"name": "j2", "type": "prismatic", "axis": [1, 0, 0], "placement": {"rpy": [0.2, 0.1, 0]},
                  "flex": {"stiffness": 5000, "damping": 3, "rotor_inertia": 0.2, "gear_ratio": 1.5}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0], "mass": 0.3}],
      "payloads": [{"name": "tip", "link": "b", "frame": "distal", "offset": [0.02, 0, 0.01], "mass": 0.5, "inertia": [1e-3, 2e-3, 3e-3]},
                   {"name": "motor", "link": "a", "frame": "section", "offset": [0.5, 0.01, -0.02], "mass": 0.7,
                    "inertia": [2e-3, 1e-3, 1.5e-3, 1e-4, -2e-4, 3e-4]},
                   {"name": "disk", "link": "b", "frame": "section", "offset": [0.23, 0, 0], "mass": 0.4, "inertia": [4e-3, 2e-3, 2e-3]}]})");
}

}  // namespace

namespace {
Eigen::MatrixXd pose(const Eigen::Isometry3d& X) { return X.matrix(); }

// The equations equal the independent evaluation at random states of `model(coupling)` for every
// coupling order, to 1e-10: M, M qdd + b - Q_gravity, the gravity potential, and every body's frames (poses,
// motions, distal Jacobians and d'Alembert forces, from which the axial force of `geometric` coupling
// is computed). The kinetic energy each sums over its mass elements, with or without M, is
// 1/2 qd^T M qd to round-off; compositeKinematics() gives the same frames and energies.
void expectEqualIndependentEquations(Project (*model)(const char*), unsigned seed, int trials) {
  std::mt19937 rng(seed);
  for (const char* coupling : {"high", "zero", "geometric"}) {
    const Project p = model(coupling);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    DynamicsData fast(sys), kin(sys);
    fast.every_distal_jacobian = true;
    for (int trial = 0; trial < trials; ++trial) {
      Eigen::VectorXd q, qd, qdd;
      randomState(sys, rng, q, qd);
      randomState(sys, rng, qdd, qdd);
      const flexarm::test::IndependentEquations ref = flexarm::test::independentEquations(sys, q, qd, qdd);
      const Eigen::VectorXd tau = flexarm::test::inverseDynamicsWithGravity(sys, fast, q, qd, qdd, true);
      EXPECT_LT(relErr(fast.M, ref.M), 1e-10) << coupling;
      EXPECT_LT(relErr(tau, ref.tau), 1e-10) << coupling;
      internalForces(sys, fast, q, qd);
      EXPECT_NEAR(fast.gravity_potential, ref.gravity_potential, 1e-10 * std::abs(ref.gravity_potential));
      for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
        const BodyFrames& f = fast.frames[i];
        EXPECT_LT(relErr(pose(f.X_world_distal), pose(ref.distal[i])), 1e-12) << coupling << " body " << i;
        EXPECT_LT(relErr(f.J_distal, ref.distal_jacobian[i]), 1e-10) << coupling << " body " << i;
        EXPECT_LT(relErr(f.v_body, ref.body_velocity[i]), 1e-10) << coupling << " body " << i;
        EXPECT_LT(relErr(f.a_body, ref.body_acceleration[i]), 1e-10) << coupling << " body " << i;
        EXPECT_LT(relErr(f.v_distal, ref.distal_velocity[i]), 1e-10) << coupling << " body " << i;
        EXPECT_LT(relErr(f.a_distal, ref.distal_acceleration[i]), 1e-10) << coupling << " body " << i;
        EXPECT_LT(relErr(f.force_world, ref.inertial_force[i]), 1e-10) << coupling << " body " << i;
      }
      const double kinetic = 0.5 * qd.dot(ref.M * qd);
      EXPECT_NEAR(ref.kinetic, kinetic, 1e-12 * kinetic) << coupling;
      EXPECT_NEAR(fast.kinetic, kinetic, 1e-12 * kinetic) << coupling;
      compositeEquations(sys, fast, q, qd, qdd, false);
      EXPECT_NEAR(fast.kinetic, kinetic, 1e-12 * kinetic) << coupling << " without M";
      // The kinematics pass of a recorded row: the same frames and energies without the forces.
      compositeKinematics(sys, kin, q, qd, qdd);
      internalForces(sys, kin, q, qd);
      EXPECT_NEAR(kin.kinetic, kinetic, 1e-12 * kinetic) << coupling << " kinematics";
      EXPECT_NEAR(kin.gravity_potential, ref.gravity_potential, 1e-10 * std::abs(ref.gravity_potential)) << coupling;
      for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
        const BodyFrames &k = kin.frames[i], &r = fast.frames[i];
        EXPECT_LT((k.X_world_distal.matrix() - r.X_world_distal.matrix()).norm(), 1e-12) << coupling << " body " << i;
        EXPECT_LT((k.v_distal - r.v_distal).norm(), 1e-10 * (1.0 + r.v_distal.norm())) << coupling << " body " << i;
        EXPECT_LT((k.a_distal - r.a_distal).norm(), 1e-10 * (1.0 + r.a_distal.norm())) << coupling << " body " << i;
        EXPECT_LT((k.tip_deformation - r.tip_deformation).norm(), 1e-12) << coupling << " body " << i;
        EXPECT_NEAR(k.tip_twist, r.tip_twist, 1e-12) << coupling << " body " << i;
      }
    }
  }
}
}  // namespace

TEST(EquationsOfMotion, EqualTheIndependentEquations) { expectEqualIndependentEquations(mixedArm, 3, 6); }

namespace {
// A tree: a flexible torso carries two branches at its tip (a rigid shoulder with a meshed arm, and an
// arm of assumed modes on a flexible joint with a payload on a section), and a second root stands on the
// world beside it (a prismatic rail with a rigid link). The links are listed parents first.
Project treeArm(const char* coupling) {
  const char* modes = kSteelModes;
  const char* fem = kTubeTwoElements;
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling + R"(", "gravity": [0.4, -0.3, -9.81],
      "links": [{"name": "torso", "length": 0.5, "flex": )" +
                                    modes + R"(},
                {"name": "shoulder", "length": 0.2, "mass": 0.8, "shape": {"type": "box", "width": 0.05, "height": 0.05}},
                {"name": "left", "length": 0.6, "flex": )" +
                                    fem + R"(},
                {"name": "right", "length": 0.7, "flex": )" +
                                    modes + R"(},
                {"name": "carriage", "length": 0.3, "mass": 1.1, "com": [0.1, 0.02, 0], "inertia": [0.01, 0.02, 0.03, 0.001, 0, 0]}],
      "joints": [{"name": "waist", "type": "revolute", "axis": [0, 0, 1]},
                 {"name": "lshoulder", "type": "revolute", "axis": [0, 1, 0], "placement": {"xyz": [0, 0.1, 0], "rpy": [0.3, 0, 0]}},
                 {"name": "lelbow", "type": "revolute", "axis": [0, 0, 1], "mass": 0.2},
                 {"name": "rshoulder", "type": "revolute", "axis": [0, 1, 0], "parent": "torso",
                  "placement": {"xyz": [0, -0.1, 0], "rpy": [-0.3, 0, 0]}, "flex": {"stiffness": 300, "rotor_inertia": 0.02, "gear_ratio": 3}},
                 {"name": "rail", "type": "prismatic", "axis": [1, 0, 0], "parent": "world", "placement": {"xyz": [0, 1, 0]}}],
      "payloads": [{"name": "hand", "link": "right", "frame": "section", "offset": [0.5, 0.01, 0], "mass": 0.3, "inertia": [1e-3, 2e-3, 2e-3]},
                   {"name": "tool", "link": "left", "frame": "distal", "offset": [0.02, 0, 0], "mass": 0.4, "inertia": [1e-3, 1e-3, 1e-3]}]})");
}
}  // namespace

TEST(EquationsOfMotion, EqualTheIndependentEquationsOnATree) {
  // Two branches on one link and a second root: each body moves with its own parent only.
  expectEqualIndependentEquations(treeArm, 5, 4);
  const Project p = treeArm("high");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  EXPECT_EQ(sys.bodies[3].parent, 0);
  EXPECT_EQ(sys.bodies[4].parent, -1);
  EXPECT_TRUE(p.model.branches());
}

namespace {
// Finer meshes, where the gathering's prefix and suffix sums over the intervals
// (LinkInertia.hpp) carry most of the foreshortening: 7 spatial elements, 5 planar elements, and
// 6 spatial elements reduced to their 4 lowest modes (dense rows on every interval).
Project meshArm(const char* coupling) {
  const char* spatial =
      R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02}, "material": {"preset": "aluminium"},
                            "basis": "fem", "elements": 7, "layout": "spatial"})";
  const char* planar = R"({"section": {"preset": "rectangle", "width": 0.02, "height": 0.01}, "material": {"preset": "steel"},
                           "basis": "fem", "elements": 5, "layout": "planar"})";
  const char* reduced = R"({"section": {"preset": "rectangle", "width": 0.01, "height": 0.02}, "material": {"preset": "steel"},
                            "basis": "fem", "elements": 6, "layout": "spatial", "reduce_to": 4})";
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling +
                                    R"(", "gravity": [0.2, 0.4, -9.81],
      "links": [{"name": "a", "length": 0.9, "flex": )" +
                                    spatial + R"(},
                {"name": "b", "length": 0.7, "flex": )" +
                                    planar + R"(},
                {"name": "c", "length": 0.5, "flex": )" +
                                    reduced + R"(}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1]},
                 {"name": "j2", "type": "revolute", "axis": [0, 1, 0], "placement": {"rpy": [0.3, 0, 0.1]}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0]}],
      "payloads": [{"name": "tip", "link": "c", "frame": "distal", "offset": [0.02, 0, 0.01], "mass": 0.4, "inertia": [1e-3, 2e-3, 3e-3]},
                   {"name": "clamp", "link": "b", "frame": "section", "offset": [0.31, 0, 0.005], "mass": 0.2, "inertia": [1e-4, 1e-4, 1e-4]}]})");
}
}  // namespace

TEST(EquationsOfMotion, EqualTheIndependentEquationsOnFinerMeshes) { expectEqualIndependentEquations(meshArm, 11, 3); }

// The stations of spatial elements take their rows by index (FlexibleBody::Interval::spatial_nodes,
// LinkInertia.cpp), which the test above checks: the 7-element link's clamped
// first interval is one node, the others two; the planar elements and the reduced link (dense rows
// on every interval) are gathered otherwise.
TEST(EquationsOfMotion, SpatialElementsAreGatheredByIndex) {
  const Project p = meshArm("high");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  std::vector<std::vector<int>> nodes;
  for (const Body& b : sys.bodies) {
    if (!b.flexible) continue;
    nodes.emplace_back();
    for (const FlexibleBody::Interval& iv : b.flexible->intervals) nodes.back().push_back(iv.spatial_nodes);
  }
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0], (std::vector<int>{1, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(nodes[1], std::vector<int>(5, 0));
  EXPECT_EQ(nodes[2], std::vector<int>(6, 0));
}

namespace {
// The equations gather each interval with compile-time sizes for the common windows
// (LinkInertia.cpp) and with run-time sizes otherwise: twelve global modes of which six bend (the
// Canadarm2 booms), seven of which five bend (run-time sizes), between rigid links with mass and a
// distal payload (their blocks of M by addBodyMass in the composite evaluation).
Project modesArm(const char* coupling) {
  const char* twelve =
      R"({"section": {"preset": "tube", "outer_diameter": 0.05, "inner_diameter": 0.04}, "material": {"preset": "aluminium"},
                           "basis": "modes", "modes": {"axial": 3, "bending_y": 3, "bending_z": 3, "torsion": 3}})";
  const char* seven = R"({"section": {"preset": "rectangle", "width": 0.02, "height": 0.03}, "material": {"preset": "steel"},
                          "basis": "modes", "modes": {"axial": 1, "bending_y": 3, "bending_z": 2, "torsion": 1}})";
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling +
                                    R"(", "gravity": [0.1, -0.3, -9.81],
      "links": [{"name": "base", "length": 0.3, "mass": 2.0, "shape": {"type": "cylinder", "radius": 0.1}},
                {"name": "a", "length": 1.2, "flex": )" +
                                    twelve + R"(},
                {"name": "b", "length": 0.8, "flex": )" +
                                    seven + R"(},
                {"name": "wrist", "length": 0.2, "mass": 0.7, "shape": {"type": "cylinder", "radius": 0.04}}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 0, 1]},
                 {"name": "j2", "type": "revolute", "axis": [0, 1, 0], "placement": {"rpy": [0.2, 0, 0.3]}},
                 {"name": "j3", "type": "revolute", "axis": [0, 1, 0]},
                 {"name": "j4", "type": "revolute", "axis": [1, 0, 0]}],
      "payloads": [{"name": "tool", "link": "wrist", "frame": "distal", "offset": [0.05, 0, 0], "mass": 0.3, "inertia": [1e-3, 2e-3, 2e-3]}]})");
}
}  // namespace

TEST(EquationsOfMotion, EqualTheIndependentEquationsOnEveryWindowSize) { expectEqualIndependentEquations(modesArm, 17, 3); }

namespace {
// An evaluation clears M only where the one before wrote it (DynamicsData::M_regions): evaluated again
// and again at new states, M equals that of a fresh evaluation exactly, and every non-zero lies in
// the regions noted.
void expectMassMatrixClearedWhereWritten(Project (*model)(const char*), unsigned seed) {
  std::mt19937 rng(seed);
  for (const char* coupling : {"high", "zero", "geometric"}) {
    const Project p = model(coupling);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(sys.nq);
    DynamicsData reused(sys);
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd q, qd;
      randomState(sys, rng, q, qd);
      compositeEquations(sys, reused, q, qd, zero, true);
      if (trial == 1) compositeEquations(sys, reused, q, qd, zero, false);  // without M in between
      DynamicsData fresh(sys);
      compositeEquations(sys, fresh, q, qd, zero, true);
      EXPECT_EQ((reused.M - fresh.M).cwiseAbs().maxCoeff(), 0.0) << coupling;
      ASSERT_TRUE(reused.M_regions_valid);
      Eigen::MatrixXd covered = Eigen::MatrixXd::Zero(sys.nq, sys.nq);
      for (const MatrixRegion& r : reused.M_regions) {
        if (!r.pattern) {
          covered.block(r.row, r.col, r.rows, r.cols).setOnes();
          continue;
        }
        for (int c = 0; c < r.pattern->outerSize(); ++c)
          for (Eigen::SparseMatrix<double>::InnerIterator it(*r.pattern, c); it; ++it)
            covered(r.row + static_cast<int>(it.row()), r.col + c) = 1.0;
      }
      EXPECT_EQ((reused.M.array() != 0.0 && covered.array() == 0.0).count(), 0) << coupling;
    }
  }
}

// A finely meshed link without payloads: the regions are its joint's row and column and the band of
// its structural mass (zero coupling), a small part of the matrix.
Project meshedLink(const char* coupling) {
  Project p = flexarm::test::cantilever(
      R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02}, "material": {"preset": "aluminium"},
          "basis": "fem", "elements": 20, "layout": "spatial"})",
      1.2, std::string(R"("coupling": ")") + coupling + R"(",)");
  p.model.joints[0].drive = JointDrive{};
  return p;
}
}  // namespace

TEST(EquationsOfMotion, MassMatrixIsClearedWhereTheLastEvaluationWroteIt) {
  expectMassMatrixClearedWhereWritten(mixedArm, 17);
  expectMassMatrixClearedWhereWritten(meshArm, 19);
  expectMassMatrixClearedWhereWritten(meshedLink, 23);
  const Project p = meshedLink("zero");
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData d(sys);
  compositeEquations(sys, d, Eigen::VectorXd::Zero(sys.nq), Eigen::VectorXd::Zero(sys.nq), Eigen::VectorXd::Zero(sys.nq), true);
  long covered = 0;
  for (const MatrixRegion& r : d.M_regions) covered += r.pattern ? r.pattern->nonZeros() : static_cast<long>(r.rows) * r.cols;
  EXPECT_LT(covered, sys.nq * sys.nq / 5) << sys.nq;
}

namespace {
// With every coordinate's acceleration known (elastic and motor ones included), the evaluation is the
// inverse dynamics: tau(q, qd, qdd) = M(q) qdd + tau(q, qd, 0), to 1e-10, for every coupling order.
// (Generalized-alpha's residual M a - f without the mass matrix, ForwardDynamics.)
void expectInverseDynamicsEqualsMassTimesAcceleration(Project (*model)(const char*), unsigned seed) {
  std::mt19937 rng(seed);
  for (const char* coupling : {"high", "zero", "geometric"}) {
    const Project p = model(coupling);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    DynamicsData d(sys);
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd q, qd, qdd;
      randomState(sys, rng, q, qd);
      randomState(sys, rng, qdd, qdd);
      compositeEquations(sys, d, q, qd, Eigen::VectorXd::Zero(sys.nq), true);
      const Eigen::VectorXd tau0 = d.tau;
      const Eigen::MatrixXd M = d.M;
      compositeEquations(sys, d, q, qd, qdd, false);
      EXPECT_LT(relErr(d.tau - tau0, M * qdd), 1e-10) << coupling;
    }
  }
}
}  // namespace

TEST(EquationsOfMotion, KnownAccelerationsGiveTheInverseDynamics) {
  expectInverseDynamicsEqualsMassTimesAcceleration(mixedArm, 5);
  expectInverseDynamicsEqualsMassTimesAcceleration(meshArm, 13);
}

TEST(EquationsOfMotion, BiasEqualsLagrangeFromFiniteDifferences) {
  for (const char* coupling : {"high", "zero"}) {
    const Project p = mixedArm(coupling);
    const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
    DynamicsData d(sys);
    const int n = sys.nq;
    std::mt19937 rng(11);
    Eigen::VectorXd q, qd;
    randomState(sys, rng, q, qd);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
    auto massMatrix = [&](const Eigen::VectorXd& x) {
      compositeEquations(sys, d, x, zero, zero, true);
      return Eigen::MatrixXd(d.M);
    };
    auto gravityPotential = [&](const Eigen::VectorXd& x) {
      compositeEquations(sys, d, x, zero, zero, false);
      internalForces(sys, d, x, zero);
      return d.gravity_potential;
    };
    const Eigen::MatrixXd M = massMatrix(q);
    EXPECT_LT(relErr(M, M.transpose()), 1e-13);
    EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(M).info(), Eigen::Success);

    // Lagrange: b_k = sum_l dM/dq_l qd_l (M qd)_k ... written as (dM/dt) qd - 1/2 d(qd' M qd)/dq + dV/dq.
    Eigen::MatrixXd Mdot = Eigen::MatrixXd::Zero(n, n);
    Eigen::VectorXd dT = Eigen::VectorXd::Zero(n), dV = Eigen::VectorXd::Zero(n);
    for (int l = 0; l < n; ++l) {
      const double h = 1e-6;
      Eigen::VectorXd qp = q, qm = q;
      qp(l) += h;
      qm(l) -= h;
      const Eigen::MatrixXd Mp = massMatrix(qp), Mm = massMatrix(qm);
      const Eigen::MatrixXd dM = (Mp - Mm) / (2 * h);
      Mdot += dM * qd(l);
      dT(l) = 0.5 * qd.dot(dM * qd);
      dV(l) = (gravityPotential(qp) - gravityPotential(qm)) / (2 * h);
    }
    const Eigen::VectorXd lagrange = Mdot * qd - dT + dV;
    const Eigen::VectorXd kane = flexarm::test::inverseDynamicsWithGravity(sys, d, q, qd, zero, true);
    EXPECT_LT(relErr(kane, lagrange), 1e-6) << coupling << "\nKane     " << kane.transpose() << "\nLagrange "
                                            << lagrange.transpose();
  }
}

namespace {
// One flexible link carrying a payload at (x, 0.01, -0.02) on the section x, or the same payload on the
// distal frame at (0, 0.01, -0.02).
Project linkWithPayload(const char* coupling, const std::string& frame, double x) {
  const char* fem =
      R"({"section": {"preset": "tube", "outer_diameter": 0.03, "inner_diameter": 0.02}, "material": {"preset": "aluminium"},
                        "basis": "fem", "elements": 3, "layout": "spatial"})";
  return flexarm::test::parseOrFail(std::string(R"({"format": "flexarm-project", "schema_version": 1, "coupling": ")") +
                                    coupling +
                                    R"(", "gravity": [0.4, -0.3, -9.81],
      "links": [{"name": "a", "length": 0.9, "flex": )" +
                                    fem + R"(}],
      "joints": [{"name": "j1", "type": "revolute", "axis": [0, 1, 1]}],
      "payloads": [{"name": "p", "link": "a", "frame": ")" +
                                    frame + R"(", "offset": [)" + std::to_string(x) +
                                    R"(, 0.01, -0.02], "mass": 0.6, "inertia": [2e-3, 1e-3, 1.5e-3, 1e-4, -2e-4, 3e-4]}]})");
}

// Every coordinate free, numbered as itself (TangentSink's numbering).
std::vector<int> everyCoordinateFree(const MultibodySystem& sys) {
  std::vector<int> number(static_cast<std::size_t>(sys.nq));
  for (int k = 0; k < sys.nq; ++k) number[static_cast<std::size_t>(k)] = k;
  return number;
}
}  // namespace

// A payload on the last section (x = L) rides on the distal frame: the same equations, the same
// internal forces (the axial force of `geometric` coupling included), the same tangent, to round-off.
TEST(EquationsOfMotion, APayloadOnTheLastSectionIsADistalPayload) {
  std::mt19937 rng(29);
  for (const char* coupling : {"high", "zero", "geometric"}) {
    const Project on_section = linkWithPayload(coupling, "section", 0.9), distal = linkWithPayload(coupling, "distal", 0.0);
    const MultibodySystem a = MultibodySystem::fromModel(on_section.model, on_section.coupling),
                          b = MultibodySystem::fromModel(distal.model, distal.coupling);
    ASSERT_EQ(a.bodies[0].section_masses.size(), 1u);
    ASSERT_EQ(b.bodies[0].distal_mass, 0.6);
    DynamicsData da(a), db(b);
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd q, qd, qdd;
      randomState(a, rng, q, qd);
      randomState(a, rng, qdd, qdd);
      compositeEquations(a, da, q, qd, qdd, true);
      compositeEquations(b, db, q, qd, qdd, true);
      EXPECT_LT(relErr(da.M, db.M), 1e-12) << coupling;
      EXPECT_LT(relErr(da.tau, db.tau), 1e-12) << coupling;
      EXPECT_NEAR(da.kinetic, db.kinetic, 1e-12 * db.kinetic) << coupling;
      internalForces(a, da, q, qd);
      internalForces(b, db, q, qd);
      EXPECT_LT(relErr(da.internal, db.internal), 1e-12) << coupling;
      EXPECT_NEAR(da.elastic_potential, db.elastic_potential, 1e-12 * std::abs(db.elastic_potential)) << coupling;
      Eigen::MatrixXd Ka, Ca, Kb, Cb;
      const std::vector<int> number = everyCoordinateFree(a);
      DenseTangent ta(number, a.nq, Ka, Ca), tb(number, b.nq, Kb, Cb);
      tangentStiffness(a, da, ta);
      tangentStiffness(b, db, tb);
      EXPECT_LT(relErr(Ka, Kb), 1e-12) << coupling;
    }
  }
}

// Inside the span, a section payload's tension acts from the root to its section only: the internal
// force of `geometric` coupling is minus the gradient of its potential (difference quotients at the
// frames of the state), and the tangent is that gradient's derivative. (Gravity, whose potential is that
// of the whole configuration, is left out: ForceTerms.* checks it with its pass moving.)
TEST(EquationsOfMotion, ASectionPayloadsTensionIsAPotentialsGradient) {
  const Project p = linkWithPayload("geometric", "section", 0.47);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  DynamicsData d(sys);
  std::mt19937 rng(31);
  Eigen::VectorXd q, qd;
  randomState(sys, rng, q, qd);
  qd.setZero();  // no structural damping force in the comparison
  compositeEquations(sys, d, q, qd, Eigen::VectorXd::Zero(sys.nq), true);
  ASSERT_GT(std::abs(sectionMassTension(sys, d, 0, 0)), 1.0);
  internalForces(sys, d, q, qd);
  const Eigen::VectorXd force = d.internal - d.gravity_force;
  const std::vector<int> number = everyCoordinateFree(sys);
  Eigen::MatrixXd K, C;
  DenseTangent tangent(number, sys.nq, K, C);
  tangentStiffness(sys, d, tangent);
  const Body& b = sys.bodies[0];
  for (int k = b.e_index; k < b.e_index + b.e_count; ++k) {
    const double h = 1e-6;
    Eigen::VectorXd qp = q, qm = q;
    qp(k) += h;
    qm(k) -= h;
    internalForces(sys, d, qp, qd);  // the frames (and so the tension) of q
    const double Vp = d.elastic_potential;
    const Eigen::VectorXd Fp = d.internal - d.gravity_force;
    internalForces(sys, d, qm, qd);
    const double Vm = d.elastic_potential;
    const Eigen::VectorXd Fm = d.internal - d.gravity_force;
    EXPECT_NEAR(-(Vp - Vm) / (2 * h), force(k), 1e-6 * force.cwiseAbs().maxCoeff()) << sys.describeCoordinate(k);
    const Eigen::VectorXd column = -(Fp - Fm) / (2 * h);
    EXPECT_LT((column.segment(b.e_index, b.e_count) - K.col(k).segment(b.e_index, b.e_count)).cwiseAbs().maxCoeff(),
              1e-6 * K.cwiseAbs().maxCoeff())
        << sys.describeCoordinate(k);
  }
}
