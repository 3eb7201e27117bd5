// URDF import (core/io/UrdfImport) against what is known without it: the shipped spatial 3R arm
// written by hand as URDF runs as the shipped project does, the rigid dynamics of an imported
// industrial arm (and a prismatic-revolute arm) equal Orocos KDL's for a chain built directly from
// urdfdom's model, fixed joints and turned inertial frames included (kdl_parser's conventions), and
// a UR5-like arm, rigid or with a flexible forearm, stands where its URDF's forward kinematics puts it.
#include <gtest/gtest.h>
#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "FlexTestModels.hpp"
#include "analysis/StaticEquilibrium.hpp"
#include "base/Constants.hpp"
#include "base/NumberFormat.hpp"
#include "dynamics/Centreline.hpp"
#include "dynamics/Crba.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/Rnea.hpp"
#include "io/ProjectFile.hpp"
#include "io/UrdfImport.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;

namespace {

std::string urdfFile(const std::string& name) { return std::string(FLEXARM_TEST_DATA_DIR) + "/urdf/" + name; }
// The robot descriptions shipped with the examples (projects/robots/).
std::string robotFile(const std::string& name) { return std::string(FLEXARM_PROJECTS_DIR) + "/robots/" + name; }

Json importFile(const std::string& file, const UrdfImportOptions& options, Diagnostics& diag) {
  const std::optional<UrdfRobot> robot = UrdfRobot::read(file, diag);
  if (!robot) return {};
  return robot->toProject(options, diag).value_or(Json());
}

bool hasWarning(const Diagnostics& diag, const std::string& path, const std::string& part) {
  for (const Diagnostic& d : diag.all())
    if (d.severity == Diagnostic::Severity::Warning && d.path == path && d.message.find(part) != std::string::npos) return true;
  return false;
}

Project interpret(const Json& doc) {
  Diagnostics diag;
  std::optional<Project> p = projectFromJson(doc, {}, diag);
  EXPECT_TRUE(p) << diag.text();
  return p ? *p : Project{};
}

// kdl_parser's toKdl, written out: a segment per URDF joint from root to tip, its joint axis in the
// parent frame, the inertia of the child link in the child frame (the inertial frame turned into it).
KDL::Frame toKdl(const urdf::Pose& p) {
  return KDL::Frame(KDL::Rotation::Quaternion(p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w),
                    KDL::Vector(p.position.x, p.position.y, p.position.z));
}

KDL::RigidBodyInertia toKdl(const urdf::InertialSharedPtr& i) {
  if (!i) return KDL::RigidBodyInertia::Zero();
  const KDL::Frame origin = toKdl(i->origin);
  const KDL::RigidBodyInertia turned =
      origin.M *
      KDL::RigidBodyInertia(0.0, KDL::Vector::Zero(), KDL::RotationalInertia(i->ixx, i->iyy, i->izz, i->ixy, i->ixz, i->iyz));
  return KDL::RigidBodyInertia(i->mass, origin.p, turned.getRotationalInertia());
}

// KDL's segment of URDF joint j (its child link's inertia).
KDL::Segment kdlSegment(const urdf::ModelInterface& m, const urdf::Joint& j) {
  const KDL::Frame F = toKdl(j.parent_to_joint_origin_transform);
  const KDL::Vector axis = F.M * KDL::Vector(j.axis.x, j.axis.y, j.axis.z);
  KDL::Joint kj(j.name, KDL::Joint::None);
  if (j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS)
    kj = KDL::Joint(j.name, F.p, axis, KDL::Joint::RotAxis);
  if (j.type == urdf::Joint::PRISMATIC) kj = KDL::Joint(j.name, F.p, axis, KDL::Joint::TransAxis);
  return KDL::Segment(j.child_link_name, kj, F, toKdl(m.getLink(j.child_link_name)->inertial));
}

KDL::Chain kdlChain(const urdf::ModelInterface& m, const std::string& tip) {
  std::vector<urdf::JointSharedPtr> path;
  for (urdf::LinkConstSharedPtr l = m.getLink(tip); l->parent_joint; l = m.getLink(l->parent_joint->parent_link_name))
    path.push_back(l->parent_joint);
  KDL::Chain chain;
  for (auto it = path.rbegin(); it != path.rend(); ++it) chain.addSegment(kdlSegment(m, **it));
  return chain;
}

double relErr(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

// M(q) and the inverse dynamics with gravity of the imported project against KDL's at random states.
void expectKdlDynamics(const std::string& urdf_text, const Json& doc, const std::string& tip, int states) {
  const urdf::ModelInterfaceSharedPtr m = urdf::parseURDF(urdf_text);
  ASSERT_TRUE(m);
  const KDL::Chain chain = kdlChain(*m, tip);
  const Project p = interpret(doc);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  DynamicsData data(sys);
  const int n = static_cast<int>(chain.getNrOfJoints());
  ASSERT_EQ(sys.nq, n);
  const KDL::Vector g(0.0, 0.0, -9.81);
  KDL::ChainDynParam dyn(chain, g);
  KDL::ChainIdSolver_RNE id(chain, g);
  std::mt19937 rng(18);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int s = 0; s < states; ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) q(i) = 2.0 * u(rng), qd(i) = 2.0 * u(rng), qdd(i) = 3.0 * u(rng);
    KDL::JntArray kq(n), kqd(n), kqdd(n), ktau(n);
    kq.data = q, kqd.data = qd, kqdd.data = qdd;
    KDL::JntSpaceInertiaMatrix kM(n);
    ASSERT_GE(dyn.JntToMass(kq, kM), 0);
    KDL::Wrenches none(chain.getNrOfSegments(), KDL::Wrench::Zero());
    ASSERT_GE(id.CartToJnt(kq, kqd, kqdd, none, ktau), 0);
    const Eigen::MatrixXd M = crba(sys, data, q);
    EXPECT_LT(relErr(M, kM.data), 1e-10) << "state " << s << "\nFlexArm\n" << M << "\nKDL\n" << kM.data;
    const Eigen::VectorXd tau = rnea(sys, data, q, qd, qdd, true);
    EXPECT_LT(relErr(tau, ktau.data), 1e-10)
        << "state " << s << "\nFlexArm " << tau.transpose() << "\nKDL " << ktau.data.transpose();
  }
}

