#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "analysis/LinearizedEquations.hpp"
#include "analysis/StateEigenvalues.hpp"
#include "base/SymmetricSolve.hpp"
#include "dynamics/Constraints.hpp"
#include "dynamics/ForwardDynamics.hpp"

namespace flexarm {

Project operatingPointProject(const Project& original, const LinearizationOptions& options) {
  Project project = original;
  Model& model = project.model;
  for (std::size_t i = 0; i < model.joints.size(); ++i) {
    JointDrive& d = model.joints[i].drive;
    const bool spin = i == 0 && options.spin_rate.has_value();
    if (!options.lock_joints && !spin && d.kind != JointDrive::Kind::Prescribed) continue;
    d.kind = JointDrive::Kind::Prescribed;
    d.law = TimeFunction{};
    d.law.law = TimeFunction::Law::Polynomial;
    // Held still at q0, or turning at the spin rate (a prescribed joint's current motion is frozen at t = 0).
    const double rate = spin ? *options.spin_rate : 0.0;
    const TimeSample now = original.model.joints[i].drive.kind == JointDrive::Kind::Prescribed && !spin && !options.lock_joints
                               ? original.model.joints[i].drive.law.evaluate(options.time)
                               : TimeSample{model.joints[i].q0, rate, 0.0};
    d.law.coefficients = {now.value, now.rate};
  }
  return project;
}

namespace {

LinearizationResult failed(LinearizationResult out, const std::string& message, bool cancelled = false) {
  out.message = message;
  out.cancelled = cancelled;
  return out;
}

// What constraints add to a linearization about a state of rest: the accelerations of the constrained
// motion (M a + G^T lambda = Q - b with G a = h, from the free accelerations a_free = M^-1 (Q - b)), the
// constraint forces' stiffness d(G^T lambda)/dq over the free coordinates, and N, an orthonormal basis of
// the motions the constraints allow (the null space of G, the rows over the free coordinates).
struct ConstrainedMotion {
  Eigen::VectorXd accelerations;
  Eigen::MatrixXd K_lambda, N;
};

Result<ConstrainedMotion> constrainedMotion(const ConstraintSet& constraints, const ConstraintRows& rows,
                                            const Eigen::MatrixXd& G, const ForwardDynamics& fd, const Eigen::VectorXd& a_free) {
  const std::vector<int>& free = fd.freeCoordinates();
  const int nf = static_cast<int>(free.size());
  ConstrainedMotion c;
  const Eigen::LLT<Eigen::MatrixXd> mass(fd.massMatrix());
  if (mass.info() != Eigen::Success)
    return error("the mass matrix of the free coordinates is not positive definite at the equilibrium");
  const Eigen::MatrixXd MinvGt = mass.solve(G.transpose());
  const Eigen::VectorXd lambda = (G * MinvGt).completeOrthogonalDecomposition().solve(G * a_free - rows.h);
  c.accelerations = a_free - MinvGt * lambda;
  const int nq = static_cast<int>(fd.q().size());
  Eigen::MatrixXd K_full = Eigen::MatrixXd::Zero(nq, nq);
  constraints.addForceDerivative(fd.q(), lambda, 1.0, K_full);
  c.K_lambda.resize(nf, nf);
  for (int i = 0; i < nf; ++i)
    for (int j = 0; j < nf; ++j) c.K_lambda(i, j) = K_full(free[i], free[j]);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(G.transpose());
  qr.setThreshold(1e-10);
  const Eigen::MatrixXd Q = qr.householderQ();
  c.N = Q.rightCols(nf - qr.rank());
  if (c.N.cols() == 0) return error("the constraints hold every free coordinate: nothing can vibrate");
  return c;
}

}  // namespace

LinearizationResult linearize(const Project& project, const LinearizationOptions& options) {
  return linearize(project, MultibodySystem::fromModel(project.model, project.coupling), options);
}

LinearizationResult linearize(const Project& original, const MultibodySystem& system, const LinearizationOptions& options) {
  LinearizationResult out;
  const Project project = operatingPointProject(original, options);
  const Model& model = project.model;
  const MultibodySystem sys = system.withDrives(model, project.coupling);
  ForwardDynamics fd(sys);
  const std::vector<int>& free = fd.freeCoordinates();
  const int nf = static_cast<int>(free.size());
  out.free_coordinates = free;
  for (int k : free) {
    out.coordinate_names.push_back(sys.coordinates.names[k]);
    out.coordinate_descriptions.push_back(sys.describeCoordinate(k));
  }
  if (nf == 0) return failed(out, "every coordinate is prescribed: nothing can vibrate");
  // `geometric` coupling takes M(q) a from the zero-coupling equations (LinearizedEquations.hpp).
  std::optional<MultibodySystem> zero_sys;
  std::optional<ForwardDynamics> zero_fd;
  if (project.coupling == CouplingOrder::Geometric) {
    zero_sys.emplace(system.withDrives(model, CouplingOrder::Zero));
    zero_fd.emplace(*zero_sys);
  }
  LinearizedEquations equations(fd, zero_fd ? &*zero_fd : nullptr);
  const auto stopped = [&] {
    return failed(out, equations.cancelled() ? "cancelled" : equations.error(), equations.cancelled());
  };
  Eigen::VectorXd q0, qd0;
  sys.initialState(model, q0, qd0);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nf), ydot(2 * nf);
  fd.initialState(q0, qd0, y.data());
  y.tail(nf).setZero();  // linearize about a state of rest in the moving frame

