#pragma once
// An independent evaluation of the equations of motion M(q) qdd + b(q, qd) = Q, written for
// obviousness rather than speed, to check the production evaluation (EquationsOfMotion.hpp) against.
//
// It knows only where each piece of mass is: the pose of every body frame from the joints' motions
// and placements, the position and twist of every Gauss station of a flexible link (with the
// foreshortening s(x) = 1/2 int_0^x (v'^2 + w'^2) integrated from its slope points for `high`
// coupling), and the deformed distal frame. Velocities and accelerations are not derived by hand: the
// coordinates are taken along the path q(t) = q + t qd + t^2/2 qdd, and every position and rotation is
// differentiated twice in t by carrying (value, d/dt, d^2/dt^2) through the arithmetic. A pass with
// the path q + t e_k gives the k-th column of every mass element's velocity Jacobian (the point
// Jacobians to every station). Each mass element then contributes, at its centre of mass and in its
// own axes,
//   M   += m J_v^T J_v + J_w^T I_c J_w,
//   tau += J_v^T m (a - g) + J_w^T (I_c wdot + w x I_c w)      (Newton-Euler, projected),
// with w and wdot read from R^T dR/dt and R^T d^2R/dt^2. A flexible joint's rotor adds its inertia on
// the motor coordinate alone, as the model defines it.
//
// Nothing is shared with the production path but the discretized model (MultibodySystem: bodies,
// placements, the shape rows and weights of the stations and slope points, the tip rows).
#include <Eigen/Dense>
#include <vector>

#include "dynamics/MultibodySystem.hpp"

namespace flexarm::test {

// Motions are spatial ([angular; linear], in the frame's own axes), as DynamicsData's BodyFrames holds
// them (gravity is not in the accelerations: it is a force, in tau).
struct IndependentEquations {
  Eigen::MatrixXd M;                                           // nq x nq
  Eigen::VectorXd tau;                                         // M qdd + b(q, qd), gravity included
  double kinetic = 0.0;                                        // 1/2 qd^T M qd, summed over the mass elements
  double gravity_potential = 0.0;                              // - sum m g . r_com
  std::vector<Vector6d> body_velocity, body_acceleration;      // each body frame's
  std::vector<Eigen::Isometry3d> distal;                       // each body's distal frame in the world
  std::vector<Vector6d> distal_velocity, distal_acceleration;  // and its motion
  std::vector<Eigen::MatrixXd> distal_jacobian;                // 6 x nq each
  std::vector<Eigen::Vector3d> inertial_force;                 // sum m a over each body's mass, world axes
};

IndependentEquations independentEquations(const MultibodySystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          const Eigen::VectorXd& qdd);

}  // namespace flexarm::test
