#include "analysis/StaticEquilibrium.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>
#include <Eigen/SparseCore>

#include "analysis/LinearizedEquations.hpp"
#include "base/NumberFormat.hpp"
#include "base/SymmetricSolve.hpp"
#include "dynamics/ForwardDynamics.hpp"
#include "results/ChannelRecorder.hpp"

namespace flexarm {
namespace {

const std::string kNotUnique = "the arm has no unique static equilibrium";

// The coordinates of `sys` scaled by a load factor: gravity and every load times lambda.
class LoadFactor {
 public:
  explicit LoadFactor(MultibodySystem& scaled) : scaled_(scaled), gravity_(scaled.gravity) {
    for (const LoadPoint& lp : scaled.loads) forces_.push_back({lp.force, lp.torque});
  }
  void set(double lambda) {
    scaled_.gravity = lambda * gravity_;
    for (std::size_t k = 0; k < forces_.size(); ++k) {
      scaled_.loads[k].force = lambda * forces_[k].first;
      scaled_.loads[k].torque = lambda * forces_[k].second;
    }
  }

 private:
  MultibodySystem& scaled_;
  Eigen::Vector3d gravity_;
  std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>> forces_;
};

// The static residual R = Q - b of the free coordinates at positions qf (rates zero), and the size of
// the largest force it balances.
class StaticResidual {
 public:
  StaticResidual(ForwardDynamics& fd, double t) : fd_(fd), t_(t) {
    const int nf = static_cast<int>(fd.freeCoordinates().size());
    y_ = Eigen::VectorXd::Zero(2 * nf);
    zero_ = Eigen::VectorXd::Zero(nf);
    r_.resize(nf);
  }
  // R at qf; false when it is not finite.
  bool operator()(const Eigen::VectorXd& qf, Eigen::VectorXd& R) {
    const int nf = static_cast<int>(qf.size());
    y_.head(nf) = qf;
    // At rest with zero free accelerations: M a = 0, so the residual of the equations without M is
    // the force balance (for every coupling order: `geometric`'s axial force is then that of gravity).
    fd_.evaluate(ForwardDynamics::Request::residual(t_, y_.data(), zero_.data(), r_.data()));
    R = -r_;
    // The largest force term on its own: their sum (gravity with the elasticity that holds it) is what
    // the residual leaves, as small as the residual itself at the balance.
    scale_ = fd_.largestForceTerm();
    return R.allFinite();
  }
  double scale() const { return scale_; }

