#pragma once
// External loads (model/Model.hpp, Load): point forces and torques on the links, and their
// generalized forces
//   Q = J_v^T F + J_w^T T
// with J_v the Jacobian of the loaded point's velocity and J_w that of the angular velocity of the
// section it sits on. On a flexible link the point follows the deformation: at the section x it is
//   p = r(x) + R_s(x) o,   r(x) = [x + u(x) - c s(x), v(x), w(x)],   R_s = Rz(v'(x)) Ry(-w'(x)) Rx(phi(x)),
// in the body frame, with o = (0, y, z) the offset across the section, s(x) the foreshortening
// 1/2 int_0^x (v'^2 + w'^2) and c = 1 for `high` coupling (EquationsOfMotion.hpp: the same point
// and the same section rotation as the distal frame's at x = L).
// The loads' stiffness (dQ/dq) is not part of the integrators' tangent (TangentStiffness.hpp), as the
// gravity torques are not: the Newton iterations converge on the exact residual.
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// Where a load acts and what it applies, in world coordinates (for drawing): its force and torque as
// given, turned into the world's axes, and the scale its law has at the time asked.
struct LoadState {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // [m]
  Eigen::Vector3d force = Eigen::Vector3d::Zero();     // [N], unscaled
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();    // [N m], unscaled
  double scale = 1.0;                                  // the law's value: scale * force is applied
};

// Which frames of `data` hold the bodies' poses: the rigid recursive kinematics' (forwardKinematics,
// rnea: data.X_world_body, data.X_up), or an evaluation of the flexible equations with its forces
// (compositeEquations: data.frames[i].X_world_body and J_body).
enum class LoadFrames { Recursive, Equations };

// Q = the generalized forces of every load of `sys` at time t (Q sized nq, overwritten). Needs the
// frames `from` at coordinates q. No heap allocation.
void externalForces(const MultibodySystem& sys, const DynamicsData& data, LoadFrames from, double t, const Eigen::VectorXd& q,
                    Eigen::VectorXd& Q);

// Load k of `sys` at time t, from frames `from` at coordinates q.
LoadState loadState(const MultibodySystem& sys, const DynamicsData& data, LoadFrames from, int k, double t,
                    const Eigen::VectorXd& q);

}  // namespace flexarm
