#pragma once
// Static equilibrium: the configuration at which the arm, held still at time t, balances gravity, the
// loads (Model::loads), the drives (PD set-points and effort laws at t; prescribed joints held at their
// laws' values) and its elastic and joint springs:
//   R(q) = Q(t, q, 0) - b(q, 0, 0) = 0   over the free coordinates,
// with b the gravity terms of the equations of motion (ForwardDynamics frozen at t). Newton's method on
// a difference-quotient Jacobian of R (it holds the gravity and load stiffness that the integrators'
// tangent leaves out; from SymmetricSolve::kSparseFrom free coordinates the sparse tangent stiffness
// first, while it contracts: StaticEquilibrium.cpp), with load stepping: gravity and the loads are
// applied in fractions that halve after a failed step and grow after a converged one.
#include <atomic>
#include <string>

#include "dynamics/MultibodySystem.hpp"
#include "results/Results.hpp"

namespace flexarm {

struct StaticOptions {
  double t = 0.0;                             // [s] the time at which the laws are taken
  double tolerance = 1e-10;                   // the residual force, as a fraction of the largest force balanced
  int max_iterations = 40;                    // Newton iterations per load step
  const std::atomic<bool>* cancel = nullptr;  // polled between evaluations: stops with "interrupted"
};

struct StaticSolution {
  bool converged = false;
  bool interrupted = false;
  std::string message;       // why it did not converge (empty when it did)
  Eigen::VectorXd q;         // every coordinate at the equilibrium (or the last load step's)
  Eigen::VectorXd effort;    // per joint: the drive's effort, for a prescribed joint the effort holding it
  int iterations = 0;        // Newton iterations, all load steps
  int load_steps = 0;        // converged load steps
  double residual = 0.0;     // |R|_inf at the end [N, N m]
  double force_scale = 0.0;  // the largest force balanced [N, N m]
  // Difference-quotient Jacobians computed (n_f passes and a dense LU each); none where the tangent
  // stiffness served throughout (a finely meshed link).
  int difference_jacobians = 0;
  Results results;  // one row at time t: every channel of a run (ChannelRecorder)
};

// The system must have been built from project.model with project.coupling. Models with
// constraints are refused (message).
StaticSolution staticEquilibrium(const Project& project, const MultibodySystem& sys, const StaticOptions& options = {});

}  // namespace flexarm
