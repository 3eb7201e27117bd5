#pragma once
// The discretized system built from a Model: bodies in a kinematic tree with their joint,
// spatial inertia and frames, and the layout of the generalized coordinates.
// It is immutable during a run; everything a run computes lives in DynamicsData.
#include <string>
#include <vector>

#include "dynamics/Spatial.hpp"
#include "model/Model.hpp"

namespace flexarm {

struct Body {
  std::string name;
  int parent = -1;                        // -1: the world
  Eigen::Isometry3d X_parent_joint;       // joint frame in the parent's body frame (parent distal offset * placement)
  JointType joint_type = JointType::Revolute;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  Vector6d S = Vector6d::Zero();          // joint motion subspace in the body frame
  Matrix6d inertia = Matrix6d::Zero();    // spatial inertia about the body origin (link + payloads)
  double mass = 0.0;                      // total mass (link + payloads)
  Eigen::Vector3d com = Eigen::Vector3d::Zero();  // total centre of mass, body frame
  Eigen::Isometry3d X_body_distal;        // distal frame in the body frame
  int q_index = 0;                        // index of the joint coordinate
};

struct MultibodySystem {
  std::vector<Body> bodies;
  int nq = 0;  // number of generalized coordinates
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();
  std::vector<JointDrive> drives;      // per coordinate
  std::vector<double> joint_damping;   // per coordinate
  std::vector<std::string> coordinate_names;
  std::vector<JointType> coordinate_types;

  // Builds the system; the model must have passed validation.
  static MultibodySystem fromModel(const Model& model);

  // Pose of a joint's motion: rotation about / translation along `axis` by q.
  static Eigen::Isometry3d jointMotion(JointType type, const Eigen::Vector3d& axis, double q);
};

}  // namespace flexarm
