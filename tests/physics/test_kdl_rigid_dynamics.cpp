// M(q), Coriolis/centrifugal and gravity terms against Orocos KDL (ChainDynParam, ChainIdSolver_RNE),
// an independent rigid-body dynamics code, for random 6-DOF chains mixing revolute and prismatic joints.
#include <gtest/gtest.h>
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>

#include <random>

#include "dynamics/Crba.hpp"
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

RandomChain makeRandomChain(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.2, 1.5);
  RandomChain rc;
  Model& m = rc.model;
  m.gravity = Eigen::Vector3d(u(rng), u(rng), -9.81 + u(rng));
  double parent_length = 0.0;
  for (int i = 0; i < 6; ++i) {
    Link link;
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
    Joint joint;
    joint.name = "j" + std::to_string(i);
    joint.type = (rng() % 3 == 0) ? JointType::Prismatic : JointType::Revolute;
    joint.axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    joint.placement.xyz = Eigen::Vector3d(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng));
    joint.placement.rpy = Eigen::Vector3d(3.0 * u(rng), 1.5 * u(rng), 3.0 * u(rng));

    // KDL: a fixed segment from the parent's body frame to the joint frame (parent's distal offset
    // then the placement), then a moving segment whose tip frame is our link body frame.
    Eigen::Isometry3d X_parent_joint = Eigen::Isometry3d::Identity();
    X_parent_joint.translation() = Eigen::Vector3d(parent_length, 0, 0);
    X_parent_joint = X_parent_joint * joint.placement.transform();
    rc.chain.addSegment(KDL::Segment("fix" + std::to_string(i), KDL::Joint(KDL::Joint::None), toKdl(X_parent_joint)));
    const KDL::Vector axis(joint.axis.x(), joint.axis.y(), joint.axis.z());
    const KDL::Joint kj(joint.name, KDL::Vector::Zero(), axis,
                        joint.type == JointType::Revolute ? KDL::Joint::RotAxis : KDL::Joint::TransAxis);
    const Eigen::Matrix3d& I = link.inertia;
    const KDL::RigidBodyInertia kin(link.mass, KDL::Vector(link.com.x(), link.com.y(), link.com.z()),
                                    KDL::RotationalInertia(I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)));
    rc.chain.addSegment(KDL::Segment(link.name, kj, KDL::Frame::Identity(), kin));
    parent_length = link.length;
    m.links.push_back(link);
    m.joints.push_back(joint);
  }
  return rc;
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
      const Eigen::VectorXd tau = rnea(sys, data, q, qd, qdd, true);
      EXPECT_LT(relErr(tau, ktau.data), 1e-9) << "trial " << trial;
      // Internal consistency: RNEA = M qdd + C qd + g, and T = 1/2 qd' M qd.
      EXPECT_LT(relErr(tau, M * qdd + coriolis + gravity), 1e-11);
      EXPECT_NEAR(computeEnergies(sys, data, q, qd).kinetic, 0.5 * qd.dot(M * qd), 1e-11 * qd.dot(M * qd));
    }
  }
  EXPECT_GT(prismatic_total, 10);  // the random chains really mix joint types
}
