#include "analysis/Linearization.hpp"
#include "base/Constants.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

LinearizationResult linearize(const Project& original, const LinearizationOptions& options) {
  LinearizationResult out;
  const Project project = operatingPointProject(original, options);
  const Model& model = project.model;
  const MultibodySystem sys = MultibodySystem::fromModel(model, project.coupling);
  ForwardDynamics fd(sys);
  const std::vector<int>& free = fd.freeCoordinates();
  const int nf = static_cast<int>(free.size());
  out.free_coordinates = free;
  for (int k : free) {
    out.coordinate_names.push_back(sys.coordinate_names[k]);
    out.coordinate_descriptions.push_back(sys.describeCoordinate(k));
  }
  if (nf == 0) {
    out.message = "every coordinate is prescribed: nothing can vibrate";
    return out;
  }
  Eigen::VectorXd q0, qd0;
  sys.initialState(model, q0, qd0);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nf), ydot(2 * nf);
  fd.initialState(q0, qd0, y.data());
  y.tail(nf).setZero();  // linearize about a state of rest in the moving frame

  // Equilibrium of the elastic and motor coordinates (Newton, finite-difference tangent).
  std::vector<int> eq;  // positions in the free list
  for (int k = 0; k < nf; ++k)
    if (sys.coordinate_kinds[free[k]] != CoordinateKind::Joint) eq.push_back(k);
  auto residual = [&](const Eigen::VectorXd& state, Eigen::VectorXd& r) -> bool {
    Eigen::VectorXd tmp(2 * nf);
    if (!fd.evaluate(0.0, state.data(), tmp.data())) return false;
    r.resize(static_cast<int>(eq.size()));
    for (std::size_t j = 0; j < eq.size(); ++j) r(static_cast<int>(j)) = fd.residualForce()(eq[j]);
    return true;
  };
  const int ne = static_cast<int>(eq.size());
  Eigen::VectorXd r;
  if (!residual(y, r)) {
    out.message = "the equations cannot be evaluated at the configuration: " + fd.error();
    return out;
  }
  for (int it = 0; it < 30 && ne > 0; ++it) {
    Eigen::MatrixXd Jr(ne, ne);
    for (int c = 0; c < ne; ++c) {
      const double h = 1e-7 * std::max(1.0, std::abs(y(eq[c])));
      Eigen::VectorXd yp = y, ym = y, rp, rm;
      yp(eq[c]) += h;
      ym(eq[c]) -= h;
      // A residual that cannot be evaluated leaves rp or rm empty: stop, never difference them.
      if (!residual(yp, rp) || !residual(ym, rm)) {
        out.message =
            "no equilibrium of the elastic and motor coordinates was found: the equations cannot be evaluated "
            "near the configuration: " +
            fd.error();
        return out;
      }
      Jr.col(c) = (rp - rm) / (2 * h);
    }
    if (!Jr.allFinite() || !r.allFinite()) {
      out.message = "no equilibrium of the elastic and motor coordinates was found: the residual is not finite";
      return out;
    }
    const Eigen::VectorXd step = Jr.colPivHouseholderQr().solve(r);
    for (int c = 0; c < ne; ++c) y(eq[c]) -= step(c);
    if (!residual(y, r) || !step.allFinite()) {
      out.message = "no equilibrium of the elastic and motor coordinates was found: " +
                    (fd.error().empty() ? std::string("the Newton iteration left the finite numbers") : fd.error());
      return out;
    }
    if (step.cwiseAbs().maxCoeff() < 1e-13 * std::max(1.0, y.head(nf).cwiseAbs().maxCoeff())) break;
  }
  out.equilibrium_residual = ne > 0 ? r.cwiseAbs().maxCoeff() : 0.0;
  if (!fd.evaluate(0.0, y.data(), ydot.data()) || !std::isfinite(out.equilibrium_residual)) {
    out.message = "no equilibrium of the elastic and motor coordinates was found: " +
                  (fd.error().empty() ? std::string("the residual is not finite") : fd.error());
    return out;
  }
  out.equilibrium_q = fd.q();  // assembled from y: free coordinates at equilibrium, prescribed ones at their frozen value
  for (int k = 0; k < nf; ++k)
    if (sys.coordinate_kinds[free[k]] == CoordinateKind::Joint)
      out.joint_residual = std::max(out.joint_residual, std::abs(fd.residualForce()(k)));

  // State matrix by central differences.
  Eigen::MatrixXd A(2 * nf, 2 * nf);
  Eigen::VectorXd fp(2 * nf), fm(2 * nf);
  for (int c = 0; c < 2 * nf; ++c) {
    const double h = 1e-6 * std::max(1.0, std::abs(y(c)));
    Eigen::VectorXd yp = y, ym = y;
    yp(c) += h;
    ym(c) -= h;
    if (!fd.evaluate(0.0, yp.data(), fp.data()) || !fd.evaluate(0.0, ym.data(), fm.data())) {
      out.message = "the linearized equations cannot be evaluated near the equilibrium: " + fd.error();
      return out;
    }
    A.col(c) = (fp - fm) / (2 * h);
  }
  if (!A.allFinite()) {
    out.message = "the linearized equations are not finite near the equilibrium: " + fd.error();
    return out;
  }
  out.state_matrix = A;
  Eigen::EigenSolver<Eigen::MatrixXd> eig(A);
  if (eig.info() != Eigen::Success) {
    out.message = "the eigenvalue problem did not converge";
    return out;
  }
  const Eigen::VectorXcd lambda = eig.eigenvalues();
  const double scale = std::max(1e-12, lambda.cwiseAbs().maxCoeff());
  std::vector<bool> used(lambda.size(), false);
  for (int k = 0; k < lambda.size(); ++k) {
    const std::complex<double> l = lambda(k);
    const double mag = std::abs(l);
    if (mag < 1e-7 * scale) {
      ++out.rigid_body_modes;
      continue;
    }
    if (l.imag() < -1e-9 * mag) continue;                            // the conjugate of an oscillatory pair
    if (std::abs(l.imag()) <= 1e-9 * mag && l.real() < 0) continue;  // overdamped decay
    LinearMode mode;
    mode.omega = mag;
    mode.frequency_hz = std::abs(l.imag()) / (2 * kPi);
    mode.damping_ratio = -l.real() / mag;
    mode.unstable = l.real() > 1e-9 * scale;
    mode.growth_rate = mode.unstable ? l.real() : 0.0;
    Eigen::VectorXcd v = eig.eigenvectors().col(k).head(nf);
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