// The UR5-like arm's joints as tests/data/urdf/ur5-like.urdf writes them (origin xyz, rpy; axis),
// and its tool frame (ee_link) in the last link's frame.
struct UrdfJointRow {
  double xyz[3], rpy[3], axis[3];
};
const UrdfJointRow kUr5Joints[] = {{{0, 0, 0.089159}, {0, 0, 0}, {0, 0, 1}},    {{0, 0.13585, 0}, {0, 1.570796325, 0}, {0, 1, 0}},
                                   {{0, -0.1197, 0.425}, {0, 0, 0}, {0, 1, 0}}, {{0, 0, 0.39225}, {0, 1.570796325, 0}, {0, 1, 0}},
                                   {{0, 0.093, 0}, {0, 0, 0}, {0, 0, 1}},       {{0, 0, 0.09465}, {0, 0, 0}, {0, 1, 0}}};
const double kUr5Tool[3] = {0, 0.0823, 0};

// URDF's forward kinematics with plain 4x4 matrices: T_world_link(i) = T_world_link(i-1) * Origin(i) *
// Rotation(axis(i), q(i)), Origin = Trans(xyz) Rz(yaw) Ry(pitch) Rx(roll). Entry i: link i's frame;
// entry 6: the tool frame.
std::vector<Eigen::Matrix4d> urdfForwardKinematics(const Eigen::VectorXd& q) {
  const auto rotX = [](double a) {
    Eigen::Matrix4d R = Eigen::Matrix4d::Identity();
    R(1, 1) = std::cos(a), R(1, 2) = -std::sin(a), R(2, 1) = std::sin(a), R(2, 2) = std::cos(a);
    return R;
  };
  const auto rotY = [](double a) {
    Eigen::Matrix4d R = Eigen::Matrix4d::Identity();
    R(0, 0) = std::cos(a), R(0, 2) = std::sin(a), R(2, 0) = -std::sin(a), R(2, 2) = std::cos(a);
    return R;
  };
  const auto rotZ = [](double a) {
    Eigen::Matrix4d R = Eigen::Matrix4d::Identity();
    R(0, 0) = std::cos(a), R(0, 1) = -std::sin(a), R(1, 0) = std::sin(a), R(1, 1) = std::cos(a);
    return R;
  };
  const auto trans = [](const double* p) {
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T(0, 3) = p[0], T(1, 3) = p[1], T(2, 3) = p[2];
    return T;
  };
  // Rodrigues' formula about a unit axis that is one of the frame's (as all of the UR5's are).
  const auto rotAxis = [&](const double* a, double angle) {
    return a[0] != 0.0 ? rotX(a[0] * angle) : a[1] != 0.0 ? rotY(a[1] * angle) : rotZ(a[2] * angle);
  };
  std::vector<Eigen::Matrix4d> out;
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  for (int i = 0; i < 6; ++i) {
    const UrdfJointRow& j = kUr5Joints[i];
    T = T * trans(j.xyz) * rotZ(j.rpy[2]) * rotY(j.rpy[1]) * rotX(j.rpy[0]) * rotAxis(j.axis, q(i));
    out.push_back(T);
  }
  out.push_back(T * trans(kUr5Tool));
  return out;
}

// The imported arm's joint origins and axes (undeformed: elastic coordinates 0) against URDF's forward
// kinematics at the zero pose and at random poses, to 1e-12; and, unless a beam was given another
// length, each link's end against the next joint's origin (the last one's against the tool frame).
void expectUr5Pose(const Json& doc, bool links_end_at_joints = true) {
  const Project p = interpret(doc);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  ASSERT_EQ(sys.bodies.size(), 6u);
  DynamicsData data(sys);
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int pose = 0; pose < 6; ++pose) {
    Eigen::VectorXd q = Eigen::VectorXd::Zero(6);
    if (pose > 0)
      for (int i = 0; i < 6; ++i) q(i) = u(rng);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(sys.nq);
    for (int i = 0; i < 6; ++i) x(sys.bodies[static_cast<std::size_t>(i)].q_index) = q(i);
    const std::vector<std::vector<Eigen::Vector3d>> lines = deformedCentrelines(sys, data, x, 2);
    const std::vector<Eigen::Matrix4d> T = urdfForwardKinematics(q);
    for (std::size_t i = 0; i < 6; ++i) {
      const Eigen::Vector3d origin = T[i].block<3, 1>(0, 3);
      EXPECT_LT((lines[i].front() - origin).norm(), 1e-12)
          << "pose " << pose << ", joint " << i << ": " << lines[i].front().transpose() << " against the URDF's "
          << origin.transpose();
      const Eigen::Vector3d axis = T[i].block<3, 3>(0, 0) * Eigen::Vector3d(kUr5Joints[i].axis);
      EXPECT_LT((data.frames[i].X_world_body.linear() * sys.bodies[i].axis - axis).norm(), 1e-12)
          << "pose " << pose << ", the axis of joint " << i;
      // Each link ends where the next joint (the last one at the tool frame) is.
      const Eigen::Vector3d next = T[i + 1].block<3, 1>(0, 3);
      if (links_end_at_joints) {
        EXPECT_LT((lines[i].back() - next).norm(), 1e-12)
            << "pose " << pose << ", link " << i << " ends at " << lines[i].back().transpose() << ", the next joint is at "
            << next.transpose();
      }
    }
  }
}

