#pragma once
// The equations of motion M(q) qdd + b(q, qd) = Q of the discretized system, mass element by mass
// element (Kane's equations):
//
//   M = sum_k J_k^T I_k J_k,     bias = sum_k J_k^T (I_k a_k + v_k x* I_k v_k)
//
// k runs over the rigid inertia of each body frame, the Gauss stations of each flexible link
// (mass rho A dx at the deformed neutral-axis point, polar inertia rho Ip dx about the twisted
// section axis) and the payloads on each deformed distal frame. a_k is the acceleration with the
// free accelerations set to zero (velocity-product terms + known accelerations; gravity is a force
// term of its own, Gravity.cpp). A point of a flexible link sits at
//   r(x) = [x + u(x) - c s(x), v(x), w(x)],   s(x) = 1/2 int_0^x (v'^2 + w'^2) dxi,
// with c = 1 for `high` coupling, 0 otherwise; the distal frame is r(L) rotated by
// Rz(v'(L)) Ry(-w'(L)) Rx(phi(L)). Everything is exact for the model as stated; no term is dropped.
//
// Body Jacobians are propagated frame by frame; the Gauss stations of a link are gathered in its body
// frame (LinkInertia.hpp: each station's inertia is invariant under its twist about x), so that
//   sum_k J_k^T I_k J_k = J_b^T A J_b + J_b^T B + B^T J_b + C
// with A = sum spatialInertia(dm_k, r_k, Jp_k e_x e_x^T), B = sum [dm r_k x D_k + Jp e_x Psi_phi; dm D_k],
// C = sum dm D_k^T D_k + Jp Psi_phi^T Psi_phi (D_k = dr_k/de), instead of a Jacobian to every station.
// The check is independent of all of this: tests/physics/IndependentEquations.hpp differentiates the
// positions of every mass element along the motion and equals these equations to 1e-10.
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// Computes data.M (when with_mass_matrix), data.tau = bias (Coriolis, centrifugal and the inertial
// effect of qdd_known), the frames of every body (with each link's first moment of mass), and the kinetic
// energy data.kinetic = 1/2 qd^T M qd as sum_k 1/2 v_k^T I_k v_k (+ the rotors'), with or without M.
// No heap allocation.
void compositeEquations(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd_known, bool with_mass_matrix = true);

// What a recorded row needs and no more: the frames of every body (poses, velocities, accelerations
// with qdd, the links' tip deformation, twist and first moment) and the kinetic energy, as
// compositeEquations() gives them, without the forces, the Jacobians or M (data.tau holds only the
// rotors' inertia terms J q.._m, the Jacobians are not those of this state). `geometric` coupling's
// internal forces need the bodies' forces of a full pass. No heap allocation.
void compositeKinematics(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         const Eigen::VectorXd& qdd);

// The right-hand side Q, term by term, and internalForces(): ForceTerms.hpp.

}  // namespace flexarm