 private:
  ForwardDynamics& fd_;
  double t_;
  Eigen::VectorXd y_, zero_, r_;
  double scale_ = 0.0;
};

// The free coordinates that a null vector of the Jacobian moves most: what nothing holds.
std::string unheldCoordinates(const MultibodySystem& sys, const std::vector<int>& free, const Eigen::MatrixXd& J) {
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  const Eigen::MatrixXd kernel = lu.kernel();
  if (kernel.cols() == 0 || kernel.isZero()) return {};
  const Eigen::VectorXd v = kernel.col(0).cwiseAbs();
  std::string names;
  const double largest = v.maxCoeff();
  int listed = 0;
  for (int k = 0; k < v.size() && listed < 3; ++k)
    if (v(k) >= 0.5 * largest) {
      names += (listed++ ? ", " : "") + sys.coordinates.names[static_cast<std::size_t>(free[static_cast<std::size_t>(k)])];
    }
  return names;
}

}  // namespace

StaticSolution staticEquilibrium(const Project& project, const MultibodySystem& sys_given, const StaticOptions& o) {
  StaticSolution out;
  if (!project.model.constraints.empty()) {
    out.message =
        "static equilibrium of a model with constraints is not available yet (remove the constraints, or run "
        "the model with damping to rest)";
    return out;
  }
  MultibodySystem sys = sys_given;  // gravity and loads scaled by the load factor
  LoadFactor factor(sys);
  ForwardDynamics fd(sys);
  fd.setFrozen(true);
  const std::vector<int>& free = fd.freeCoordinates();
  const int nf = static_cast<int>(free.size());

  Eigen::VectorXd q0, qd0;
  sys.initialState(project.model, q0, qd0);
  Eigen::VectorXd qf(nf), R(nf), R_step(nf), dq(nf), qf_trial(nf);
  for (int k = 0; k < nf; ++k) qf(k) = q0(free[static_cast<std::size_t>(k)]);
  StaticResidual residual(fd, o.t);
  auto cancelled = [&] { return o.cancel && o.cancel->load(); };

  // The Jacobian dR/dq_f by forward differences, column by column.
  Eigen::MatrixXd J(nf, nf);
  auto jacobian = [&](const Eigen::VectorXd& at, const Eigen::VectorXd& R_at) {
    Eigen::VectorXd shifted = at, R_shifted(nf);
    for (int c = 0; c < nf; ++c) {
      if (cancelled()) return false;
      const double h = 1e-7 * std::max(std::abs(at(c)), 1e-2);
      shifted(c) = at(c) + h;
      if (!residual(shifted, R_shifted)) return false;
      J.col(c) = (R_shifted - R_at) / h;
      shifted(c) = at(c);
    }
    return true;
  };

  // From kTangentFrom free coordinates the Newton matrix is first the integrators' tangent stiffness K_t
  // (TangentStiffness.hpp: structural, geometric, springs and PD gains), sparse (banded element blocks
  // and the joints' rows) and built by a pass linear in the mesh (M without its running-integral terms)
  // where the difference quotients take n_f passes and a dense LU: a 200-element link's statics then cost
  // a few passes. K_t leaves out the gravity and load stiffness and the inertial terms, so the iteration
  // contracts linearly; every step is still taken on the exact residual. Where K_t is not positive definite
  // (a joint that nothing holds), or even a fresh one does not contract the residual four times per step
  // (near a buckling load, strong gravity stiffness), the difference-quotient Jacobian takes over for the rest
  // of the solve, with its test of uniqueness.
  constexpr int kTangentFrom = SymmetricSolve::kSparseFrom;
  bool use_tangent = nf >= kTangentFrom, tangent_matrix = false;
  SymmetricSolve tangent_solve;
  Eigen::SparseMatrix<double> K_t, C_t;
  Eigen::VectorXd y_terms = Eigen::VectorXd::Zero(2 * nf);
  auto tangentAt = [&](const Eigen::VectorXd& at) {
    y_terms.head(nf) = at;
    return sparseTangentAt(fd, o.t, y_terms.data(), K_t, C_t) && tangent_solve.compute(K_t) && !tangent_solve.usesLu();
  };

  // Newton from qf on the residual at load factor lambda; true when converged (qf then the solution).
  std::string failure;
  auto newton = [&](double lambda) {
    factor.set(lambda);
    Eigen::VectorXd x = qf;
    if (!residual(x, R)) {
      failure = "the equations are not finite at the start of the step";
      return false;
    }
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    int jacobian_age = -1;  // Newton steps since the Jacobian was computed; -1: none yet
    double previous = std::numeric_limits<double>::infinity();
    // A new Jacobian at x, factorized; false (failure set) when it cannot be had or is singular: then
    // the equilibrium, if any, is not unique, and the coordinates that nothing holds are named.
    // While the tangent serves (above), K_t at x instead.
    auto newJacobian = [&] {
      if (use_tangent) {
        if (tangentAt(x)) {
          tangent_matrix = true;
          jacobian_age = 0;
          return true;
        }
        use_tangent = false;
      }
      tangent_matrix = false;
      ++out.difference_jacobians;
      if (!jacobian(x, R)) {
        failure = cancelled() ? "" : "the equations are not finite near the start of the step";
        return false;
      }
      lu.compute(J);
      if (!(lu.rcond() > 1e-14)) {
        const std::string unheld = unheldCoordinates(sys, free, J);
        failure =
            kNotUnique + (unheld.empty() ? std::string()
                                         : ": nothing holds " + unheld +
                                               " (give its joint a PD drive, a spring or a prescribed motion, or its link a "
                                               "stiffness)");
        return false;
      }
      jacobian_age = 0;
      return true;
    };
    // The step is six digits below the displacement of this load step: the residual is at its round-off
    // (a fine mesh sums element forces far larger than what is left; 200 elements: steps 2e-8 of the
    // displacement) and x is the equilibrium to those digits.
    auto atRoundOff = [&] { return dq.allFinite() && dq.cwiseAbs().maxCoeff() <= 1e-6 * (x - qf).cwiseAbs().maxCoeff(); };
    for (int it = 0; it < o.max_iterations; ++it) {
      const double scale = std::max(residual.scale(), 1e-300);
      if (R.cwiseAbs().maxCoeff() <= o.tolerance * scale) {
        // Balanced; unique only where the Jacobian is regular (a free joint with nothing acting on it
        // is balanced anywhere).
        if (jacobian_age < 0 && !newJacobian()) return false;
        qf = x;
        out.residual = R.cwiseAbs().maxCoeff();
        out.force_scale = scale;
        return true;
      }
      if (cancelled()) return false;
      if (jacobian_age < 0 && !newJacobian()) return false;
      if (tangent_matrix) {  // R = Q - b, so dR/dq = -K_t
        dq = R;
        tangent_solve.solveInPlace(dq);
      } else {
        dq = lu.solve(-R);
      }
      ++out.iterations;
      // A step that does not reduce the residual is halved (up to four times); with an older Jacobian
      // the step is tried again with a new one.
      double alpha = 1.0;
      bool reduced = false;
      for (int half = 0; half < 5 && !reduced; ++half, alpha *= 0.5) {
        qf_trial = x + alpha * dq;
        reduced = residual(qf_trial, R_step) && R_step.norm() < R.norm() * (1.0 - 1e-4 * alpha);
      }
      if (!reduced) {
        if (jacobian_age > 0) {
          jacobian_age = -1;
          continue;
        }
        // A fresh K_t whose step does not reduce the residual: the difference quotients take over,
        // unless the step is already at the residual's round-off (below).
        if (tangent_matrix && !atRoundOff()) {
          use_tangent = false;
          jacobian_age = -1;
          continue;
        }
        // With a fresh Jacobian no step reduces the residual: converged, when at the round-off.
        if (atRoundOff()) {
          qf = x;
          out.residual = R.cwiseAbs().maxCoeff();
          out.force_scale = scale;
          return true;
        }
        failure = "Newton's method does not reduce the force residual (" + formatShort(R.cwiseAbs().maxCoeff(), 3) + ")";
        return false;
      }
      const double size = R_step.norm();
      x = qf_trial;
      R = R_step;
      ++jacobian_age;
      if (size > 0.25 * previous) {  // converging slowly: a new Jacobian next
        // Even a fresh K_t, and the step not yet at the residual's round-off (below): difference quotients.
        if (tangent_matrix && jacobian_age == 1 && !atRoundOff()) use_tangent = false;
        jacobian_age = -1;
      }
      previous = size;
    }
    failure = "no convergence in " + std::to_string(o.max_iterations) + " Newton iterations";
    return false;
  };

  double lambda = nf == 0 ? 1.0 : 0.0, step = 1.0;  // nothing free: the arm is where its drives hold it
  while (lambda < 1.0) {
    if (cancelled()) break;
    const double target = std::min(1.0, lambda + step);
    if (newton(target)) {
      lambda = target;
      ++out.load_steps;
      step = std::min(1.0, 2.0 * step);
      continue;
    }
    if (cancelled()) break;
    step *= 0.5;
    if (step < 1.0 / 1024.0 || failure.rfind(kNotUnique, 0) == 0) {
      out.message =
          "no static equilibrium found at " + formatShort(100.0 * target, 3) + " % of gravity and the loads: " + failure;
      break;
    }
  }
  out.interrupted = cancelled();
  if (out.interrupted) out.message = "interrupted";
  out.converged = lambda >= 1.0 && !out.interrupted;

  // The state reached, its efforts and one row of every channel.
  factor.set(lambda);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nf), ydot(2 * nf);
  y.head(nf) = qf;
  fd.evaluate(ForwardDynamics::Request::accelerations(o.t, y.data(), ydot.data()));
  out.q = fd.q();
  out.effort = fd.effort();
  ChannelRecorder recorder(sys);
  out.results.setChannels(recorder.channels());
  out.results.project_name = project.name;
  out.results.solver_description = "static equilibrium (Newton, " + std::to_string(out.iterations) + " iterations, " +
                                   std::to_string(out.load_steps) + " load steps)";
  recorder.record(o.t, fd, out.results);
  out.results.end_time = o.t;
  out.results.status = out.converged ? RunStatus::Completed : (out.interrupted ? RunStatus::Cancelled : RunStatus::Failed);
  out.results.message = out.message;
  return out;
}

}  // namespace flexarm