std::string readText(const std::string& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(UrdfImport, SpatialThreeRArmRunsAsTheShippedProject) {
  Diagnostics diag;
  Json doc = importFile(urdfFile("spatial-3r-arm.urdf"), {}, diag);
  ASSERT_FALSE(doc.is_null()) << diag.text();
  EXPECT_TRUE(hasWarning(diag, "link \"column\"", "visual")) << diag.text();
  ASSERT_EQ(doc["links"].size(), 3u);
  // The tool (a fixed joint at the forearm's end) is the tool frame and is merged into the forearm.
  EXPECT_DOUBLE_EQ(doc["links"][2]["length"].get<double>(), 0.7);
  EXPECT_DOUBLE_EQ(doc["links"][2]["mass"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(doc["joints"][0]["limits"]["effort"].get<double>(), 400.0);

  // URDF has no drives or run settings: those of the shipped project are given to the import. The
  // models differ in round-off only (the tool merged into the forearm, against a payload; the
  // placements through a quaternion), and CVODE's BDF picks other orders and steps on such
  // differences (its runs then agree to its tolerance, 1e-7). So both run with the shipped project's
  // settings on solvers whose steps do not jump: fixed-step Newmark and adaptive generalized-alpha.
  const Json shipped = Json::parse(readText(std::string(FLEXARM_PROJECTS_DIR) + "/spatial-3r-arm.flexarm.json"));
  for (std::size_t i = 0; i < 3; ++i) {
    doc["joints"][i]["drive"] = shipped["joints"][i]["drive"];
    if (shipped["joints"][i].contains("q0")) doc["joints"][i]["q0"] = shipped["joints"][i]["q0"];
  }
  for (const Json& solver :
       {Json({{"method", "newmark"}, {"step", 1e-3}}), Json({{"method", "galpha"}, {"rtol", 1e-7}, {"atol", 1e-9}})}) {
    Json reference_doc = shipped;
    reference_doc["simulation"]["solver"] = solver;
    doc["simulation"] = reference_doc["simulation"];
    const Results imported = simulate(interpret(doc));
    const Results reference = simulate(interpret(reference_doc));
    ASSERT_EQ(imported.status, RunStatus::Completed) << solver.dump();
    ASSERT_EQ(reference.status, RunStatus::Completed) << solver.dump();
    ASSERT_EQ(imported.rows(), reference.rows());
    int compared = 0;
    for (const Channel& c : reference.channels()) {
      const std::vector<double> a = reference.column(c.name), b = imported.column(c.name);
      ASSERT_EQ(b.size(), a.size()) << c.name << " is missing from the imported project's run";
      double scale = 1.0;
      for (double v : a) scale = std::max(scale, std::abs(v));
      for (std::size_t r = 0; r < a.size(); ++r)
        ASSERT_NEAR(b[r], a[r], 1e-9 * scale) << solver.dump() << " " << c.name << " at row " << r;
      ++compared;
    }
    EXPECT_GE(compared, 15);  // q, qd, tau of three joints, the end effector, the energies
  }
}

TEST(UrdfImport, IndustrialArmRigidDynamicsEqualKdl) {
  Diagnostics diag;
  const Json doc = importFile(urdfFile("industrial-6dof.urdf"), {}, diag);
  ASSERT_FALSE(doc.is_null()) << diag.text();
  ASSERT_EQ(doc["joints"].size(), 6u);
  // The fixed base frame, the wrist housing, the flange and tool0 are merged; the limits and
  // damping are kept (joint_6 is continuous: no range).
  EXPECT_EQ(doc["links"][2]["name"], "link_3");
  EXPECT_DOUBLE_EQ(doc["links"][2]["mass"].get<double>(), 14.8 + 4.2);
  EXPECT_DOUBLE_EQ(doc["links"][5]["mass"].get<double>(), 0.45 + 0.35);
  EXPECT_DOUBLE_EQ(doc["joints"][1]["limits"]["lower"].get<double>(), -3.316);
  EXPECT_DOUBLE_EQ(doc["joints"][0]["damping"].get<double>(), 5.0);
  EXPECT_FALSE(doc["joints"][5]["limits"].contains("lower"));
  EXPECT_DOUBLE_EQ(doc["joints"][5]["limits"]["velocity"].get<double>(), 8.2);
  EXPECT_TRUE(hasWarning(diag, "link \"link_1\"", "visual")) << diag.text();
  EXPECT_NEAR(doc["links"][5]["length"].get<double>(), 0.022, 1e-15);  // to tool0
  // The project file says the same after a save and a load.
  const Json saved = projectToJson(interpret(doc));
  expectKdlDynamics(readText(urdfFile("industrial-6dof.urdf")), saved, "tool0", 5);
}

TEST(UrdfImport, PrismaticArmWithAFlexibleLinkAndBranches) {
  // A linear axis carrying a revolute arm, a gripper with a finger joint (held at 0 and merged) and
  // a camera bracket beside the chain (fixed, merged).
  const std::string urdf = R"(<robot name="gantry">
    <link name="rail"/>
    <joint name="slide" type="prismatic"><parent link="rail"/><child link="carriage"/>
      <origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.1"/><axis xyz="1 0 0"/>
      <limit lower="0" upper="1.5" effort="800" velocity="1"/><dynamics damping="20"/></joint>
    <link name="carriage"><inertial><origin xyz="0.02 0.01 -0.03" rpy="0.1 0.2 0.3"/><mass value="12"/>
      <inertia ixx="0.1" iyy="0.2" izz="0.25" ixy="0.01" ixz="0" iyz="0.005"/></inertial></link>
    <joint name="bracket" type="fixed"><parent link="carriage"/><child link="camera"/>
      <origin xyz="0 0.15 0.05" rpy="0 0.5 0"/></joint>
    <link name="camera"><inertial><origin xyz="0.03 0 0"/><mass value="0.8"/>
      <inertia ixx="0.001" iyy="0.002" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="swing" type="revolute"><parent link="carriage"/><child link="arm"/>
      <origin xyz="0.05 0 0.1" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="100" velocity="2"/></joint>
    <link name="arm"><inertial><origin xyz="0.3 0 0" rpy="0 0 0.4"/><mass value="3"/>
      <inertia ixx="0.002" iyy="0.09" izz="0.09" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="arm-gripper" type="fixed"><parent link="arm"/><child link="gripper"/><origin xyz="0.6 0 0"/></joint>
    <link name="gripper"><inertial><origin xyz="0.04 0 0"/><mass value="0.9"/>
      <inertia ixx="0.0005" iyy="0.0008" izz="0.0008" ixy="0" ixz="0" iyz="0"/></inertial></link>
    <joint name="finger" type="prismatic"><parent link="gripper"/><child link="finger_link"/>
      <origin xyz="0.08 0.01 0"/><axis xyz="0 1 0"/><limit lower="0" upper="0.02" effort="50" velocity="0.1"/></joint>
    <link name="finger_link"><inertial><mass value="0.1"/>
      <inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial></link>
  </robot>)";
  Diagnostics diag;
  const std::optional<UrdfRobot> robot = UrdfRobot::parse(urdf, diag);
  ASSERT_TRUE(robot) << diag.text();
  EXPECT_EQ(robot->branchingLink(), "");  // the bracket leads to no moving joint: no branch
  UrdfImportOptions tip_arm;
  tip_arm.tip = "gripper";
  const std::optional<Json> rigid = robot->toProject(tip_arm, diag);
  ASSERT_TRUE(rigid) << diag.text();
  EXPECT_TRUE(hasWarning(diag, "joint \"finger\"", "held at 0")) << diag.text();
  EXPECT_EQ((*rigid)["joints"][0]["type"], "prismatic");
  EXPECT_DOUBLE_EQ((*rigid)["links"][0]["mass"].get<double>(), 12.8);
  EXPECT_DOUBLE_EQ((*rigid)["links"][1]["mass"].get<double>(), 4.0);
  // KDL's chain holds the path only: against it, the camera beside the path weighs nothing and the
  // chain goes on to the finger (three joints).
  std::string kdl_urdf = urdf;
  kdl_urdf.replace(kdl_urdf.find("<mass value=\"0.8\"/>"), 19, "<mass value=\"0.0\"/>");
  Diagnostics d2;
  const std::optional<UrdfRobot> no_camera = UrdfRobot::parse(kdl_urdf, d2);
  ASSERT_TRUE(no_camera);
  UrdfImportOptions to_finger;
  to_finger.tip = "finger_link";
  const std::optional<Json> seven = no_camera->toProject(to_finger, d2);
  ASSERT_TRUE(seven) << d2.text();
  expectKdlDynamics(kdl_urdf, *seven, "finger_link", 4);

  // The arm made flexible: a beam of its own length, the gripper a payload at its tip.
  UrdfImportOptions flex = tip_arm;
  Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec("arm=section=tube:0.05:0.04,material=aluminium,basis=fem:4");
  ASSERT_TRUE(spec) << spec.error().text();
  flex.flexible.push_back(*spec);
  Diagnostics d3;
  const std::optional<Json> beam = robot->toProject(flex, d3);
  ASSERT_TRUE(beam) << d3.text();
  EXPECT_TRUE(hasWarning(d3, "link \"arm\"", "replaced by the beam")) << d3.text();
  const Json& arm = (*beam)["links"][1];
  EXPECT_DOUBLE_EQ(arm["length"].get<double>(), 0.6);
  EXPECT_EQ(arm["flex"]["basis"], "fem");
  EXPECT_FALSE(arm.contains("mass"));
  ASSERT_EQ((*beam)["payloads"].size(), 2u);  // the gripper and its finger, beyond the beam's end
  EXPECT_EQ((*beam)["payloads"][0]["name"], "gripper");
  EXPECT_EQ((*beam)["payloads"][0]["frame"], "distal");
  EXPECT_NEAR((*beam)["payloads"][0]["offset"][0].get<double>(), 0.04, 1e-15);
  EXPECT_DOUBLE_EQ((*beam)["payloads"][1]["mass"].get<double>(), 0.1);
}

TEST(UrdfImport, UrArmWithZRunningLinksStandsWhereItsUrdfPutsItRigidOrWithAFlexibleForearm) {
  const std::string file = robotFile("ur5-like.urdf");
  Diagnostics diag;
  const Json rigid = importFile(file, {}, diag);
  ASSERT_FALSE(rigid.is_null()) << diag.text();
  ASSERT_EQ(rigid["links"].size(), 6u);
  EXPECT_NEAR(rigid["links"][1]["length"].get<double>(), std::hypot(0.1197, 0.425), 1e-15);
  EXPECT_NEAR(rigid["links"][2]["length"].get<double>(), 0.39225, 1e-15);
  expectUr5Pose(rigid);
  expectKdlDynamics(readText(file), projectToJson(interpret(rigid)), "ee_link", 4);

  // The forearm made flexible without a length: a beam from the elbow to the wrist, 0.39225 m along
  // the forearm frame's z, with nothing to warn about its length.
  UrdfImportOptions options;
  Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec("forearm_link=section=tube:0.063:0.055,material=aluminium,basis=fem:4");
  ASSERT_TRUE(spec) << spec.error().text();
  options.flexible.push_back(*spec);
  Diagnostics d2;
  const Json flexible = importFile(file, options, d2);
  ASSERT_FALSE(flexible.is_null()) << d2.text();
  EXPECT_TRUE(flexible["links"][2].contains("flex"));
  EXPECT_NEAR(flexible["links"][2]["length"].get<double>(), 0.39225, 1e-15);
  EXPECT_FALSE(hasWarning(d2, "link \"forearm_link\"", "long as given")) << d2.text();
  EXPECT_FALSE(hasWarning(d2, "link \"forearm_link\"", "default length")) << d2.text();
  expectUr5Pose(flexible);
  // A rigid offset where the URDF has one only: the wrist joint sits at the beam's end.
  const Placement wrist = interpret(flexible).model.joints[3].placement;
  EXPECT_LT(wrist.xyz.norm(), 1e-14) << wrist.xyz.transpose();

  // Every joint held, no gravity, 150 N across the forearm's tip (world -z: the beam runs along world x
  // at the zero pose): the static tip deflection is the cantilever's P L^3 / (3 E I) along the real axis.
  Json held = flexible;
  held["gravity"] = Json::array({0.0, 0.0, 0.0});
  for (Json& j : held["joints"]) j["drive"] = {{"type", "prescribed"}, {"law", "constant"}, {"value", 0.0}};
  held["loads"] = Json::array({{{"name", "push"},
                                {"link", "forearm_link"},
                                {"point", Json::array({0.39225, 0.0, 0.0})},
                                {"force", Json::array({0.0, 0.0, -150.0})}}});
  const Project loaded = interpret(held);
  const StaticSolution s = staticEquilibrium(loaded, MultibodySystem::fromModel(loaded.model, loaded.coupling));
  ASSERT_TRUE(s.converged) << s.message;
  const double L = 0.39225, I = flexarm::kPi * (std::pow(0.063, 4) - std::pow(0.055, 4)) / 64, E = 68.9e9;
  auto at = [&s](const std::string& name) { return s.results.value(0, static_cast<std::size_t>(s.results.channelIndex(name))); };
  const double deflection = std::hypot(at("tip.forearm_link.v"), at("tip.forearm_link.w"));
  EXPECT_NEAR(deflection / (150.0 * L * L * L / (3 * E * I)), 1.0, 0.01);
  // ... and the beam's end, where the wrist joint sits, moves along world -z by that much.
  const MultibodySystem sys = MultibodySystem::fromModel(loaded.model, loaded.coupling);
  DynamicsData data(sys);
  const Eigen::Vector3d end_loaded = deformedCentrelines(sys, data, s.q, 2)[2].back();
  Eigen::VectorXd q_rest = s.q;
  q_rest.setZero();
  const Eigen::Vector3d moved = end_loaded - deformedCentrelines(sys, data, q_rest, 2)[2].back();
  EXPECT_NEAR(moved.z(), -deflection, 1e-6 * deflection) << moved.transpose();
  EXPECT_NEAR(std::hypot(moved.x(), moved.y()), 0.0, 0.01 * deflection) << moved.transpose();
}

TEST(UrdfImport, AFlexibleLinkLengthThatDisagreesWithTheUrdfOrHasNothingToFollowIsWarnedWithTheNumbers) {
  const std::string file = robotFile("ur5-like.urdf");
  UrdfImportOptions options;
  options.flexible.push_back(
      *parseFlexibleLinkSpec("forearm_link=length=0.35,section=tube:0.063:0.055,material=aluminium,basis=modes:2"));
  Diagnostics diag;
  const Json doc = importFile(file, options, diag);
  ASSERT_FALSE(doc.is_null()) << diag.text();
  EXPECT_TRUE(hasWarning(diag, "link \"forearm_link\"",
                         "the beam is 0.35 m long as given, but joint \"wrist_1_joint\" is 0.39225 m away along (0, 0, "
                         "0.39225) in the link's frame: the beam runs toward it and ends 0.04225 m short of it"))
      << diag.text();
  EXPECT_DOUBLE_EQ(doc["links"][2]["length"].get<double>(), 0.35);
  expectUr5Pose(doc, false);  // the wrist held where the URDF puts it, by a rigid offset along the beam

  // Without ee_link nothing follows wrist_3_link: a beam along its x axis, of the default length, said.
  std::string text = readText(file);
  const std::size_t from = text.find("<joint name=\"ee_fixed_joint\"");
  const std::size_t to = text.find("<transmission");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos);
  text.erase(from, to - from);
  const std::optional<UrdfRobot> robot = UrdfRobot::parse(text, diag);
  ASSERT_TRUE(robot) << diag.text();
  UrdfImportOptions tip;
  tip.flexible.push_back(*parseFlexibleLinkSpec("wrist_3_link=section=tube:0.063:0.055,material=aluminium"));
  Diagnostics d2;
  const std::optional<Json> tip_doc = robot->toProject(tip, d2);
  ASSERT_TRUE(tip_doc) << d2.text();
  EXPECT_DOUBLE_EQ((*tip_doc)["links"][5]["length"].get<double>(), 0.5);
  EXPECT_TRUE(hasWarning(d2, "link \"wrist_3_link\"",
                         "no joint or tool frame follows this link on the chain, so the beam runs along the link "
                         "frame's x axis with the default length 0.5 m: give its length in the link's spec"))
      << d2.text();
}

namespace {

// The Panda's kinematics as Franka publishes them, Craig's modified DH parameters (a_{i-1}, d_i, alpha_{i-1}),
// independent of the URDF's origin rows: T_i = T_{i-1} RotX(alpha_{i-1}) TransX(a_{i-1}) RotZ(q_i) TransZ(d_i).
// Entries 0-6: the frames of joints 1-7 (each joint's axis is its frame's z); entry 7: the flange.
std::vector<Eigen::Isometry3d> pandaDh(const Eigen::VectorXd& q) {
  const double h = kPi / 2;
  const double a[8] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0}, d[8] = {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107},
               alpha[8] = {0, -h, h, h, -h, h, h, 0};
  std::vector<Eigen::Isometry3d> out;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  for (int i = 0; i < 8; ++i) {
    T = T * Eigen::AngleAxisd(alpha[i], Eigen::Vector3d::UnitX()) * Eigen::Translation3d(a[i], 0, 0) *
        Eigen::AngleAxisd(i < 7 ? q(i) : 0.0, Eigen::Vector3d::UnitZ()) * Eigen::Translation3d(0, 0, d[i]);
    out.push_back(T);
  }
  return out;
}

// The imported Panda's joint origins and axes, and each link's end (undeformed), against pandaDh at the
// zero pose and at random poses.
void expectPandaPose(const Project& p) {
  const MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);
  ASSERT_EQ(sys.bodies.size(), 7u);
  DynamicsData data(sys);
  std::mt19937 rng(44);
  std::uniform_real_distribution<double> u(-2.5, 2.5);
  for (int pose = 0; pose < 5; ++pose) {
    Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
    if (pose > 0)
      for (int i = 0; i < 7; ++i) q(i) = u(rng);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(sys.nq);
    for (int i = 0; i < 7; ++i) x(sys.bodies[static_cast<std::size_t>(i)].q_index) = q(i);
    const std::vector<std::vector<Eigen::Vector3d>> lines = deformedCentrelines(sys, data, x, 2);
    const std::vector<Eigen::Isometry3d> T = pandaDh(q);
    for (std::size_t i = 0; i < 7; ++i) {
      EXPECT_LT((lines[i].front() - T[i].translation()).norm(), 1e-12)
          << "pose " << pose << ", joint " << i + 1 << ": " << lines[i].front().transpose() << " against "
          << T[i].translation().transpose();
      EXPECT_LT((data.frames[i].X_world_body.linear() * sys.bodies[i].axis - T[i].linear().col(2)).norm(), 1e-12)
          << "pose " << pose << ", the axis of joint " << i + 1;
      EXPECT_LT((lines[i].back() - T[i + 1].translation()).norm(), 1e-12)
          << "pose " << pose << ", link " << i + 1 << " ends at " << lines[i].back().transpose() << ", the next frame is at "
          << T[i + 1].translation().transpose();
    }
  }
}

