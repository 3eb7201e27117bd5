// M(q), Coriolis/centrifugal and gravity terms against Orocos KDL (ChainDynParam, ChainIdSolver_RNE),
// an independent rigid-body dynamics code, for random 6-DOF chains mixing revolute and prismatic joints;
// and the inverse dynamics of random trees (TreeIdSolver_RNE), through the recursive rigid algorithms and
// through the flexible engine's equations of motion.
#include <gtest/gtest.h>
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>

#include <random>

#include "FlexTestModels.hpp"
#include "dynamics/Crba.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/Energy.hpp"
#include "dynamics/Rnea.hpp"

using namespace flexarm;

namespace {

struct RandomChain {
  Model model;
  KDL::Chain chain;
};

KDL::Frame toKdl(const Eigen::Isometry3d& X) {
  const Eigen::Matrix3d R = X.linear();
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)),
                    KDL::Vector(X.translation().x(), X.translation().y(), X.translation().z()));
}

// A random link and joint: box-like inertia, a random axis, placement and joint type.
void randomLinkAndJoint(std::mt19937& rng, int i, Link& link, Joint& joint) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.2, 1.5);
  link.name = "l" + std::to_string(i);
  link.length = pos(rng);
  link.mass = pos(rng) * 3.0;
  link.com = Eigen::Vector3d(link.length * (0.5 + 0.3 * u(rng)), 0.1 * u(rng), 0.1 * u(rng));
  // Random admissible inertia: R diag(a, b, c) R^T with a + b >= c etc. (box-like principal moments).
  const Eigen::Vector3d dims(pos(rng), pos(rng), pos(rng));
  const double mm = link.mass / 12.0;
  const Eigen::Vector3d principal(mm * (dims.y() * dims.y() + dims.z() * dims.z()),
                                  mm * (dims.x() * dims.x() + dims.z() * dims.z()),
                                  mm * (dims.x() * dims.x() + dims.y() * dims.y()));
  const Eigen::Matrix3d R = Eigen::Quaterniond(Eigen::Vector4d::Random().normalized()).toRotationMatrix();
  link.inertia = R * principal.asDiagonal() * R.transpose();
  joint.name = "j" + std::to_string(i);
  joint.type = (rng() % 3 == 0) ? JointType::Prismatic : JointType::Revolute;
  joint.axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
  joint.placement.xyz = Eigen::Vector3d(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng));
  joint.placement.rpy = Eigen::Vector3d(3.0 * u(rng), 1.5 * u(rng), 3.0 * u(rng));
}

