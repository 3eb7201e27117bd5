// flexarm.simulate and flexarm.Results: a run on the engine with the GIL released, its channels as
// NumPy views of the engine's own rows (no copy), Ctrl-C and progress callbacks.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>

#include "Bindings.hpp"
#include "base/NumberFormat.hpp"
#include "dynamics/Centreline.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "results/CsvWriter.hpp"
#include "results/RowCoordinates.hpp"
#include "solvers/Simulation.hpp"

namespace fs = std::filesystem;

namespace flexarm::python {

namespace {

// Results.centreline's samples: a line needs 2 points; 100 000 take milliseconds and are far more
// than any plot shows.
constexpr long kMinCentrelineSamples = 2;
constexpr long kMaxCentrelineSamples = 100000;

// A NumPy view into the results' rows (read-only), which keeps the results alive.
py::array view(const PyResults& r, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides, std::size_t offset) {
  auto keep = new std::shared_ptr<const Results>(r.results);
  py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<const Results>*>(p); });
  py::array a(py::dtype::of<double>(), std::move(shape), std::move(strides), r.results->data() + offset, owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array column(const PyResults& r, const std::string& name) {
  const int c = r.results->channelIndex(name);
  if (c < 0) {
    std::string close;
    for (const Channel& ch : r.results->channels())
      if (ch.name.find(name) != std::string::npos || name.find(ch.name) != std::string::npos)
        close += (close.empty() ? "" : ", ") + ch.name;
    throw py::key_error("no channel \"" + name + "\"" + (close.empty() ? "" : " (did you mean " + close + "?)") +
                        "; r.channels lists them");
  }
  const auto n = static_cast<py::ssize_t>(r.results->channels().size());
  return view(r, {static_cast<py::ssize_t>(r.results->rows())}, {n * static_cast<py::ssize_t>(sizeof(double))},
              static_cast<std::size_t>(c));
}

py::dict statsDict(const SolverStats& s) {
  return py::dict(py::arg("steps") = s.steps, py::arg("rhs_evaluations") = s.rhs_evaluations,
                  py::arg("jacobian_evaluations") = s.jacobian_evaluations, py::arg("linear_setups") = s.linear_setups,
                  py::arg("error_test_failures") = s.error_test_failures,
                  py::arg("nonlinear_iterations") = s.nonlinear_iterations,
                  py::arg("nonlinear_convergence_failures") = s.nonlinear_convergence_failures,
                  py::arg("last_step") = s.last_step, py::arg("wall_time") = s.wall_time);
}

PyResults simulatePy(const PyProject& p, std::optional<double> t_end, std::optional<std::string> solver,
                     std::optional<double> rtol, std::optional<double> atol, std::optional<double> accuracy, bool verify,
                     const std::optional<py::function>& progress, const std::optional<PyResults>& start_from,
                     std::optional<double> start_at) {
  PyProject run = p;
  if (t_end) run.doc["simulation"]["t_end"] = *t_end;
  if (accuracy) run.doc["simulation"]["accuracy"] = *accuracy;
  if (solver) run.doc["simulation"]["solver"]["method"] = *solver;
  if (rtol) run.doc["simulation"]["solver"]["rtol"] = *rtol;
  if (atol) run.doc["simulation"]["solver"]["atol"] = *atol;
  if (t_end || solver || rtol || atol || accuracy) run = projectFromDoc(run.doc, run.base_dir);
  if (start_at && !start_from) throw py::value_error("start_at needs start_from: the results to continue");
  std::optional<MultibodySystem> continued;
  if (start_from) {  // the run continues start_from from its row at start_at (or its last row)
    continued = MultibodySystem::fromModel(run.project.model, run.project.coupling);
    const Result<std::size_t> row = rowAtTime(*start_from->results, start_at);
    if (!row) throw py::value_error("start_at: " + row.error().text());
    if (const Status ok = continueFromRow(run.project, *continued, *start_from->results, *row); !ok)
      throw py::value_error("start_from: " + ok.error().text());
  }

  // The run goes on this thread with the GIL released; every 50 ms it takes the GIL back to let
  // Python handle signals (Ctrl-C) and call the progress callback. An exception there stops the
  // run; it is raised again afterwards, carrying the results so far as its `result`.
  std::atomic<bool> cancel{false};
  std::optional<py::error_already_set> raised;
  auto last = std::chrono::steady_clock::now();
  RunControl control;
  control.cancel = &cancel;
  control.label = run.project.name;
  control.progress = [&](double t, double t_stop) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(50) && t < t_stop) return;
    last = now;
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (progress) (*progress)(t, t_stop);
    } catch (py::error_already_set& e) {
      if (!raised) raised.emplace(std::move(e));
      cancel = true;
    }
  };
  Results results;
  {
    py::gil_scoped_release release;
    const MultibodySystem sys =
        continued ? std::move(*continued) : MultibodySystem::fromModel(run.project.model, run.project.coupling);
    results = simulate(sys, run.project.simulation, control);
    if (verify && results.status == RunStatus::Completed && !cancel) verifyErrors(sys, run.project.simulation, results, control);
  }
  PyResults out{std::make_shared<const Results>(std::move(results)), run.project};
  if (raised) {
    try {
      raised->value().attr("result") = py::cast(out);
    } catch (...) {
    }
    raised->restore();
    throw py::error_already_set();
  }
  return out;
}

}  // namespace