// The Panda with panda_link4, the elbow link offset by 0.0825 m from both its joints' axes, an aluminium
// tube 60/54 mm: a beam from joint 4 to joint 5, 0.39276 m along (-0.0825, 0.384, 0) of the link's frame.
// `stiffer` scales E and G.
Json pandaWithFlexibleForearm(double stiffer, Diagnostics& diag) {
  UrdfImportOptions options;
  const double E = 68.9e9 * stiffer, G = 25.9e9 * stiffer;
  Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec("panda_link4=section=tube:0.06:0.054,material=" + formatNumber(E) + ":" +
                                                        formatNumber(G) + ":2700,basis=fem:4");
  EXPECT_TRUE(spec) << spec.error().text();
  if (spec) options.flexible.push_back(*spec);
  return importFile(robotFile("panda-like.urdf"), options, diag);
}

}  // namespace

TEST(UrdfImport, PandaArmWithOffsetLinksStandsWhereItsDhParametersPutItRigidOrWithAFlexibleElbowLink) {
  Diagnostics diag;
  const Json rigid = importFile(robotFile("panda-like.urdf"), {}, diag);
  ASSERT_FALSE(rigid.is_null()) << diag.text();
  ASSERT_EQ(rigid["links"].size(), 7u);
  expectPandaPose(interpret(rigid));
  expectKdlDynamics(readText(robotFile("panda-like.urdf")), projectToJson(interpret(rigid)), "panda_hand", 4);

  Diagnostics d2;
  const Json flexible = pandaWithFlexibleForearm(1.0, d2);
  ASSERT_FALSE(flexible.is_null()) << d2.text();
  EXPECT_NEAR(flexible["links"][3]["length"].get<double>(), std::hypot(0.0825, 0.384), 1e-15);
  EXPECT_FALSE(hasWarning(d2, "link \"panda_link4\"", "long as given")) << d2.text();
  expectPandaPose(interpret(flexible));  // the beam ends at joint 5, at every pose

  // Every joint held, no gravity, 100 N across the beam's tip along joint 4's axis (perpendicular to the
  // beam, which lies in the link's x-y plane): P L^3 / (3 E I) along that axis.
  Json held = flexible;
  held["gravity"] = Json::array({0.0, 0.0, 0.0});
  for (Json& j : held["joints"]) j["drive"] = {{"type", "prescribed"}, {"law", "constant"}, {"value", 0.0}};
  const Eigen::Vector3d across = pandaDh(Eigen::VectorXd::Zero(7))[3].linear().col(2);
  const double L = std::hypot(0.0825, 0.384);
  held["loads"] = Json::array({{{"name", "push"},
                                {"link", "panda_link4"},
                                {"point", Json::array({L, 0.0, 0.0})},
                                {"force", Json::array({100 * across.x(), 100 * across.y(), 100 * across.z()})}}});
  const Project loaded = interpret(held);
  const MultibodySystem sys = MultibodySystem::fromModel(loaded.model, loaded.coupling);
  const StaticSolution s = staticEquilibrium(loaded, sys);
  ASSERT_TRUE(s.converged) << s.message;
  const double I = kPi * (std::pow(0.06, 4) - std::pow(0.054, 4)) / 64, E = 68.9e9;
  DynamicsData data(sys);
  Eigen::VectorXd q_rest = s.q;
  q_rest.setZero();
  const Eigen::Vector3d moved =
      deformedCentrelines(sys, data, s.q, 2)[3].back() - deformedCentrelines(sys, data, q_rest, 2)[3].back();
  EXPECT_NEAR(moved.dot(across) / (100.0 * L * L * L / (3 * E * I)), 1.0, 0.01) << moved.transpose();
  EXPECT_LT((moved - moved.dot(across) * across).norm(), 0.01 * moved.norm()) << moved.transpose();
}

