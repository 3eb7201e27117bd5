#include "solvers/Simulation.hpp"

#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <thread>

#include "dynamics/ConstrainedDynamics.hpp"
#include "base/NumberFormat.hpp"
#include "results/ChannelRecorder.hpp"
#include "solvers/ErrorEstimate.hpp"
#include "model/SolverMethods.hpp"
#include "solvers/Integrators.hpp"

namespace flexarm {
namespace {

std::string at(double t) { return "t = " + formatShort(t, 6) + " s"; }

// Watches the tip deflection of every flexible link, straight from the elastic coordinates in the
// stepper's state: past `ratio` times the link length the small-deformation model has lost its meaning.
class DivergenceMonitor {
 public:
  DivergenceMonitor(const MultibodySystem& sys, const std::vector<int>& slots, double ratio) : sys_(sys), ratio_(ratio) {
    for (const Body& b : sys.bodies) {
      if (!b.isFlexible()) continue;
      Watched w{&b, {}};
      for (int c = 0; c < b.e_count; ++c) w.slots.push_back(slots[static_cast<std::size_t>(b.e_index + c)]);
      watched_.push_back(std::move(w));
    }
  }
  // Empty when fine, otherwise the message.
  std::string check(const double* y, double t) const {
    for (const Watched& w : watched_) {
      const FlexibleBody& fb = *w.body->flexible;
      double v = 0.0, wz = 0.0;
      for (int c = 0; c < fb.m; ++c) {
        const double e = w.slots[c] >= 0 ? y[w.slots[c]] : 0.0;
        v += fb.tip.v(c) * e;
        wz += fb.tip.w(c) * e;
      }
      const double deflection = std::hypot(v, wz);
      if (deflection > ratio_ * fb.length) {
        return "diverged at " + at(t) + ": the tip deflection of link '" + w.body->name + "' reached " +
               formatShort(deflection, 4) + " m, more than " + formatShort(ratio_) + " x its length " + formatShort(fb.length) +
               " m (" + couplingName(sys_.coupling) + "-order coupling; the small-deformation model no longer holds)";
      }
    }
    return {};
  }

