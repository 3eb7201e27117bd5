#pragma once
// Where the stiffness K = dR/dq of the linearized equations (LinearizedEquations.hpp) can be non-zero
// about a state of rest, so that a fine mesh's K takes a few dozen difference passes instead of two per
// coordinate (Curtis, Powell and Reid's grouped columns).
//
// At rest (every rate zero) with accelerations that vanish, R(q) = b(q, 0) - Q(q, 0) is the gradient of a
// potential when the forces are conservative: the strain energy, the weight and fixed loads through the
// positions of the mass elements, joint springs and PD gains. K is then its Hessian, symmetric, and its
// entries between two elastic coordinates of a link that share no element are zero:
//  - the strain energy and the stiffness of the drives and joint springs are local;
//  - a point's weight or a fixed force is linear in the point's position, and the position is linear in the
//    coordinates but for the foreshortening s(x) = 1/2 int_0^x (v'^2 + w'^2) of `high` coupling, whose
//    Hessian int_0^x phi_i' phi_j' joins only coordinates of one element;
//  - products of two coordinates' effects come from the rotations, which only the joints and each link's
//    distal coordinates (the last node's, which turn and carry the links outboard) make.
// So the joints, the motors and each link's distal coordinates ("dense") take a column each, and the other
// coordinates are perturbed in groups of columns whose rows off the dense ones do not overlap; their
// entries in the dense rows follow from symmetry. Inertial terms that do not vanish at rest (dM/dq a with
// accelerations a) are dense: the caller takes this path only where M a is negligible.
//
// `geometric` coupling (its axial force is not the gradient of the kinematics' potential), loads that
// turn with the link (follower loads) and fixed torques (not conservative for finite rotations) fall outside
// the argument: no pattern then.
#include <optional>
#include <vector>

#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

struct RestStiffnessPattern {
  // Positions in the free list: the columns taken one by one, the rest in groups.
  std::vector<int> dense;
  std::vector<std::vector<int>> groups;
  // For each free position c not dense: the positions i, not dense, where K(i, c) can be non-zero
  // (those sharing an element with c, c among them); empty for a dense c.
  std::vector<std::vector<int>> rows;
  // Difference passes this pattern takes (two per dense column and per group).
  int passes() const { return 2 * static_cast<int>(dense.size() + groups.size()); }
};

// The pattern of K over `free` (full coordinate indices, as ForwardDynamics::freeCoordinates), or nothing
// when the system's forces fall outside the argument above.
std::optional<RestStiffnessPattern> restStiffnessPattern(const MultibodySystem& sys, const std::vector<int>& free);

}  // namespace flexarm