TEST(UrdfImport, APandaWithAVeryStiffFlexibleLinkMovesAsTheRigidArmWithTheBeamsInertia) {
  // The arm falls from its zero pose under gravity with every joint free, 0.3 s. The flexible link's beam
  // (E and G a thousand times aluminium's) against the rigid import whose panda_link4 carries the beam's
  // own inertia: a uniform tube along the beam, mass rho A L, polar rho Ip L = m (D^2 + d^2) / 8,
  // transverse m L^2 / 12 about its centre (the beam model has no bending rotary inertia).
  Diagnostics diag;
  Json flexible = pandaWithFlexibleForearm(1e3, diag);
  ASSERT_FALSE(flexible.is_null()) << diag.text();
  Json rigid = importFile(robotFile("panda-like.urdf"), {}, diag);
  ASSERT_FALSE(rigid.is_null()) << diag.text();
  const double D = 0.06, d = 0.054, rho = 2700, L = std::hypot(0.0825, 0.384);
  const double m = rho * kPi * (D * D - d * d) / 4 * L;
  // The imported link's body frame has x along the link, toward joint 5 (as the beam's).
  ASSERT_NEAR(rigid["links"][3]["length"].get<double>(), L, 1e-15);
  Json& link4 = rigid["links"][3];
  link4["mass"] = m;
  link4["com"] = Json::array({L / 2, 0.0, 0.0});
  link4["inertia"] = Json::array({m * (D * D + d * d) / 8, m * L * L / 12, m * L * L / 12, 0.0, 0.0, 0.0});
  // Generalized-alpha damps the stiff beam's unresolved modes (BDF would take millions of steps on them).
  flexible["simulation"] = {
      {"t_end", 0.3}, {"output_rate", 100.0}, {"solver", {{"method", "galpha"}, {"rtol", 1e-9}, {"atol", 1e-11}}}};
  rigid["simulation"] = {
      {"t_end", 0.3}, {"output_rate", 100.0}, {"solver", {{"method", "bdf"}, {"rtol", 1e-10}, {"atol", 1e-12}}}};
  const Results a = simulate(interpret(flexible)), b = simulate(interpret(rigid));
  ASSERT_EQ(a.status, RunStatus::Completed) << a.message;
  ASSERT_EQ(b.status, RunStatus::Completed) << b.message;
  ASSERT_EQ(a.rows(), b.rows());
  double excursion = 0.0, worst = 0.0;
  for (const char* c : {"ee.x", "ee.y", "ee.z"}) {
    const std::vector<double> ea = a.column(c), eb = b.column(c);
    for (std::size_t r = 0; r < ea.size(); ++r) {
      excursion = std::max(excursion, std::abs(eb[r] - eb[0]));
      worst = std::max(worst, std::abs(ea[r] - eb[r]));
    }
  }
  EXPECT_GT(excursion, 0.05);
  EXPECT_LT(worst, 1e-6 * excursion) << "largest difference " << worst << " m of an excursion of " << excursion << " m";
}