 private:
  struct Watched {
    const Body* body;
    std::vector<int> slots;
  };
  const MultibodySystem& sys_;
  double ratio_;
  std::vector<Watched> watched_;
};

}  // namespace

std::string describeSolver(const SimulationSettings& s) {
  std::ostringstream os;
  if (s.method == SimulationSettings::Method::Auto) {
    os << "auto accuracy=" << formatNumber(s.accuracy);
    if (s.rtol > 0.0) os << " rtol=" << formatNumber(s.rtol);
    if (s.atol > 0.0) os << " atol=" << formatNumber(s.atol);
  } else {
    integrator(s.method).describe(s, os);
    if (solverMethod(s.method).adaptive) {
      os << " rtol=" << formatNumber(s.rtol) << " atol=" << formatNumber(s.atol);
      if (s.max_step > 0) os << " max_step=" << formatNumber(s.max_step);
      if (s.max_order > 0) os << " max_order=" << s.max_order;
      if (s.jacobian == SimulationSettings::Jacobian::DifferenceQuotient && s.method != SimulationSettings::Method::Adams)
        os << " jacobian=difference";  // Adams iterates without a Newton matrix
    }
  }
  os << " output_rate=" << formatNumber(s.output_rate) << " Hz";
  return os.str();
}

SolverChoice solverChoice(const Project& project) {
  return chooseSolver(MultibodySystem::fromModel(project.model, project.coupling), project.simulation);
}

std::vector<Channel> runChannels(const MultibodySystem& sys, const SimulationSettings& settings) {
  if (!runsWithMultipliers(chooseSolver(sys, settings).settings, *sys.model)) return ChannelRecorder(sys).channels();
  ConstraintSet cs;
  if (!cs.build(sys, *sys.model, true)) return {};
  return ChannelRecorder(sys, &cs).channels();
}

namespace {
std::string describeChoice(const SolverChoice& c, CouplingOrder coupling) {
  return (c.automatic ? "auto: " : "") + describeSolver(c.settings) + " coupling=" + couplingName(coupling);
}
}  // namespace

std::string describeRun(const MultibodySystem& sys, const SimulationSettings& settings) {
  return describeChoice(chooseSolver(sys, settings), sys.coupling);
}

namespace {

Results simulateOnce(const MultibodySystem& sys, const SolverChoice& choice, const RunControl& control) {
  const auto wall_start = std::chrono::steady_clock::now();
  const SimulationSettings& s = choice.settings;  // the chosen method and its tolerances
  Results results;
  results.project_name = control.label;
  results.solver_description = describeChoice(choice, sys.coupling);
  results.accuracy = s.accuracy;
  if (choice.automatic) results.method_choice = choice.summary + ": " + choice.reason;

  const double t0 = s.t_start, t_end = s.t_end;
  const double dt_out = 1.0 / s.output_rate;
  // Output times t0 + k dt_out, plus t_end when it is not on that grid; k / rate, not k dt_out, so that
  // they are the doubles nearest the decimal times (0.15 at 20 Hz, not 3 x 0.05 = 0.15000000000000002).
  // A run that starts on that grid (one continued from a row of another) has the same times as one run.
  const long n_grid = static_cast<long>(std::floor((t_end - t0) / dt_out * (1.0 + 1e-12)));
  const double k0 = std::round(t0 * s.output_rate);
  const bool on_grid = std::abs(k0 / s.output_rate - t0) <= 1e-9 * dt_out;
  auto outputTime = [&](long k) {
    if (k > n_grid) return t_end;
    return on_grid ? (k0 + static_cast<double>(k)) / s.output_rate : t0 + static_cast<double>(k) / s.output_rate;
  };
  const long n_out = n_grid + ((t_end - outputTime(n_grid)) > 1e-9 * dt_out ? 1 : 0);

  std::optional<GlobalErrorEstimate> estimate;
  auto finish = [&](RunStatus status, const std::string& message, double t_reached) {
    if (estimate) results.errors = estimate->estimates(results);
    results.status = status;
    results.message = message;
    results.end_time = t_reached;
    results.stats.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return results;
  };

  std::vector<Channel> channels;
  Result<std::unique_ptr<Stepper>> made = makeStepper(RunSetup{sys, s, t0, t_end, dt_out}, channels);
  results.setChannels(channels);
  if (control.started) control.started(results.channels());
  if (!made) return finish(RunStatus::Failed, made.error().text(), t0);
  const std::unique_ptr<Stepper>& stepper = made.value();
  auto announce = [&](std::size_t first_new_row) {
    if (control.rows_recorded && results.rows() > first_new_row) control.rows_recorded(results, first_new_row);
  };
  if (!stepper->record(t0, results)) return finish(RunStatus::Failed, stepper->modelError(), t0);
  announce(0);

  const DivergenceMonitor divergence(sys, stepper->coordinateSlots(), s.divergence_ratio);
  estimate.emplace(sys, stepper->coordinateSlots());
  std::vector<double> local_error(static_cast<std::size_t>(stepper->stateSize()));
  double t = t0;
  long k = 1;
  long steps_taken = 0;  // the solvers count per call; in one-step mode the budget is kept here
  auto failed = [&](const std::string& message, double t_at) {
    results.stats = stepper->stats();
    return finish(RunStatus::Failed, message, t_at);
  };
  while (k <= n_out) {
    while (control.pause && control.pause->load() && !(control.cancel && control.cancel->load()))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (control.cancel && control.cancel->load()) {
      results.stats = stepper->stats();
      return finish(RunStatus::Cancelled, "cancelled by the user at " + at(t), t);
    }
    const int flag = stepper->step(t);
    if (flag >= 0 && ++steps_taken >= s.max_steps && t < t_end)
      return failed("solver failed at " + at(t) + ": the solver took the maximum number of steps (" +
                        std::to_string(s.max_steps) + "; raise simulation.solver.max_steps)",
                    t);
    if (flag < 0) {
      const double t_fail = stepper->currentTime();
      std::string why = stepper->describe(flag);
      const std::string model_error = stepper->modelError();
      if (!model_error.empty()) why += "; " + model_error;
      return failed("solver failed at " + at(t_fail) + ": " + why, t_fail);
    }
    if (estimate->available()) {
      if (stepper->stateSize() == 0) {
        // every coordinate prescribed: nothing integrated, nothing to err
      } else if (stepper->localError(local_error.data())) {
        estimate->addStep(local_error.data());
      } else {
        estimate->unavailable();
      }
    }
    const double* ystep = stepper->state();
    for (int j = 0; j < stepper->stateSize(); ++j)
      if (!std::isfinite(ystep[j])) return failed("the state became non-finite at " + at(t), t);
    const std::size_t rows_before = results.rows();
    const std::string diverged = divergence.check(ystep, t);
    if (!diverged.empty()) {
      // The curves end where the run did: the output times within the step, then the state that
      // diverged, off the output grid (the last row's t is the message's). The equations may no longer
      // be evaluable there; the run has diverged all the same, so a row that cannot be made is left out.
      while (k <= n_out && outputTime(k) < t && stepper->record(outputTime(k), results)) ++k;
      if (results.rows() == 0 || results.value(results.rows() - 1, 0) < t) stepper->record(t, results);
      announce(rows_before);
      results.stats = stepper->stats();
      return finish(RunStatus::Diverged, diverged, t);
    }
    while (k <= n_out && outputTime(k) <= t * (1.0 + 1e-15) + 1e-15) {
      const double t_out = outputTime(k);
      if (!stepper->record(t_out, results))
        return failed("could not evaluate the output at " + at(t_out) + ": " + stepper->modelError(), t);
      ++k;
    }
    announce(rows_before);
    if (control.progress) control.progress(t, t_end);
    if (t >= t_end) break;
  }
  results.stats = stepper->stats();
  return finish(RunStatus::Completed, {}, t_end);
}

}  // namespace

Results simulate(const Project& project, const RunControl& control) {
  RunControl named = control;
  named.label = project.name;
  return simulate(MultibodySystem::fromModel(project.model, project.coupling), project.simulation, named);
}

Results simulate(const MultibodySystem& sys, const SimulationSettings& settings, const RunControl& control) {
  const SolverChoice choice = chooseSolver(sys, settings);
  Results results = simulateOnce(sys, choice, control);
  // A rigid arm may be chaotic (the double pendulum): its errors grow between steps, which the sum of
  // the local errors misses. It runs fast at any tolerance, so its estimate is the difference from a
  // second run at ten times the tolerances (whose error bounds this run's).
  if (sys.isRigid() && results.status == RunStatus::Completed && !results.errors.empty() &&
      choice.settings.method != SimulationSettings::Method::Newmark) {
    SolverChoice looser = choice;
    looser.settings.rtol *= 10.0;
    looser.settings.atol *= 10.0;
    RunControl quiet;
    quiet.cancel = control.cancel;
    quiet.pause = control.pause;
    const Results other = simulateOnce(sys, looser, quiet);
    if (other.status == RunStatus::Completed) estimateFromLooserRun(results, other);
    results.stats.wall_time += other.stats.wall_time;
  }
  return results;
}

Results verifyErrors(const MultibodySystem& sys, const SimulationSettings& settings, Results& results,
                     const RunControl& control) {
  SimulationSettings s = settings;
  s.accuracy *= 0.1;
  if (s.rtol > 0.0) s.rtol *= 0.1;
  if (s.atol > 0.0) s.atol *= 0.1;
  Results reference = simulate(sys, s, control);  // the same system: only the solver's settings differ
  measureErrors(results, reference);
  return reference;
}

}  // namespace flexarm
