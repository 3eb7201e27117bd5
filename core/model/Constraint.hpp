#pragma once
// Holonomic constraints Phi(q, t) = 0 that a model adds to its joints, enforced with Lagrange
// multipliers by the constrained solvers (IDA, Newmark). Coordinates are named as the result
// channels name them: "q.<joint>", "qm.<joint>" (motor side of a flexible joint), "e.<link>.<k>".
#include <Eigen/Core>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "model/TimeFunction.hpp"

namespace flexarm {

struct Constraint {
  enum class Kind {
    // sum_k c_k q_k = value(t): couples coordinates or drives one along a law.
    Coordinates,
    // A point fixed to a link stays at a world point, along the chosen world axes (rigid links
    // from the base to that link).
    Point,
    // A bilateral support through which a flexible link slides axially (Pan et al. 1990 eqs. (24)-(28)):
    // at the material point D'(t) of the link that is at the support, the transverse displacement
    // is zero (and the slope too, for a sleeve). The link's joint is prismatic along the link's
    // x axis; the support sits at `position` along that axis, measured in the joint frame.
    SlidingSupport,
  };
  std::string name;
  Kind kind = Kind::Coordinates;

  // Coordinates
  std::vector<std::pair<std::string, double>> terms;  // coordinate name, coefficient
  TimeFunction value;                                 // default: constant 0

  // Point and SlidingSupport
  int link = -1;                                    // index into Model::links
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // Point: in the link's body frame [m]
  Eigen::Vector3d world = Eigen::Vector3d::Zero();  // Point: world position [m]
  std::array<bool, 3> axes{{true, true, true}};     // Point: which world components are held
  double position = 0.0;                            // SlidingSupport: along the joint axis [m]
  bool clamp_slope = false;                         // SlidingSupport: also zero slope (a sleeve)
};

const char* constraintKindName(Constraint::Kind kind);

}  // namespace flexarm