namespace {

// The whole URDF tree in KDL, depth first in urdfdom's order of each link's children (the import's).
void addKdlChildren(const urdf::ModelInterface& m, const urdf::Link& link, KDL::Tree& tree) {
  for (const urdf::JointSharedPtr& j : link.child_joints) {
    ASSERT_TRUE(tree.addSegment(kdlSegment(m, *j), link.name));
    addKdlChildren(m, *m.getLink(j->child_link_name), tree);
  }
}

}  // namespace

TEST(UrdfImport, ABranchingTreeImportsWholeAndItsDynamicsEqualKdlsTree) {
  // A torso with two arms, the right one ending in a gripper with two prismatic fingers (a branch at the
  // gripper too), a fixed camera on the torso: without a tip the whole tree comes in, each joint on the
  // body of the moving joint above it (the shoulders on the world: the torso is fixed), and its inverse
  // dynamics with gravity equal KDL's on the same tree (TreeIdSolver_RNE), through the recursive rigid
  // algorithms and the flexible engine's equations, to 1e-10. A link that carries two joints cannot be
  // made flexible; a forearm can.
  const std::string in = R"(<inertial><origin xyz="0.15 0.01 -0.02" rpy="0.1 0.2 0.3"/><mass value="2"/>
      <inertia ixx="0.004" iyy="0.02" izz="0.021" ixy="0.001" ixz="0" iyz="0.0005"/></inertial>)";
  const std::string small = R"(<inertial><origin xyz="0.01 0 0"/><mass value="0.2"/>
      <inertia ixx="1e-4" iyy="2e-4" izz="2e-4" ixy="0" ixz="0" iyz="0"/></inertial>)";
  const std::string urdf = R"(<robot name="two_arms">
    <link name="torso">)" + in +
                           R"(</link>
    <joint name="cam_mount" type="fixed"><parent link="torso"/><child link="camera"/><origin xyz="0.1 0 0.5"/></joint>
    <link name="camera">)" +
                           small + R"(</link>
    <joint name="l_shoulder" type="revolute"><parent link="torso"/><child link="l_upper"/>
      <origin xyz="0 0.2 0.4" rpy="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="50" velocity="2"/></joint>
    <link name="l_upper">)" +
                           in + R"(</link>
    <joint name="l_elbow" type="revolute"><parent link="l_upper"/><child link="l_fore"/>
      <origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="50" velocity="2"/></joint>
    <link name="l_fore">)" +
                           in + R"(</link>
    <joint name="l_tool" type="fixed"><parent link="l_fore"/><child link="l_hand"/><origin xyz="0.35 0 0"/></joint>
    <link name="l_hand"/>
    <joint name="r_shoulder" type="continuous"><parent link="torso"/><child link="r_upper"/>
      <origin xyz="0 -0.2 0.4" rpy="-0.3 0 0"/><axis xyz="0 1 0"/></joint>
    <link name="r_upper">)" +
                           in + R"(</link>
    <joint name="r_elbow" type="continuous"><parent link="r_upper"/><child link="r_fore"/>
      <origin xyz="0.3 0.02 0.01" rpy="0 0.4 0"/><axis xyz="0 0 1"/></joint>
    <link name="r_fore">)" +
                           in + R"(</link>
    <joint name="r_wrist" type="fixed"><parent link="r_fore"/><child link="gripper"/><origin xyz="0.3 0 0"/></joint>
    <link name="gripper">)" +
                           small + R"(</link>
    <joint name="finger_a" type="prismatic"><parent link="gripper"/><child link="a"/>
      <origin xyz="0.05 0.01 0"/><axis xyz="0 1 0"/><limit lower="0" upper="0.03" effort="20" velocity="0.1"/></joint>
    <link name="a">)" + small +
                           R"(</link>
    <joint name="finger_b" type="prismatic"><parent link="gripper"/><child link="b"/>
      <origin xyz="0.05 -0.01 0"/><axis xyz="0 -1 0"/><limit lower="0" upper="0.03" effort="20" velocity="0.1"/></joint>
    <link name="b">)" + small +
                           R"(</link>
  </robot>)";
  Diagnostics diag;
  const std::optional<UrdfRobot> robot = UrdfRobot::parse(urdf, diag);
  ASSERT_TRUE(robot) << diag.text();
  EXPECT_EQ(robot->branchingLink(), "torso");
  const std::optional<Json> doc = robot->toProject(UrdfImportOptions{}, diag);
  ASSERT_TRUE(doc) << diag.text();
  const Json& joints = (*doc)["joints"];
  ASSERT_EQ(joints.size(), 6u);
  std::vector<std::string> parents;
  for (const Json& j : joints) parents.push_back(j.contains("parent") ? j["parent"].get<std::string>() : "(previous)");
  EXPECT_EQ(parents, (std::vector<std::string>{"(previous)", "(previous)", "world", "(previous)", "(previous)", "r_fore"}))
      << doc->dump(1);
  const Project p = interpret(*doc);
  EXPECT_TRUE(p.model.branches());

  const urdf::ModelInterfaceSharedPtr m = urdf::parseURDF(urdf);
  ASSERT_TRUE(m);
  KDL::Tree tree(m->getRoot()->name);
  addKdlChildren(*m, *m->getRoot(), tree);
  ASSERT_EQ(tree.getNrOfJoints(), 6u);
  const KDL::Vector g(0.0, 0.0, -9.81);
  KDL::TreeIdSolver_RNE id(tree, g);
  const MultibodySystem sys = MultibodySystem::fromModel(p.model);
  DynamicsData data(sys), composite(sys);
  std::mt19937 rng(44);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int s = 0; s < 4; ++s) {
    Eigen::VectorXd q(6), qd(6), qdd(6);
    for (int i = 0; i < 6; ++i) q(i) = 2.0 * u(rng), qd(i) = 2.0 * u(rng), qdd(i) = 3.0 * u(rng);
    KDL::JntArray kq(6), kqd(6), kqdd(6), ktau(6);
    kq.data = q, kqd.data = qd, kqdd.data = qdd;
    ASSERT_GE(id.CartToJnt(kq, kqd, kqdd, KDL::WrenchMap(), ktau), 0);
    const Eigen::VectorXd tau = rnea(sys, data, q, qd, qdd, true);
    EXPECT_LT(relErr(tau, ktau.data), 1e-10)
        << "state " << s << "\nFlexArm " << tau.transpose() << "\nKDL " << ktau.data.transpose();
    const Eigen::VectorXd composite_tau = flexarm::test::inverseDynamicsWithGravity(sys, composite, q, qd, qdd, false);
    EXPECT_LT(relErr(composite_tau, ktau.data), 1e-10) << "state " << s;
  }

  // Flexible: the right forearm carries the gripper's two fingers (refused); the left one a beam to its hand.
  for (const auto& [link, refused] : std::vector<std::pair<std::string, bool>>{{"r_fore", true}, {"l_fore", false}}) {
    UrdfImportOptions flex;
    Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec(link + "=section=tube:0.04:0.034,material=aluminium,basis=fem:3");
    ASSERT_TRUE(spec) << spec.error().text();
    flex.flexible.push_back(*spec);
    Diagnostics d;
    const std::optional<Json> beam = robot->toProject(flex, d);
    EXPECT_EQ(!beam, refused) << link << ": " << d.text();
    if (refused) EXPECT_NE(d.text().find("carries 2 joints (finger_a, finger_b)"), std::string::npos) << d.text();
    if (!refused && beam) EXPECT_DOUBLE_EQ((*beam)["links"][1]["length"].get<double>(), 0.35);
  }
}