// KDL: a fixed segment from the parent's body frame to the joint frame (the parent's distal offset
// then the placement), then a moving segment whose tip frame is the link's body frame.
std::pair<KDL::Segment, KDL::Segment> kdlSegments(int i, const Link& link, const Joint& joint, double parent_length) {
  Eigen::Isometry3d X_parent_joint = Eigen::Isometry3d::Identity();
  X_parent_joint.translation() = Eigen::Vector3d(parent_length, 0, 0);
  X_parent_joint = X_parent_joint * joint.placement.transform();
  const KDL::Vector axis(joint.axis.x(), joint.axis.y(), joint.axis.z());
  const KDL::Joint kj(joint.name, KDL::Vector::Zero(), axis,
                      joint.type == JointType::Revolute ? KDL::Joint::RotAxis : KDL::Joint::TransAxis);
  const Eigen::Matrix3d& I = link.inertia;
  const KDL::RigidBodyInertia kin(link.mass, KDL::Vector(link.com.x(), link.com.y(), link.com.z()),
                                  KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
  return {KDL::Segment("fix" + std::to_string(i), KDL::Joint(KDL::Joint::None), toKdl(X_parent_joint)),
          KDL::Segment(link.name, kj, KDL::Frame::Identity(), kin)};
}

RandomChain makeRandomChain(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  RandomChain rc;
  Model& m = rc.model;
  m.gravity = Eigen::Vector3d(u(rng), u(rng), -9.81 + u(rng));
  double parent_length = 0.0;
  for (int i = 0; i < 6; ++i) {
    Link link;
    Joint joint;
    randomLinkAndJoint(rng, i, link, joint);
    const auto [fixed, moving] = kdlSegments(i, link, joint, parent_length);
    rc.chain.addSegment(fixed);
    rc.chain.addSegment(moving);
    parent_length = link.length;
    m.links.push_back(link);
    m.joints.push_back(joint);
  }
  return rc;
}

// A random tree of 7 links: each joint on a random earlier link or on the world (several children on
// some links, a second root), the same tree in KDL.
struct RandomTree {
  Model model;
  KDL::Tree tree{"world"};
};

RandomTree makeRandomTree(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  RandomTree rt;
  Model& m = rt.model;
  m.gravity = Eigen::Vector3d(u(rng), u(rng), -9.81 + u(rng));
  for (int i = 0; i < 7; ++i) {
    Link link;
    Joint joint;
    randomLinkAndJoint(rng, i, link, joint);
    joint.parent = i == 0 ? Joint::kWorld : static_cast<int>(rng() % static_cast<unsigned>(i + 1)) - 1;  // -1: the world
    const double parent_length = joint.parent < 0 ? 0.0 : m.links[static_cast<std::size_t>(joint.parent)].length;
    const auto [fixed, moving] = kdlSegments(i, link, joint, parent_length);
    EXPECT_TRUE(rt.tree.addSegment(fixed, joint.parent < 0 ? "world" : m.links[static_cast<std::size_t>(joint.parent)].name));
    EXPECT_TRUE(rt.tree.addSegment(moving, fixed.getName()));
    m.links.push_back(link);
    m.joints.push_back(joint);
  }
  return rt;
}

double relErr(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

}  // namespace

TEST(KdlReference, MassMatrixCoriolisGravityAndInverseDynamicsOfRandomChains) {
  std::mt19937 rng(20261121);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int prismatic_total = 0;
  for (int trial = 0; trial < 25; ++trial) {
    RandomChain rc = makeRandomChain(rng);
    const MultibodySystem sys = MultibodySystem::fromModel(rc.model);
    DynamicsData data(sys);
    ASSERT_EQ(rc.chain.getNrOfJoints(), 6u);
    for (const Joint& j : rc.model.joints) prismatic_total += j.type == JointType::Prismatic;
    const KDL::Vector g(rc.model.gravity.x(), rc.model.gravity.y(), rc.model.gravity.z());
    KDL::ChainDynParam dyn(rc.chain, g);
    KDL::ChainIdSolver_RNE id(rc.chain, g);
    for (int state = 0; state < 4; ++state) {
      Eigen::VectorXd q(6), qd(6), qdd(6);
      for (int i = 0; i < 6; ++i) {
        q(i) = 2.0 * u(rng);
        qd(i) = 2.0 * u(rng);
        qdd(i) = 2.0 * u(rng);
      }
      KDL::JntArray kq(6), kqd(6), kqdd(6), kc(6), kg(6), ktau(6);
      kq.data = q;
      kqd.data = qd;
      kqdd.data = qdd;
      KDL::JntSpaceInertiaMatrix kM(6);
      ASSERT_GE(dyn.JntToMass(kq, kM), 0);
      ASSERT_GE(dyn.JntToCoriolis(kq, kqd, kc), 0);
      ASSERT_GE(dyn.JntToGravity(kq, kg), 0);
      KDL::Wrenches no_external(rc.chain.getNrOfSegments(), KDL::Wrench::Zero());
      ASSERT_GE(id.CartToJnt(kq, kqd, kqdd, no_external, ktau), 0);

      const Eigen::MatrixXd M = crba(sys, data, q);
      EXPECT_LT(relErr(M, kM.data), 1e-9) << "trial " << trial << "\nours\n" << M << "\nKDL\n" << kM.data;
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
      const Eigen::VectorXd coriolis = rnea(sys, data, q, qd, zero, false);
      EXPECT_LT(relErr(coriolis, kc.data), 1e-9) << "trial " << trial;
      const Eigen::VectorXd gravity = rnea(sys, data, q, zero, zero, true);
      EXPECT_LT(relErr(gravity, kg.data), 1e-9) << "trial " << trial;
      // The gravity term (on the recursive algorithms' frames) is minus KDL's gravity torques.
      EXPECT_LT(relErr(-flexarm::test::gravityForce(sys, data, q, qd), kg.data), 1e-9) << "trial " << trial;
      const Eigen::VectorXd tau = rnea(sys, data, q, qd, qdd, true);
      EXPECT_LT(relErr(tau, ktau.data), 1e-9) << "trial " << trial;
      // Internal consistency: RNEA = M qdd + C qd + g, and T = 1/2 qd' M qd.
      EXPECT_LT(relErr(tau, M * qdd + coriolis + gravity), 1e-11);
      EXPECT_NEAR(computeEnergies(sys, data, q, qd).kinetic, 0.5 * qd.dot(M * qd), 1e-11 * qd.dot(M * qd));
    }
  }
  EXPECT_GT(prismatic_total, 10);  // the random chains really mix joint types
}

TEST(KdlReference, InverseDynamicsOfRandomTrees) {
  // Random trees of 7 rigid links (links with several children, a second root on the world): the joint
  // efforts of KDL's recursive Newton-Euler on the tree against the recursive rigid algorithms (RNEA,
  // and CRBA's M through M qdd + b) and against the flexible engine's equations of motion
  // (compositeEquations: M and M qdd + b, with gravity), to 1e-9.
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int branching = 0, second_roots = 0;
  for (int trial = 0; trial < 20; ++trial) {
    RandomTree rt = makeRandomTree(rng);
    branching += rt.model.branches();
    for (std::size_t i = 1; i < rt.model.joints.size(); ++i) second_roots += rt.model.joints[i].parent == Joint::kWorld;
    const MultibodySystem sys = MultibodySystem::fromModel(rt.model);
    DynamicsData data(sys), composite(sys);
    ASSERT_EQ(rt.tree.getNrOfJoints(), 7u);
    const KDL::Vector g(rt.model.gravity.x(), rt.model.gravity.y(), rt.model.gravity.z());
    KDL::TreeIdSolver_RNE id(rt.tree, g);
    for (int state = 0; state < 3; ++state) {
      Eigen::VectorXd q(7), qd(7), qdd(7);
      for (int i = 0; i < 7; ++i) {
        q(i) = 2.0 * u(rng);
        qd(i) = 2.0 * u(rng);
        qdd(i) = 2.0 * u(rng);
      }
      KDL::JntArray kq(7), kqd(7), kqdd(7), ktau(7);
      kq.data = q;
      kqd.data = qd;
      kqdd.data = qdd;
      ASSERT_GE(id.CartToJnt(kq, kqd, kqdd, KDL::WrenchMap(), ktau), 0);
      const Eigen::VectorXd tau = rnea(sys, data, q, qd, qdd, true);
      EXPECT_LT(relErr(tau, ktau.data), 1e-9) << "trial " << trial;
      const Eigen::MatrixXd M = crba(sys, data, q);
      const Eigen::VectorXd bias = rnea(sys, data, q, qd, Eigen::VectorXd::Zero(7), true);
      EXPECT_LT(relErr(M * qdd + bias, ktau.data), 1e-9) << "trial " << trial;
      const Eigen::VectorXd composite_tau = flexarm::test::inverseDynamicsWithGravity(sys, composite, q, qd, qdd, true);
      EXPECT_LT(relErr(composite_tau, ktau.data), 1e-9) << "trial " << trial;
      EXPECT_LT(relErr(composite.M, M), 1e-9) << "trial " << trial;
    }
  }
  EXPECT_GT(branching, 10);    // the random trees do branch
  EXPECT_GT(second_roots, 3);  // and stand on the world more than once
}