  // The model's constraints (loops, supports, coordinate relations): their rows over the free
  // coordinates, G = dPhi/dq_f, at the state y.
  std::optional<ConstraintSet> constraints;
  ConstraintRows rows;
  Eigen::MatrixXd G;
  if (!model.constraints.empty()) {
    constraints.emplace();
    if (Status built = constraints->build(sys, model, false); !built) return failed(out, built.error().text());
  }
  const int m = constraints ? constraints->size() : 0;
  auto constraintRows = [&]() -> bool {  // at fd's last state
    constraints->evaluate(0.0, fd.q(), fd.qd(), rows);
    G.resize(m, nf);
    for (int k = 0; k < nf; ++k) G.col(k) = rows.Phi_q.col(free[k]);
    return rows.error.empty() && rows.phi.allFinite() && G.allFinite();
  };

  // Equilibrium of the elastic and motor coordinates: Newton on R(q) = b - Q (free accelerations zero),
  // starting with the integrators' analytic tangent stiffness, which leaves out the inertial and gravity
  // terms; while a Jacobian's steps shrink by half or more it is kept, else one by difference quotients
  // (LinearizedEquations) takes its place.
  std::vector<int> eq;  // positions in the free list
  for (int k = 0; k < nf; ++k)
    if (sys.coordinates.kinds[free[k]] != CoordinateKind::Joint) eq.push_back(k);
  const int ne = static_cast<int>(eq.size());
  const Eigen::VectorXd at_rest = Eigen::VectorXd::Zero(nf);
  // With constraints, the configuration is first brought onto them by the least change of the free
  // coordinates, the joints' first (jointsFirstCorrection); the rows that hold elastic or motor coordinates then join the
  // equilibrium's Newton iteration with their multipliers (the joints stay where they are).
  if (constraints) {
    std::vector<bool> joint_columns(static_cast<std::size_t>(nf));
    for (int k = 0; k < nf; ++k)
      joint_columns[static_cast<std::size_t>(k)] = sys.coordinates.kinds[free[k]] != CoordinateKind::Elastic;
    const double scale = std::max(1.0, y.head(nf).cwiseAbs().maxCoeff());
    for (int it = 0;; ++it) {
      Eigen::VectorXd R0;
      if (!equations.residual(0.0, y, at_rest, R0) || !constraintRows())
        return failed(out, "the constraints cannot be evaluated at the configuration: " +
                               (rows.error.empty() ? (fd.error().empty() ? equations.error() : fd.error()) : rows.error));
      if (rows.phi.size() == 0 || rows.phi.cwiseAbs().maxCoeff() <= 1e-12 * scale) break;
      if (it == 20)
        return failed(out, "the configuration cannot be brought onto the constraints (q0 and the constraints disagree)");
      y.head(nf) -= jointsFirstCorrection(G, rows.phi, joint_columns);
    }
  }
  std::vector<int> held;  // the constraint rows on elastic or motor coordinates
  for (int i = 0; i < m; ++i) {
    double size = 0.0;
    for (int j : eq) size = std::max(size, std::abs(G(i, j)));
    if (size > 1e-12 * std::max(1.0, G.row(i).cwiseAbs().maxCoeff())) held.push_back(i);
  }
  const int mh = static_cast<int>(held.size());
  Eigen::VectorXd R, r(ne + mh), lambda_held = Eigen::VectorXd::Zero(mh);
  auto residual = [&]() -> bool {
    if (!equations.residual(0.0, y, at_rest, R)) return false;
    for (int j = 0; j < ne; ++j) r(j) = R(eq[j]);
    if (mh == 0) return true;
    if (!constraintRows()) return false;
    for (int i = 0; i < mh; ++i) {
      r(ne + i) = rows.phi(held[i]);
      for (int j = 0; j < ne; ++j) r(j) += G(held[i], eq[j]) * lambda_held(i);
    }
    return true;
  };
  if (!residual())
    return failed(
        out, "the equations cannot be evaluated at the configuration: " + (fd.error().empty() ? equations.error() : fd.error()));
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::MatrixXd J, Jr(ne + mh, ne + mh);
  double last_step = std::numeric_limits<double>::infinity(), first_step = 0.0;
  bool have_jacobian = false, analytic = true;
  // A fine mesh without constraint rows takes the analytic tangent sparse (a pass linear in the mesh and a
  // sparse Cholesky instead of a dense M's factorization and a dense LU), while it is positive definite.
  bool sparse_tangent = mh == 0 && ne >= SymmetricSolve::kSparseFrom;
  SymmetricSolve tangent_solve;
  for (int it = 0; it < 50 && ne > 0; ++it) {
    if (!have_jacobian && analytic && sparse_tangent) {
      sparse_tangent = equations.analyticStiffness(0.0, y, eq, tangent_solve);
      have_jacobian = sparse_tangent;
    }
    if (!have_jacobian) {
      if (analytic ? !equations.analyticStiffness(0.0, y, J)
                   : !equations.jacobianColumns(0.0, y, at_rest, eq, J, options.cancel)) {
        if (equations.cancelled()) return stopped();
        return failed(out,
                      "no equilibrium of the elastic and motor coordinates was found: the equations cannot be "
                      "evaluated near the configuration: " +
                          equations.error());
      }
      if (options.cancel && *options.cancel) return failed(out, "cancelled", true);
      Jr.setZero();
      for (int i = 0; i < ne; ++i)
        for (int j = 0; j < ne; ++j) Jr(i, j) = J(eq[i], analytic ? eq[j] : j);
      for (int i = 0; i < mh; ++i)  // the rows held: [K G^T; G 0]
        for (int j = 0; j < ne; ++j) Jr(ne + i, j) = Jr(j, ne + i) = G(held[i], eq[j]);
      if (!Jr.allFinite() || !r.allFinite())
        return failed(out, "no equilibrium of the elastic and motor coordinates was found: the residual is not finite");
      lu.compute(Jr);
      have_jacobian = true;
    }
    if (options.cancel && *options.cancel) return failed(out, "cancelled", true);
    Eigen::VectorXd full_step = r;
    if (sparse_tangent && analytic)
      tangent_solve.solveInPlace(full_step);
    else
      full_step = lu.solve(r);
    const Eigen::VectorXd step = full_step.head(ne);
    for (int c = 0; c < ne; ++c) y(eq[c]) -= step(c);
    lambda_held -= full_step.tail(mh);
    if (!residual() || !step.allFinite())
      return failed(
          out, "no equilibrium of the elastic and motor coordinates was found: " +
                   (equations.error().empty() ? std::string("the Newton iteration left the finite numbers") : equations.error()));
    const double size = step.cwiseAbs().maxCoeff();
    if (it == 0) first_step = size;
    if (size < 1e-13 * std::max(1.0, y.head(nf).cwiseAbs().maxCoeff())) break;
    if (size > 0.5 * last_step) {
      // Not contracting. Steps a millionth of the first are the residual's round-off (a fine mesh's
      // residual is a sum of terms far larger than what is left): the equilibrium is found. Otherwise
      // the analytic tangent leaves out too much (inertial, gravity terms): difference quotients take
      // over, once; a second stall with them is round-off too.
      if (size < 1e-6 * first_step || !analytic) break;
      have_jacobian = false;
      analytic = false;
    }
    last_step = size;
  }
  out.equilibrium_residual = ne > 0 ? r.head(ne).cwiseAbs().maxCoeff() : 0.0;
  if (!fd.evaluate(ForwardDynamics::Request::accelerations(0.0, y.data(), ydot.data())) ||
      !std::isfinite(out.equilibrium_residual))
    return failed(out, "no equilibrium of the elastic and motor coordinates was found: " +
                           (fd.error().empty() ? std::string("the residual is not finite") : fd.error()));
  out.equilibrium_q = fd.q();  // assembled from y: free coordinates at equilibrium, prescribed ones at their frozen value
  // The forces the joints are left with: Q - b, less what the constraints can take (G^T lambda, least squares).
  Eigen::VectorXd unbalanced = fd.residualForce();
  std::optional<ConstrainedMotion> constrained;
  if (constraints) {
    if (!constraintRows()) return failed(out, "the constraints cannot be evaluated at the equilibrium: " + rows.error);
    unbalanced -= G.transpose() * G.transpose().completeOrthogonalDecomposition().solve(unbalanced);
    Result<ConstrainedMotion> c = constrainedMotion(*constraints, rows, G, fd, ydot.tail(nf));
    if (!c) return failed(out, c.error().text());
    constrained = std::move(c.value());
  }
  for (int k = 0; k < nf; ++k)
    if (sys.coordinates.kinds[free[k]] == CoordinateKind::Joint)
      out.joint_residual = std::max(out.joint_residual, std::abs(unbalanced(k)));

