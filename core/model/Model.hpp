#pragma once
// The plain description of an arm that the user edits (SI units throughout).
// Nothing here is computed by a run; see dynamics/MultibodySystem for the discretized system.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <optional>
#include <string>
#include <vector>

#include "model/Constraint.hpp"
#include "model/FlexibleLink.hpp"
#include "model/JointDrive.hpp"
#include "model/RigidInertia.hpp"

namespace flexarm {

// Constant transform: translation then fixed-axis roll-pitch-yaw (R = Rz(yaw) Ry(pitch) Rx(roll)), as in URDF.
struct Placement {
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  Eigen::Isometry3d transform() const;
  // The placement of a rigid transform; rpy in (-pi, pi] x [-pi/2, pi/2] x (-pi, pi], yaw 0 where pitch is +-pi/2.
  static Placement fromTransform(const Eigen::Isometry3d& X);
  bool isIdentity() const { return xyz.isZero(0.0) && rpy.isZero(0.0); }
};

enum class JointType { Revolute, Prismatic };
const char* jointTypeName(JointType type);

// Elasticity of a joint (Qian et al. 2013 sec 2.1, Spong's model): a spring k and damper c between the motor
// side (rotor inertia, gear ratio N) and the link side. Torsion = motor angle / N - link angle.
struct JointFlex {
  double stiffness = 0.0;      // k [N m/rad or N/m]
  double damping = 0.0;        // c [N m s/rad or N s/m]
  double rotor_inertia = 0.0;  // J [kg m^2 or kg], about the motor axis
  double gear_ratio = 1.0;     // N: motor angle = N * link angle when the joint is undeformed
  double torsion0 = 0.0;       // initial torsion [rad or m]: the motor starts at N (q0 + torsion0)
  double torsiond0 = 0.0;      // initial torsion rate [rad/s or m/s]: the motor's rate N (qd0 + torsiond0)
};

// The range and ratings a joint is built for (URDF's <limit>): kept with the model and shown to the
// user, not enforced by the dynamics. Each value is optional.
struct JointLimits {
  std::optional<double> lower;     // [rad or m]
  std::optional<double> upper;     // [rad or m]
  std::optional<double> effort;    // largest effort [N m or N]
  std::optional<double> velocity;  // largest rate [rad/s or m/s]
  bool any() const { return lower || upper || effort || velocity; }
};

// Joint i drives link i. Its axis is given in the joint frame, which sits at `placement` in the
// distal frame of its parent link: link i-1 by default (a serial chain), any earlier link (a tree: a link
// may carry several child joints), or the world (kWorld; the default of joint 0).
struct Joint {
  static constexpr int kWorld = -1;
  static constexpr int kPreviousLink = -2;  // `parent` until resolved: link i-1, or the world for i = 0
  std::string name;
  int parent = kPreviousLink;  // index into Model::links (< i), or kWorld; see parentOf()
  JointType type = JointType::Revolute;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // unit vector
  Placement placement;
  double q0 = 0.0;                // initial coordinate [rad or m]
  double qd0 = 0.0;               // initial rate [rad/s or m/s]
  double damping = 0.0;           // viscous damping [N m s/rad or N s/m]
  double mass = 0.0;              // joint (housing) mass [kg], lumped as a point mass at the proximal end of link i
  std::optional<JointFlex> flex;  // flexible joint: the drive acts on the motor side
  JointDrive drive;
  JointLimits limits;
};

// Link i: body frame at its proximal end (the joint i frame after the joint motion),
// x along the undeformed neutral axis, distal frame at (length, 0, 0).
struct Link {
  std::string name;
  double length = 0.0;                                // [m]
  double mass = 0.0;                                  // [kg]
  std::optional<ShapePreset> shape;                   // when set, com and inertia follow from it
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // [m], body frame
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // [kg m^2], about com, body frame axes

  std::optional<FlexibleLink> flex;  // when set, the link is an elastic beam of mass rho A length

  RigidInertia rigidInertia() const;  // rigid links: from the shape when set, else from com/inertia
};

// A rigid point mass with rotational inertia, fixed to a link.
struct Payload {
  // Section: on a flexible link, the payload rides on the section at x = offset.x along the deformed
  // neutral axis, with its centre of mass at (offset.y, offset.z) across the section, turning with it
  // (as a load's point, Load); on a rigid link the same as Body.
  enum class Frame { Body, Distal, Section };
  std::string name;
  int link = 0;               // index into Model::links
  Frame frame = Frame::Body;  // offset is given in the link's body (proximal) or distal frame, or a section
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();   // [m] position of the payload's centre of mass
  double mass = 0.0;                                  // [kg]
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // [kg m^2] about its centre of mass
};

// A point force and torque on a link, scaled in time by `law` (DESIGN.md, Loads). It acts at `point`,
// given in the link's body frame: on a rigid link anywhere; on a flexible link at the section at
// x = point.x (0 <= x <= length), on the deformed neutral axis, with (point.y, point.z) an offset in
// the section that turns with it, so that the load follows the link's deflection and twist.
struct Load {
  // World: fixed directions. Link: the directions of the section at the point (the body frame of a rigid
  // link), turning with it: a follower load.
  enum class Axes { World, Link };
  std::string name;
  int link = 0;                                      // index into Model::links
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // [m], body frame
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   // [N]
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();  // [N m]
  Axes axes = Axes::World;
  TimeFunction law;  // dimensionless scale of force and torque; constant 1 when not given
  Load() { law.value = 1.0; }
};

struct Model {
  Eigen::Vector3d gravity = Eigen::Vector3d(0.0, 0.0, -9.81);  // [m/s^2]
  std::vector<Link> links;
  std::vector<Joint> joints;  // joints.size() == links.size()
  std::vector<Payload> payloads;
  std::vector<Load> loads;
  std::vector<Constraint> constraints;  // enforced by the constrained solvers (ida, newmark)

  int linkIndex(const std::string& name) const;   // -1 when absent
  int jointIndex(const std::string& name) const;  // -1 when absent
  // The link joint i sits on (its parent's distal frame), or Joint::kWorld.
  int parentOf(int i) const;
  // Whether a link carries more than one child joint, or more than one joint sits on the world.
  bool branches() const;
};

}  // namespace flexarm
