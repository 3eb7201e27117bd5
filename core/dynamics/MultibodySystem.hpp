#pragma once
// The discretized system built from a Model: bodies in a serial chain with their joint, rigid
// inertia, optional elastic beam and flexible joint, and the layout of the generalized coordinates.
// Coordinates are ordered link by link: [q_i, motor_i (flexible joints), e_i (flexible links)],
// so everything on link i depends only on the first end_index coordinates.
// The system is immutable during a run; everything a run computes lives in DynamicsData.
#include <memory>
#include <string>
#include <vector>

#include "discretization/Coordinates.hpp"
#include "discretization/FlexibleBody.hpp"
#include "dynamics/LoadPoint.hpp"
#include "dynamics/SectionPoint.hpp"
#include "dynamics/Spatial.hpp"
#include "model/Project.hpp"

namespace flexarm {

struct Body {
  std::string name;  // link name
  std::string joint_name;
  int parent = -1;                   // -1: the world
  Eigen::Isometry3d X_parent_joint;  // joint frame in the parent's body frame, valid for a rigid parent
  Eigen::Isometry3d placement;       // joint frame in the parent's distal frame
  JointType joint_type = JointType::Revolute;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  Vector6d S = Vector6d::Zero();                  // joint motion subspace in the body frame
  Matrix6d inertia = Matrix6d::Zero();            // rigid inertia carried by the body frame (rigid link, joint mass, payloads)
  double mass = 0.0;                              // its mass
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  // its centre of mass, body frame
  Eigen::Isometry3d X_body_distal;                // distal frame in the body frame (undeformed)
  double length = 0.0;
  // Payloads on the distal frame of a flexible link (for a rigid link they are folded into `inertia`).
  Matrix6d distal_inertia = Matrix6d::Zero();
  double distal_mass = 0.0;
  Eigen::Vector3d distal_com = Eigen::Vector3d::Zero();
  // Payloads riding on sections of a flexible link, each on its own (Payload::Frame::Section): the
  // inertia about the section's point on the neutral axis, in the section's axes.
  struct SectionMass {
    SectionPoint section;
    Matrix6d inertia = Matrix6d::Zero();
    double mass = 0.0;
    Eigen::Vector3d com = Eigen::Vector3d::Zero();  // (0, y, z) in the section's axes
  };
  std::vector<SectionMass> section_masses;

  int q_index = 0;                               // joint (link-side) coordinate
  int motor_index = -1;                          // motor coordinate of a flexible joint, else -1
  int e_index = 0;                               // first elastic coordinate
  int e_count = 0;                               // number of elastic coordinates
  int end_index = 0;                             // one past the last coordinate of this body
  std::shared_ptr<const FlexibleBody> flexible;  // null for a rigid link
  JointFlex joint_flex;                          // valid when motor_index >= 0
  JointDrive drive;
  double joint_damping = 0.0;

  bool isFlexible() const { return flexible != nullptr; }
  bool hasFlexibleJoint() const { return motor_index >= 0; }
  // The coordinate the drive acts on (the motor side of a flexible joint).
  int drivenIndex() const { return motor_index >= 0 ? motor_index : q_index; }
  // Motor angle -> link-side angle scale (1/N), 1 for a rigid joint.
  double driveScale() const { return motor_index >= 0 ? 1.0 / joint_flex.gear_ratio : 1.0; }
};

struct MultibodySystem {
  // The model this system discretizes (its constraints, initial state and drives as the user stated
  // them), shared by the copies of the system.
  std::shared_ptr<const Model> model;
  std::vector<Body> bodies;
  std::vector<LoadPoint> loads;  // the model's loads, in its order
  int nq = 0;                    // number of generalized coordinates
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();
  CouplingOrder coupling = CouplingOrder::High;
  // Their names (as the result channels name them: "q.shoulder", "qm.shoulder", "e.beam.3"), kinds and
  // places per link.
  Coordinates coordinates;
  // The coordinates that move frames (all but the motors), ascending: where a frame Jacobian can be
  // non-zero; frame_coordinates_below[p] of them are below p.
  std::vector<int> frame_coordinates, frame_coordinates_below;
  // Those below p: the columns of a Jacobian whose columns from p on are zero.
  ColumnSet jacobianColumns(int p) const {
    return {frame_coordinates.data(), frame_coordinates_below[static_cast<std::size_t>(p)]};
  }
  // The name with what the coordinate is, for people: "e.beam.57 (node 10 w)", "e.beam.2 (bending_y 2)";
  // joint and motor coordinates are their names.
  std::string describeCoordinate(int k) const;
  // Index of the coordinate with that name, or -1.
  int coordinateIndex(const std::string& name) const { return coordinates.index(name); }

  // True when no link or joint is flexible: the recursive rigid algorithms (RNEA, CRBA) apply.
  bool isRigid() const;

  // Builds the system; the model must have passed validation.
  static MultibodySystem fromModel(const Model& model, CouplingOrder coupling = CouplingOrder::High);
  // The same system with the joints' drives of `model` (a model of the same links and joints, whose
  // drives differ: the analyses' held or spinning joints) and the coupling order given; `model` becomes
  // its model. Cheap: the discretized links are shared, not built again.
  MultibodySystem withDrives(const Model& model, CouplingOrder coupling) const;

  // Initial coordinates and rates from the model (q0/qd0, motors at N (q0 + torsion0), e0/ed0).
  void initialState(const Model& model, Eigen::VectorXd& q, Eigen::VectorXd& qd) const;

  // Pose of a joint's motion: rotation about / translation along `axis` by q.
  static Eigen::Isometry3d jointMotion(JointType type, const Eigen::Vector3d& axis, double q);
};

}  // namespace flexarm