  // M, K and C about the equilibrium (on the motions the constraints allow), and the state matrix.
  if (!equations.linearize(0.0, y, options.cancel, constrained ? &constrained->accelerations : nullptr)) {
    if (equations.cancelled()) return stopped();
    return failed(out, "the linearized equations cannot be evaluated near the equilibrium: " + equations.error());
  }
  if (constrained) equations.restrictTo(constrained->N, constrained->K_lambda);
  const int nr = static_cast<int>(equations.mass().rows());
  out.every_mode = nr <= LinearizationOptions::kEveryModeUpTo;
  // The state matrix (2 n square, its dense M^-1 K and M^-1 C: O(n^3)) only where every mode comes from it
  // or it is asked for; the lowest modes of a larger model come from M, K and C themselves.
  Eigen::MatrixXd A;
  if (out.every_mode || options.state_matrix) {
    if (!equations.stateMatrix(A, options.cancel)) return stopped();
    if (!A.allFinite()) return failed(out, "the linearized equations are not finite near the equilibrium: " + fd.error());
  }
  if (constrained && A.size() > 0) {  // the same motion over the free coordinates q_f = N z: [0 I; N A21 N^T, N A22 N^T]
    const Eigen::MatrixXd& N = constrained->N;
    out.state_matrix.setZero(2 * nf, 2 * nf);
    out.state_matrix.topRightCorner(nf, nf).setIdentity();
    out.state_matrix.bottomLeftCorner(nf, nf) = N * A.bottomLeftCorner(nr, nr) * N.transpose();
    out.state_matrix.bottomRightCorner(nf, nf) = N * A.bottomRightCorner(nr, nr) * N.transpose();
  } else {
    out.state_matrix = A;
  }
  out.residual_evaluations = equations.residualEvaluations();
  const StateEigenpairs eig =
      out.every_mode
          ? everyEigenvalue(A)
          : eigenvaluesNearZero(equations.mass(), equations.stiffness(), equations.damping(),
                                options.modes > 0 ? options.modes : LinearizationOptions::kDefaultModes, options.cancel);
  if (!eig.error.empty()) return failed(out, eig.error, eig.cancelled);
  out.note = eig.note;
  const Eigen::VectorXcd& lambda = eig.values;
  for (int k = 0; k < lambda.size(); ++k) {
    const std::complex<double> l = lambda(k);
    const EigenvalueKind kind = eigenvalueKind(l, eig.scale);
    if (kind == EigenvalueKind::Zero) ++out.rigid_body_modes;
    if (kind != EigenvalueKind::Mode) continue;
    const double mag = std::abs(l);
    LinearMode mode;
    mode.omega = mag;
    mode.frequency_hz = std::abs(l.imag()) / (2 * kPi);
    mode.damping_ratio = -l.real() / mag;
    mode.unstable = l.real() > 1e-9 * eig.scale;
    mode.growth_rate = mode.unstable ? l.real() : 0.0;
    Eigen::VectorXcd v = eig.shapes.col(k);
    if (constrained) v = constrained->N.cast<std::complex<double>>() * v;  // over the free coordinates
    int imax = 0;
    v.cwiseAbs().maxCoeff(&imax);
    v /= v(imax);
    mode.shape = v.real();
    out.modes.push_back(mode);
  }
  out.rigid_body_modes /= 2;
  std::sort(out.modes.begin(), out.modes.end(), [](const LinearMode& a, const LinearMode& b) { return a.omega < b.omega; });
  return out;
}

Result<Eigen::VectorXd> modeDisplacement(const LinearizationResult& result, const LinearMode& mode, double amplitude) {
  if (mode.shape.size() != static_cast<Eigen::Index>(result.free_coordinates.size()))
    return error("the mode shape has " + std::to_string(mode.shape.size()) + " components, the result " +
                 std::to_string(result.free_coordinates.size()) + " free coordinates");
  Eigen::VectorXd q = result.equilibrium_q;
  for (std::size_t k = 0; k < result.free_coordinates.size(); ++k) {
    const int i = result.free_coordinates[k];
    if (i < 0 || i >= q.size()) return error("free coordinate index " + std::to_string(i) + " is outside q");
    q(i) += amplitude * mode.shape(static_cast<Eigen::Index>(k));
  }
  return q;
}

}  // namespace flexarm
