// import flexarm: projects, runs, studies and modes of the FlexArm engine, results as NumPy arrays.
#include "Bindings.hpp"
#include "Version.hpp"

PYBIND11_MODULE(flexarm, m) {
  using namespace flexarm::python;
  m.doc() =
      "FlexArm: dynamics of flexible robot manipulators.\n\n"
      "  p = flexarm.load('projects/spin-up-beam.flexarm.json')\n"
      "  p.set('joints[0].drive.omega0', 8)\n"
      "  r = flexarm.simulate(p, t_end=10)\n"
      "  r.t, r['tip.beam.v']            # NumPy arrays\n"
      "  flexarm.modes(p, lock_joints=True)['frequency_hz']\n";
  py::register_exception<ProjectRefused>(m, "ProjectError", PyExc_ValueError);
  m.attr("ProjectError").attr("__doc__") =
      "A project, override path or value that FlexArm refuses; the message names the JSON path.";
  m.attr("__version__") = flexarm::kVersion;
  bindProjects(m);
  bindResults(m);
  bindAnalyses(m);
}