void bindResults(py::module_& m) {
  py::class_<PyResults>(m, "Results",
                        "The channels of a run (NumPy arrays that view the engine's rows without a copy) and how it "
                        "ended.")
      .def_property_readonly(
          "t", [](const PyResults& r) { return column(r, "t"); }, "Output times [s].")
      .def("__getitem__", &column, py::arg("channel"), "One channel by name, e.g. r['tip.beam.v'] (see r.channels).")
      .def(
          "__contains__", [](const PyResults& r, const std::string& name) { return r.results->channelIndex(name) >= 0; },
          py::arg("channel"), "True when the run recorded this channel, e.g. 'tip.beam.v' in r.")
      .def(
          "__len__", [](const PyResults& r) { return r.results->rows(); }, "The number of output rows (times) of the run.")
      .def_property_readonly(
          "channels",
          [](const PyResults& r) {
            std::vector<std::string> names;
            for (const Channel& c : r.results->channels()) names.push_back(c.name);
            return names;
          },
          "The channel names, in column order.")
      .def_property_readonly(
          "units",
          [](const PyResults& r) {
            py::dict units;
            for (const Channel& c : r.results->channels()) units[py::str(c.name)] = c.unit;
            return units;
          },
          "The unit of each channel, e.g. r.units['tip.beam.v'] == 'm'.")
      .def_property_readonly(
          "data",
          [](const PyResults& r) {
            const auto n = static_cast<py::ssize_t>(r.results->channels().size());
            const auto d = static_cast<py::ssize_t>(sizeof(double));
            return view(r, {static_cast<py::ssize_t>(r.results->rows()), n}, {n * d, d}, 0);
          },
          "Every channel as one (rows x channels) array, columns in the order of r.channels.")
      .def_property_readonly(
          "status", [](const PyResults& r) { return std::string(runStatusName(r.results->status)); },
          "'completed', 'failed', 'cancelled' or 'diverged'.")
      .def_property_readonly(
          "diverged", [](const PyResults& r) { return r.results->status == RunStatus::Diverged; },
          "True when a flexible link's deflection left the small-deformation model (a physical result, not an error).")
      .def_property_readonly(
          "message", [](const PyResults& r) { return r.results->message; }, "Why the run ended early, with the time.")
      .def_property_readonly(
          "end_time", [](const PyResults& r) { return r.results->end_time; }, "Simulated time reached [s].")
      .def_property_readonly(
          "stats", [](const PyResults& r) { return statsDict(r.results->stats); },
          "Solver statistics: steps, evaluations, Newton iterations, wall time [s], ...")
      .def_property_readonly(
          "solver", [](const PyResults& r) { return r.results->solver_description; }, "The solver and its settings.")
      .def_property_readonly(
          "method_choice", [](const PyResults& r) { return r.results->method_choice; },
          "What the automatic method chose and why ('' when the project names its method).")
      .def_property_readonly(
          "accuracy", [](const PyResults& r) { return r.results->accuracy; }, "The accuracy asked for.")
      .def_property_readonly(
          "errors",
          [](const PyResults& r) {
            py::dict out;
            for (const ErrorEstimate& e : r.results->errors) {
              py::dict d;
              d["estimate"] = e.absolute;
              d["unit"] = e.unit;
              d["excursion"] = e.excursion;
              d["relative"] = e.relative;
              d["measured"] = e.measured >= 0.0 ? py::cast(e.measured) : py::none();
              out[py::str(e.group)] = d;
            }
            return out;
          },
          "The estimated error per output group ('ee', 'tip.<link>', 'joints'): {'estimate': absolute [unit], 'unit', "
          "'excursion', 'relative': estimate / excursion, 'measured': the relative difference from a run at a tenth of "
          "the accuracy with verify=True, else None}.")
      .def(
          "to_csv",
          [](const PyResults& r, const fs::path& file) {
            if (const Status written = writeCsvFile(*r.results, file); !written) throw std::runtime_error(written.error().text());
          },
          py::arg("path"),
          "Writes the same CSV as flexarm-cli run (header row first) and its description (project, solver, status, "
          "statistics, units) as the JSON sidecar beside it: X.meta.json for X.csv.")
      .def(
          "to_pandas",
          [](const py::object& self) {
            py::object pandas = py::module_::import("pandas");
            return pandas.attr("DataFrame")(self.attr("data"), py::arg("columns") = self.attr("channels"));
          },
          "A pandas DataFrame of every channel (needs pandas).")
      .def(
          "centreline",
          [](const PyResults& r, const py::object& link, double t, long samples) {
            // Bounded, so that no call holds the GIL for minutes (10**8 samples did) and every answer has a line.
            if (samples < kMinCentrelineSamples || samples > kMaxCentrelineSamples)
              throw py::value_error("samples must be between " + std::to_string(kMinCentrelineSamples) + " and " +
                                    std::to_string(kMaxCentrelineSamples) + ", got " + std::to_string(samples));
            if (!std::isfinite(t)) throw py::value_error("t must be a finite time in seconds, got " + formatNumber(t));
            const MultibodySystem sys = MultibodySystem::fromModel(r.project.model, r.project.coupling);
            int index = -1;
            if (py::isinstance<py::int_>(link)) {
              index = link.cast<int>();
            } else {
              const std::string name = link.cast<std::string>();
              for (std::size_t k = 0; k < r.project.model.links.size(); ++k)
                if (r.project.model.links[k].name == name) index = static_cast<int>(k);
            }
            if (index < 0 || index >= static_cast<int>(r.project.model.links.size()))
              throw py::key_error("no link " + py::repr(link).cast<std::string>());
            if (r.results->rows() == 0) throw std::runtime_error("the run recorded no rows");
            const std::vector<double> times = r.results->column("t");
            std::size_t row = 0;
            for (std::size_t k = 1; k < times.size(); ++k)
              if (std::abs(times[k] - t) < std::abs(times[row] - t)) row = k;
            Eigen::VectorXd q;
            if (!coordinatesAtRow(sys, *r.results, row, q)) throw std::runtime_error("the results lack the coordinates");
            DynamicsData data(sys);
            const auto lines = deformedCentrelines(sys, data, q, static_cast<int>(samples));
            const auto& pts = lines[static_cast<std::size_t>(index)];
            py::array_t<double> out({static_cast<py::ssize_t>(pts.size()), static_cast<py::ssize_t>(3)});
            auto w = out.mutable_unchecked<2>();
            for (std::size_t k = 0; k < pts.size(); ++k)
              for (int c = 0; c < 3; ++c) w(static_cast<py::ssize_t>(k), c) = pts[k](c);
            return out;
          },
          py::arg("link"), py::arg("t"), py::arg("samples") = 21,
          "World points (samples x 3) of a link's deformed neutral axis at the output time nearest t; link by name or "
          "index. samples: 2 to 100000; t: a finite time (ValueError otherwise).")
      .def("__repr__", [](const PyResults& r) {
        return "<flexarm.Results " + std::string(runStatusName(r.results->status)) + ", " + std::to_string(r.results->rows()) +
               " rows x " + std::to_string(r.results->channels().size()) + " channels, t_end " +
               formatNumber(r.results->end_time) + " s>";  // not std::to_string: "%f" follows the C locale
      });

  m.def("simulate", &simulatePy, py::arg("project"), py::kw_only(), py::arg("t_end") = py::none(), py::arg("solver") = py::none(),
        py::arg("rtol") = py::none(), py::arg("atol") = py::none(), py::arg("accuracy") = py::none(), py::arg("verify") = false,
        py::arg("progress") = py::none(), py::arg("start_from") = py::none(), py::arg("start_at") = py::none(),
        "Runs the project on the engine (the GIL is released: other Python threads go on) and returns its Results.\n"
        "accuracy (default the project's, 1e-3: 0.1 % of each output's excursion) is what the automatic method aims\n"
        "for; every result carries its error estimate (Results.errors). verify=True runs again at a tenth of the\n"
        "accuracy and stores the measured error next to the estimate.\n"
        "t_end, solver ('auto', 'galpha', 'bdf', ...), rtol and atol override the project's settings. progress(t, t_end) is\n"
        "called about every 50 ms. A diverged or failed run returns its status and message; it does not raise.\n"
        "start_from (Results of an earlier run of the same model) continues that run from its row at start_at [s]\n"
        "(default: its last row): the state there is the initial state and the run starts at that time.\n"
        "Ctrl-C (or an exception from progress) stops the run within a step and is raised again with the results\n"
        "so far as its `result` attribute.");
}

}  // namespace flexarm::python
