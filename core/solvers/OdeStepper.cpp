#include "solvers/OdeStepper.hpp"

#include "dynamics/ConstrainedDynamics.hpp"

namespace flexarm {

OdeStepper::OdeStepper(const MultibodySystem& sys, const Model& model, double dt_out)
    : fd_(sys), rhs_(fd_), recorder_(sys), dt_out_(dt_out) {
  Eigen::VectorXd q0, qd0;
  sys.initialState(model, q0, qd0);
  loaded_ = applyInitialLoads(sys, model, nullptr, q0);
  const int n = fd_.stateSize();
  y0_.resize(static_cast<std::size_t>(n));
  ydot_.resize(static_cast<std::size_t>(n));
  yout_.resize(static_cast<std::size_t>(n));
  fd_.initialState(q0, qd0, y0_.data());
  slots_.assign(static_cast<std::size_t>(sys.nq), -1);
  for (std::size_t k = 0; k < fd_.freeCoordinates().size(); ++k)
    slots_[static_cast<std::size_t>(fd_.freeCoordinates()[k])] = static_cast<int>(k);
}

Status OdeStepper::init(Start start, double t0, double t_end, const SimulationSettings& s) {
  if (!loaded_) return loaded_;
  if (!fd_.evaluate(ForwardDynamics::Request::accelerations(t0, y0_.data(), ydot_.data()))) return error(fd_.error());
  if (fd_.stateSize() == 0) return {};
  Result<std::unique_ptr<OdeIntegrator>> started = start(rhs_, fd_.stateSize(), y0_.data(), t0, t_end, s);
  if (!started) return errorAt("solver set-up failed", started.error().text());
  ode_ = std::move(started.value());
  return {};
}

int OdeStepper::step(double& t) {
  ++steps_;
  if (integrating()) return ode_->step(t);
  t += dt_out_;  // nothing to integrate
  t_ = t;
  return 0;
}

bool OdeStepper::record(double t, Results& results) {
  const double* y = y0_.data();
  if (steps_ > 0 && integrating()) {
    if (!ode_->interpolate(t, yout_.data())) {
      error_ = "could not interpolate the state";
      return false;
    }
    y = yout_.data();
    // The integrator's accelerations (generalized-alpha's) spare the mass matrix's build and solve.
    if (fd_.abilities().row_from_accelerations && ode_->interpolateAccelerations(t, ydot_.data())) {
      if (!fd_.evaluate(ForwardDynamics::Request::row(t, y, ydot_.data()))) {
        error_ = fd_.error();
        return false;
      }
      recorder_.record(t, fd_, results);
      return true;
    }
  }
  if (!fd_.evaluate(ForwardDynamics::Request::accelerations(t, y, ydot_.data()))) {
    error_ = fd_.error();
    return false;
  }
  recorder_.record(t, fd_, results);
  return true;
}

SolverStats OdeStepper::stats() const {
  if (integrating()) return ode_->stats();
  SolverStats st;
  st.steps = steps_;
  return st;
}

}  // namespace flexarm
