// flexarm.modes, flexarm.study, flexarm.compare: the linearization, and many runs in parallel
// threads inside the engine (the GIL released while they go).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "Bindings.hpp"
#include "analysis/Linearization.hpp"
#include "analysis/StaticEquilibrium.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"

namespace flexarm::python {

namespace {

// Runs work(cancel) on a worker thread with the GIL released, where `cancel` is the engine's cancel
// flag; every 50 ms (or when the work is done) the calling thread takes the GIL back to let Python
// handle signals. Ctrl-C sets the flag, and its KeyboardInterrupt is raised once the work has returned.
// An exception of the work is raised again here.
void runInterruptibly(const std::function<void(const std::atomic<bool>*)>& work) {
  std::atomic<bool> cancel{false};
  std::optional<py::error_already_set> raised;
  std::exception_ptr failure;
  {
    py::gil_scoped_release release;
    std::mutex mutex;
    std::condition_variable changed;
    bool finished = false;
    std::thread worker([&] {
      try {
        work(&cancel);
      } catch (...) {
        failure = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      finished = true;
      changed.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!changed.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        if (!raised && PyErr_CheckSignals() != 0) {
          raised.emplace();
          cancel = true;
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (raised) {
    raised->restore();
    throw py::error_already_set();
  }
  if (failure) std::rethrow_exception(failure);
}

py::dict modes(const PyProject& p, std::optional<double> spin, bool lock_joints, double time, int count) {
  if (count < 0) throw ProjectRefused("count must be 0 (the default number) or more, got " + std::to_string(count));
  LinearizationOptions options;
  options.lock_joints = lock_joints;
  options.spin_rate = spin;
  options.time = time;
  options.modes = count;
  LinearizationResult r;
  runInterruptibly([&](const std::atomic<bool>* cancel) {
    options.cancel = cancel;
    r = linearize(p.project, options);
  });
  if (!r.message.empty()) throw std::runtime_error(r.message);
  const auto n = static_cast<py::ssize_t>(r.modes.size());
  const auto nf = static_cast<py::ssize_t>(r.free_coordinates.size());
  py::array_t<double> f(n), omega(n), zeta(n), growth(n);
  py::array_t<bool> unstable(n);
  py::array_t<double> shapes({n, nf});
  auto s = shapes.mutable_unchecked<2>();
  for (py::ssize_t k = 0; k < n; ++k) {
    const LinearMode& m = r.modes[static_cast<std::size_t>(k)];
    f.mutable_at(k) = m.frequency_hz;
    omega.mutable_at(k) = m.omega;
    zeta.mutable_at(k) = m.damping_ratio;
    growth.mutable_at(k) = m.growth_rate;
    unstable.mutable_at(k) = m.unstable;
    for (py::ssize_t c = 0; c < nf; ++c) s(k, c) = m.shape(c);
  }
  return py::dict(py::arg("frequency_hz") = f, py::arg("omega") = omega, py::arg("damping_ratio") = zeta,
                  py::arg("unstable") = unstable, py::arg("growth_rate") = growth, py::arg("shapes") = shapes,
                  py::arg("coordinates") = r.coordinate_names, py::arg("descriptions") = r.coordinate_descriptions,
                  py::arg("rigid_body_modes") = r.rigid_body_modes, py::arg("joint_residual") = r.joint_residual,
                  py::arg("equilibrium_residual") = r.equilibrium_residual);
}

// The static equilibrium, solved with the GIL released; Ctrl-C stops the solver (KeyboardInterrupt).
py::dict staticPy(const PyProject& p, double time) {
  if (!std::isfinite(time) || time < 0.0) throw py::value_error("time must be a finite time >= 0 in seconds");
  StaticSolution s;
  runInterruptibly([&](const std::atomic<bool>* cancel) {
    const MultibodySystem sys = MultibodySystem::fromModel(p.project.model, p.project.coupling);
    StaticOptions options;
    options.t = time;
    options.cancel = cancel;
    s = staticEquilibrium(p.project, sys, options);
  });
  if (!s.converged) throw std::runtime_error(s.message);
  py::dict joints, efforts;
  const Model& m = p.project.model;
  const MultibodySystem sys = MultibodySystem::fromModel(m, p.project.coupling);
  for (std::size_t j = 0; j < m.joints.size(); ++j) {
    joints[py::str(m.joints[j].name)] = s.q(sys.bodies[j].q_index);
    efforts[py::str(m.joints[j].name)] = s.effort(static_cast<int>(j));
  }
  return py::dict(py::arg("joints") = joints, py::arg("efforts") = efforts,
                  py::arg("results") = py::cast(PyResults{std::make_shared<const Results>(s.results), p.project}),
                  py::arg("iterations") = s.iterations, py::arg("load_steps") = s.load_steps, py::arg("residual") = s.residual,
                  py::arg("force_scale") = s.force_scale);
}

// Runs the cases on `workers` threads (0: the machine's cores) with the GIL released; every 50 ms the
// calling thread takes the GIL back to let Python handle Ctrl-C, which cancels the runs left.
py::dict runCasesPy(const PyProject& p, const std::vector<StudyCase>& cases, unsigned workers, std::optional<double> t_end) {
  struct Slot {
    Result<Project> project = Project{};
    Results results;
  };
  std::vector<Slot> slots(cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    slots[k].project = caseProject(p.project, p.base_dir, cases[k]);
    if (slots[k].project && t_end) slots[k].project.value().simulation.t_end = *t_end;
  }
  std::atomic<std::size_t> next{0};
  RunControl control;
  const unsigned n = std::max(
      1u, std::min<unsigned>(workers ? workers : std::thread::hardware_concurrency(), static_cast<unsigned>(cases.size())));
  std::optional<py::error_already_set> interrupted;
  try {
    runInterruptibly([&](const std::atomic<bool>* cancel) {
      control.cancel = cancel;
      std::vector<std::thread> pool;
      for (unsigned w = 0; w < n; ++w)
        pool.emplace_back([&] {
          for (std::size_t k; (k = next++) < slots.size();)
            if (slots[k].project) {
              slots[k].results = simulate(slots[k].project.value(), control);
              labelCaseResults(slots[k].results, p.project.name, cases[k].name);
            }
        });
      for (std::thread& t : pool) t.join();
    });
  } catch (py::error_already_set& e) {
    interrupted.emplace(std::move(e));  // raised after the cases are gathered, as before
  }
  py::list out_cases, summary;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    py::dict c(py::arg("name") = cases[k].name, py::arg("overrides") = cases[k].overrides);
    py::dict row(py::arg("case") = cases[k].name);
    if (!slots[k].project) {
      c["error"] = slots[k].project.error().text();
      c["results"] = py::none();
      row["status"] = "invalid";
    } else {
      c["error"] = py::none();
      const Results& r = slots[k].results;
      c["results"] = py::cast(PyResults{std::make_shared<const Results>(r), slots[k].project.value()});
      row["status"] = runStatusName(r.status);
      row["end_time"] = r.end_time;
      row["diverged"] = r.status == RunStatus::Diverged;
      row["message"] = r.message;
      row["wall_time"] = r.stats.wall_time;
      for (const ScalarMetric& m : scalarMetrics(slots[k].project.value().model, &r)) row[py::str(m.name)] = m.value;
    }
    out_cases.append(c);
    summary.append(row);
  }
  if (interrupted) {
    interrupted->restore();
    throw py::error_already_set();
  }
  return py::dict(py::arg("cases") = out_cases, py::arg("summary") = summary);
}

}  // namespace

void bindAnalyses(py::module_& m) {
  m.def("modes", &modes, py::arg("project"), py::kw_only(), py::arg("spin") = py::none(), py::arg("lock_joints") = false,
        py::arg("time") = 0.0, py::arg("count") = 0,
        "Natural modes of the arm linearized about its initial configuration (elastic coordinates at their static\n"
        "equilibrium), as flexarm-cli modes computes them: with every joint held (lock_joints), or about a steady\n"
        "spin of joint 1 at `spin` rad/s. Returns a dict of NumPy arrays: frequency_hz, omega, damping_ratio,\n"
        "unstable, growth_rate, shapes (modes x free coordinates, largest component 1), and the coordinates' names.\n"
        "Every mode of a model of up to 150 free coordinates; of a larger one the lowest `count` (0: 20).\n"
        "Ctrl-C stops it (KeyboardInterrupt).");
  m.def("static", &staticPy, py::arg("project"), py::kw_only(), py::arg("time") = 0.0,
        "The static equilibrium of the arm held still at `time` (s), as flexarm-cli static solves it: gravity and the\n"
        "loads balanced by the drives and the links' and joints' stiffness. Returns a dict: joints and efforts (by joint\n"
        "name: position [rad or m], effort [N m or N]; a prescribed joint's effort holds it), results (a Results of one\n"
        "row with every channel of a run: tip deflections, end effector ...), iterations, load_steps, residual and\n"
        "force_scale. Raises RuntimeError naming why when there is none (e.g. a joint nothing holds); Ctrl-C stops it.");
  m.def(
      "study",
      [](const PyProject& p, unsigned workers, std::optional<double> t_end) {
        const std::vector<StudyCase> cases = studyCases(p.project);
        if (cases.empty()) throw ProjectRefused("the project has no study (a \"study\" with variants or a grid)");
        return runCasesPy(p, cases, workers, t_end);
      },
      py::arg("project"), py::kw_only(), py::arg("workers") = 0, py::arg("t_end") = py::none(),
      "Runs the project's study (its variants, or every point of its grid) in parallel threads (workers=0: every\n"
      "core). Returns {'cases': [{'name', 'overrides', 'results', 'error'}], 'summary': [one dict per case with\n"
      "its status and the metrics of flexarm-cli study's summary.csv]}.");
  m.def(
      "compare",
      [](const PyProject& p, const std::vector<std::string>& variants, unsigned workers, std::optional<double> t_end) {
        std::vector<StudyCase> cases;
        for (const std::string& spec : variants) {
          Result<StudyCase> c = variantCase(p.project, spec);
          if (!c) throw ProjectRefused(c.error().text());
          cases.push_back(c.value());
        }
        return runCasesPy(p, cases, workers, t_end);
      },
      py::arg("project"), py::arg("variants"), py::kw_only(), py::arg("workers") = 0, py::arg("t_end") = py::none(),
      "Runs variants side by side: each a variant of the project ('zero-order') or overrides joined by ';'\n"
      "('coupling=zero;joints[0].drive.omega0=8'). Same return value as study().");
}

}  // namespace flexarm::python
