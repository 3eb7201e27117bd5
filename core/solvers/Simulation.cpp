#include "solvers/Simulation.hpp"

#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "dynamics/ForwardDynamics.hpp"
#include "io/JsonReader.hpp"
#include "results/ChannelRecorder.hpp"
#include "solvers/CvodeIntegrator.hpp"

namespace flexarm {
namespace {

class ForwardDynamicsRhs final : public OdeRhs {
 public:
  explicit ForwardDynamicsRhs(ForwardDynamics& fd) : fd_(fd) {}
  int rhs(double t, const double* y, double* ydot) override {
    for (int k = 0; k < fd_.stateSize(); ++k)
      if (!std::isfinite(y[k])) return 1;  // recoverable: CVODE retries with a smaller step
    if (fd_.evaluate(t, y, ydot)) return 0;
    return fd_.error().find("not positive definite") != std::string::npos ? -1 : 1;
  }

 private:
  ForwardDynamics& fd_;
};

std::string at(double t) { return "t = " + formatShort(t, 6) + " s"; }

// Watches the tip deflection of every flexible link, straight from the elastic coordinates:
// past `ratio` times the link length the small-deformation model has lost its meaning.
class DivergenceMonitor {
 public:
  DivergenceMonitor(const MultibodySystem& sys, const ForwardDynamics& fd, double ratio) : sys_(sys), ratio_(ratio) {
    std::vector<int> slot(sys.nq, -1);
    for (std::size_t k = 0; k < fd.freeCoordinates().size(); ++k) slot[fd.freeCoordinates()[k]] = static_cast<int>(k);
    for (const Body& b : sys.bodies) {
      if (!b.isFlexible()) continue;
      Watched w{&b, {}};
      for (int c = 0; c < b.e_count; ++c) w.slots.push_back(slot[b.e_index + c]);
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
               formatShort(deflection, 4) + " m, more than " + formatShort(ratio_) + " x its length " +
               formatShort(fb.length) + " m (" + couplingName(sys_.coupling) +
               "-order coupling; the small-deformation model no longer holds)";
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
  os << "CVODE " << (s.method == SimulationSettings::Method::Bdf ? "BDF" : "Adams") << " rtol=" << formatNumber(s.rtol)
     << " atol=" << formatNumber(s.atol);
  if (s.max_step > 0) os << " max_step=" << formatNumber(s.max_step);
  os << " output_rate=" << formatNumber(s.output_rate) << " Hz";
  return os.str();
}

std::string describeRun(const Project& project) {
  return describeSolver(project.simulation) + " coupling=" + couplingName(project.coupling);
}

Results simulate(const Project& project, const RunControl& control) {
  const auto wall_start = std::chrono::steady_clock::now();
  const SimulationSettings& s = project.simulation;
  Results results;
  results.project_name = project.name;
  results.solver_description = describeRun(project);

  const MultibodySystem sys = MultibodySystem::fromModel(project.model, project.coupling);
  ForwardDynamics fd(sys);
  ChannelRecorder recorder(sys);
  results.setChannels(recorder.channels());

  Eigen::VectorXd q0, qd0;
  sys.initialState(project.model, q0, qd0);
  const DivergenceMonitor divergence(sys, fd, s.divergence_ratio);
  const int n = fd.stateSize();
  std::vector<double> y(static_cast<std::size_t>(n)), ydot(static_cast<std::size_t>(n)), yout(static_cast<std::size_t>(n));
  fd.initialState(q0, qd0, y.data());

  const double t0 = 0.0, t_end = s.t_end;
  const double dt_out = 1.0 / s.output_rate;
  // Output times t0 + k dt_out, plus t_end when it is not on that grid.
  const long n_grid = static_cast<long>(std::floor((t_end - t0) / dt_out * (1.0 + 1e-12)));
  auto outputTime = [&](long k) { return k <= n_grid ? t0 + static_cast<double>(k) * dt_out : t_end; };
  const long n_out = n_grid + ((t_end - outputTime(n_grid)) > 1e-9 * dt_out ? 1 : 0);

  auto finish = [&](RunStatus status, const std::string& message, double t_reached) {
    results.status = status;
    results.message = message;
    results.end_time = t_reached;
    results.stats.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return results;
  };

  if (control.started) control.started(results.channels());
  auto announce = [&](std::size_t first_new_row) {
    if (control.rows_recorded && results.rows() > first_new_row) control.rows_recorded(results, first_new_row);
  };
  if (!fd.evaluate(t0, y.data(), ydot.data())) return finish(RunStatus::Failed, fd.error(), t0);
  recorder.record(t0, fd, results);
  announce(0);

  if (n == 0) {  // every joint prescribed: nothing to integrate, the motion is known
    for (long k = 1; k <= n_out; ++k) {
      if (control.cancel && control.cancel->load()) return finish(RunStatus::Cancelled, "cancelled by the user", outputTime(k - 1));
      const double t = outputTime(k);
      fd.evaluate(t, y.data(), ydot.data());
      const std::size_t before = results.rows();
      recorder.record(t, fd, results);
      announce(before);
      if (control.progress) control.progress(t, t_end);
    }
    return finish(RunStatus::Completed, {}, t_end);
  }

  ForwardDynamicsRhs rhs(fd);
  CvodeIntegrator cvode;
  const std::string init_error = cvode.init(rhs, n, y.data(), t0, t_end, s);
  if (!init_error.empty()) return finish(RunStatus::Failed, "solver set-up failed: " + init_error, t0);

  double t = t0;
  long k = 1;
  long steps_taken = 0;  // CVodeSetMaxNumSteps counts per CVode call; in one-step mode the budget is kept here
  while (k <= n_out) {
    while (control.pause && control.pause->load() && !(control.cancel && control.cancel->load()))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (control.cancel && control.cancel->load()) {
      results.stats = cvode.stats();
      return finish(RunStatus::Cancelled, "cancelled by the user at " + at(t), t);
    }
    const int flag = cvode.step(t);
    if (flag >= 0 && ++steps_taken >= s.max_steps && t < t_end) {
      results.stats = cvode.stats();
      return finish(RunStatus::Failed,
                    "solver failed at " + at(t) + ": the solver took the maximum number of steps (" +
                        std::to_string(s.max_steps) + "; raise simulation.solver.max_steps)",
                    t);
    }
    if (flag < 0) {
      results.stats = cvode.stats();
      const double t_fail = cvode.currentTime();
      std::string why = cvode.describe(flag);
      const std::string model_error = fd.error();
      if (!model_error.empty()) why += "; " + model_error;
      return finish(RunStatus::Failed, "solver failed at " + at(t_fail) + ": " + why, t_fail);
    }
    const double* ystep = cvode.state();
    for (int j = 0; j < n; ++j) {
      if (!std::isfinite(ystep[j])) {
        results.stats = cvode.stats();
        return finish(RunStatus::Failed, "the state became non-finite at " + at(t), t);
      }
    }
    const std::string diverged = divergence.check(ystep, t);
    if (!diverged.empty()) {
      results.stats = cvode.stats();
      return finish(RunStatus::Diverged, diverged, t);
    }
    const std::size_t rows_before = results.rows();
    while (k <= n_out && outputTime(k) <= t * (1.0 + 1e-15) + 1e-15) {
      const double t_out = outputTime(k);
      if (!cvode.interpolate(t_out, yout.data()) || !fd.evaluate(t_out, yout.data(), ydot.data())) {
        results.stats = cvode.stats();
        return finish(RunStatus::Failed, "could not evaluate the output at " + at(t_out) + ": " + fd.error(), t);
      }
      recorder.record(t_out, fd, results);
      ++k;
    }
    announce(rows_before);
    if (control.progress) control.progress(t, t_end);
    if (t >= t_end) break;
  }
  results.stats = cvode.stats();
  return finish(RunStatus::Completed, {}, t_end);
}

}  // namespace flexarm
