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
    // A point of a link stays at a world point, or at a point of another link, along the chosen axes
    // (of the world, or of the other link): a pin of a loop; the links on the way may be flexible.
    Point,
    // A bilateral support through which a flexible link slides axially (Pan et al. 1990 eqs. (24)-(28)):
    // at the material point D'(t) of the link that is at the support, the transverse displacement
    // is zero (and the slope too, for a sleeve). The link's joint is prismatic along the link's
    // x axis; the support sits at `position` along that axis, measured in the joint frame.
    SlidingSupport,
    // A revolute loop closure: the point of the link and its counterpart (a point of the other link, or
    // the world point) coincide, and the link's `axis` stays on the axis the counterpart had in the
    // initial state: only the turn about it is free.
    Revolute,
    // A prismatic (slider) loop closure: the counterpart stays on the line through the link's point along
    // the link's `axis`, and the relative orientation of the two keeps its value of the initial state.
    Prismatic,
  };
  std::string name;
  Kind kind = Kind::Coordinates;

  // Coordinates
  std::vector<std::pair<std::string, double>> terms;  // coordinate name, coefficient
  TimeFunction value;                                 // default: constant 0

  // Point, Revolute, Prismatic and SlidingSupport. A point of a flexible link is the section at
  // x = point.x (0 <= x <= length) with the offset (point.y, point.z) across it (as a load's point).
  int link = -1;                                    // index into Model::links
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // in the link's body frame [m]
  // The counterpart: a point of `other_link`, or `world` when other_link is -1.
  int other_link = -1;                                    // index into Model::links, or -1: the world
  Eigen::Vector3d other_point = Eigen::Vector3d::Zero();  // in the other link's body frame [m]
  Eigen::Vector3d world = Eigen::Vector3d::Zero();        // world position [m]
  // Point: which components of p - p_other are held, along the world's axes, or the other link's.
  std::array<bool, 3> axes{{true, true, true}};
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // Revolute, Prismatic: in the link's frame at the point
  double position = 0.0;                            // SlidingSupport: along the joint axis [m]
  bool clamp_slope = false;                         // SlidingSupport: also zero slope (a sleeve)
};

const char* constraintKindName(Constraint::Kind kind);

}  // namespace flexarm
