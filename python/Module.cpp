// import flexarm: projects, runs, studies and modes of the FlexArm engine, results as NumPy arrays.
#include "Bindings.hpp"
#include "Version.hpp"
#include "base/Text.hpp"

namespace flexarm::python {

std::string validUtf8(const std::string& s) {
  if (isValidUtf8(s)) return s;
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    const std::size_t n = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    if (n > 0 && i + n <= s.size() && isValidUtf8(s.substr(i, n))) {
      out += s.substr(i, n);
      i += n;
    } else {
      static const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[lead >> 4] + hex[lead & 0xF];
      ++i;
    }
  }
  return out;
}

}  // namespace flexarm::python

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
