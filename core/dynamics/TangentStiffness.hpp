#pragma once
// The tangent stiffness K_t = dF/dq and damping C_t = dF/dqd of the residual F = M(q) qdd + b(q, qd) - Q
// that the implicit integrators need for their iteration matrix M + gamma h C_t + beta h^2 K_t:
//   - the structural stiffness K and damping C of every flexible link;
//   - the geometric stiffness of the axial force of the rigid motion (GeometricStiffness.hpp), for
//     `geometric` coupling (where it is exact) and `high` coupling (where it is the leading part of
//     the foreshortening terms' derivative: the dynamic stiffening of a spinning link);
//   - the springs and dampers of flexible joints and the joints' viscous damping;
//   - the gains of PD drives.
// The derivatives of the inertial terms (M(q) qdd, Coriolis and centrifugal forces of the rigid
// motion, gravity torques) are left out: they are small against M / (beta h^2) at the steps these
// integrators take, and the Newton iteration that uses K_t converges on the exact residual anyway.
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

// K and C are symmetric, and the solvers factorize their iteration matrix by Cholesky
// (base/SymmetricSolve.hpp): a term added here must keep them so.
// Fills K and C (nq x nq). Needs the frames of an evaluation of the equations at the same state
// (ReferenceEquations.hpp). No heap allocation when K and C already have the size.
void tangentStiffness(const MultibodySystem& sys, const DynamicsData& data, Eigen::MatrixXd& K, Eigen::MatrixXd& C);

}  // namespace flexarm
