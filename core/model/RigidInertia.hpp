#pragma once
// Mass properties of a rigid body and the shape presets that compute them.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>
#include <string>

#include "base/Result.hpp"

namespace flexarm {

// Mass, centre of mass and rotational inertia about the centre of mass, all in the body frame (SI).
struct RigidInertia {
  double mass = 0.0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia_com = Eigen::Matrix3d::Zero();
};

// A solid that spans the link from x = 0 to x = length along the body x axis.
struct ShapePreset {
  enum class Kind { Rod, Box, Cylinder, Tube };
  Kind kind = Kind::Rod;
  double width = 0.0;         // Box: extent along y
  double height = 0.0;        // Box: extent along z
  double radius = 0.0;        // Cylinder, Tube: outer radius
  double inner_radius = 0.0;  // Tube
};

const char* shapeName(ShapePreset::Kind kind);

// The same body in another frame: X maps body coordinates to that frame's (the centre of mass moves,
// the inertia turns to R I R^T).
RigidInertia transformInertia(const Eigen::Isometry3d& X, const RigidInertia& body);

// Bodies joined rigidly, all given in one frame, as one body: the total mass, the common centre of
// mass and the inertia about it (parallel-axis theorem). One body comes back as it is.
RigidInertia combineInertias(const std::vector<RigidInertia>& bodies);

// Homogeneous solid of the given mass and shape along x in [0, length].
RigidInertia inertiaFromShape(const ShapePreset& shape, double mass, double length);

// Inertia matrix from the six independent components (Ixx, Iyy, Izz, Ixy, Ixz, Iyz).
Eigen::Matrix3d inertiaFromComponents(double ixx, double iyy, double izz, double ixy, double ixz, double iyz);

// Fine when physically admissible (symmetric, positive semi-definite, triangle inequalities),
// otherwise the reason.
Status checkInertia(const Eigen::Matrix3d& inertia);

}  // namespace flexarm
