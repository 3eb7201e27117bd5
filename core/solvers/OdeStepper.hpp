#pragma once
// The run's stepper for the methods on the ODE of the free coordinates, prescribed ones eliminated
// (ForwardDynamicsRhs.hpp): CVODE, ARKODE, generalized-alpha and ESDIRK, each an OdeIntegrator started
// on the form of the equations it integrates (OdeRhs or SecondOrderOde). With no free coordinate (every
// joint prescribed) the motion is known: steps go from output time to output time.
#include <memory>
#include <string>
#include <vector>

#include "dynamics/ForwardDynamics.hpp"
#include "results/ChannelRecorder.hpp"
#include "solvers/ForwardDynamicsRhs.hpp"
#include "solvers/OdeIntegrator.hpp"
#include "solvers/Stepper.hpp"

namespace flexarm {

class OdeStepper final : public Stepper {
 public:
  // Starts an integrator on the equations at y0 (n values), or says why it cannot.
  using Start = Result<std::unique_ptr<OdeIntegrator>> (*)(ForwardDynamicsRhs& equations, int n, const double* y0, double t0,
                                                           double t_end, const SimulationSettings& settings);

  OdeStepper(const MultibodySystem& sys, const Model& model, double dt_out);
  std::vector<Channel> channels() const { return recorder_.channels(); }
  Status init(Start start, double t0, double t_end, const SimulationSettings& settings);

  int step(double& t) override;
  const double* state() const override { return integrating() ? ode_->state() : y0_.data(); }
  int stateSize() const override { return fd_.stateSize(); }
  const std::vector<int>& coordinateSlots() const override { return slots_; }
  bool record(double t, Results& results) override;
  std::string describe(int flag) const override { return ode_ ? ode_->describe(flag) : std::string(); }
  std::string modelError() const override { return error_.empty() ? fd_.error() : error_; }
  double currentTime() const override { return integrating() ? ode_->currentTime() : t_; }
  bool localError(double* le) override { return integrating() && ode_->localError(le); }
  SolverStats stats() const override;

 private:
  bool integrating() const { return fd_.stateSize() > 0 && ode_; }

  ForwardDynamics fd_;
  ForwardDynamicsRhs rhs_;
  ChannelRecorder recorder_;
  std::unique_ptr<OdeIntegrator> ode_;
  double dt_out_, t_ = 0.0;
  long steps_ = 0;
  std::vector<double> y0_, ydot_, yout_;
  std::vector<int> slots_;
  Status loaded_;  // the initial loads found their static shape
  std::string error_;
};

// OdeStepper::Start for an integrator whose init() takes the equations as OdeRhs or SecondOrderOde.
template <class Integrator>
Result<std::unique_ptr<OdeIntegrator>> startOdeIntegrator(ForwardDynamicsRhs& equations, int n, const double* y0, double t0,
                                                          double t_end, const SimulationSettings& settings) {
  auto integrator = std::make_unique<Integrator>();
  if (Status started = integrator->init(equations, n, y0, t0, t_end, settings); !started) return started.error();
  return std::unique_ptr<OdeIntegrator>(std::move(integrator));
}

// The StepperFactory of a method on the ODE (Integrators.cpp).
template <class Integrator>
Result<std::unique_ptr<Stepper>> makeOdeStepper(const RunSetup& run, std::vector<Channel>& channels) {
  auto stepper = std::make_unique<OdeStepper>(run.sys, run.model(), run.dt_out);
  channels = stepper->channels();
  if (Status ready = stepper->init(&startOdeIntegrator<Integrator>, run.t0, run.t_end, run.settings); !ready)
    return ready.error();
  return std::unique_ptr<Stepper>(std::move(stepper));
}

}  // namespace flexarm
