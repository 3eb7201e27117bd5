// flexarm-cli modes PROJECT: natural frequencies and mode shapes of the linearized arm.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "FiniteOutput.hpp"
#include "analysis/Linearization.hpp"
#include "base/NumberFormat.hpp"
#include "io/ProjectFile.hpp"

namespace flexarm::cli {

namespace {

struct ModesOptions {
  ProjectInput project;
  bool lock_joints = false;
  std::optional<double> spin;
  int count = 10;
};

// The three largest components of a mode shape, named.
std::string largestComponents(const LinearMode& m, const std::vector<std::string>& names) {
  std::vector<int> order(m.shape.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return std::abs(m.shape(x)) > std::abs(m.shape(y)); });
  std::string comps;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, order.size()); ++i)
    comps += (i ? ", " : "") + names[order[i]] + " " + formatNumber(std::round(m.shape(order[i]) * 1000) / 1000);
  return comps;
}

int modes(const ModesOptions& o) {
  stopAnalysisOnSignals();  // Ctrl-C stops the linearization: exit 130
  const std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  LinearizationOptions options;
  options.lock_joints = o.lock_joints;
  options.spin_rate = o.spin;
  options.modes = o.count;
  options.cancel = &cancelFlag();
  const LinearizationResult r = linearize(*project, options);
  if (r.cancelled) return fail("interrupted", kExitInterrupted);
  if (!r.message.empty()) return fail(r.message, kExitSolverFailure);
  if (const std::string bad = nonFiniteMode(r); !bad.empty()) return failNonFinite(bad);
  std::cout << "project: " << project->name << " (" << couplingName(project->coupling) << "-order coupling)\n";
  std::cout << "linearized about "
            << (o.spin ? "a steady spin of joint 1 at " + formatNumber(*o.spin) + " rad/s"
                       : std::string("the initial configuration"))
            << (o.lock_joints ? ", joints held" : "") << "\n";
  if (r.joint_residual > 1e-6)
    std::cout << "note: the configuration is not an equilibrium of the free joints (unbalanced generalized force "
              << formatNumber(r.joint_residual) << "); the modes are those of the instantaneous linearization\n";
  if (!r.every_mode)
    std::cout << "the lowest " << r.modes.size() << " modes of " << r.free_coordinates.size()
              << " free coordinates (found by a shift-invert Arnoldi iteration)\n";
  if (!r.note.empty()) std::cout << "note: " << r.note << "\n";
  if (r.rigid_body_modes > 0) std::cout << "rigid-body modes (zero frequency): " << r.rigid_body_modes << "\n";
  std::printf("%4s %14s %14s %10s  %s\n", "mode", "frequency [Hz]", "omega [rad/s]", "damping", "largest components");
  const int shown = std::min<int>(o.count, static_cast<int>(r.modes.size()));
  for (int k = 0; k < shown; ++k) {
    const LinearMode& m = r.modes[k];
    const std::string comps = largestComponents(m, r.coordinate_names);
    if (m.unstable) {
      std::printf("%4d %14s %14.6g %10s  %s\n", k + 1, "UNSTABLE", m.omega, "", comps.c_str());
      std::printf("     growth rate %.6g 1/s (the linearized motion diverges)\n", m.growth_rate);
    } else {
      std::printf("%4d %14.6g %14.6g %10.4g  %s\n", k + 1, m.frequency_hz, m.omega, m.damping_ratio, comps.c_str());
    }
  }
  return kExitOk;
}

}  // namespace

Command modesCommand() {
  return {"modes", "PROJECT [--lock-joints] [--spin OMEGA] [--count N] [--set PATH=VALUE ...]",
          "Natural frequencies and mode shapes of the arm linearized about its initial\n"
          "configuration (elastic coordinates at their static equilibrium), with every joint\n"
          "held (--lock-joints), or about a steady spin of joint 1 at OMEGA rad/s (--spin).",
          [](CLI::App& app) {
            auto o = std::make_shared<ModesOptions>();
            addProjectArguments(app, o->project, false);
            app.add_flag("--lock-joints", o->lock_joints, "hold every joint (the elastic modes of the arm as it stands)");
            app.add_option("--spin", o->spin, "linearize about a steady spin of joint 1 at OMEGA rad/s")
                ->type_name("OMEGA")
                ->check(CLI::Range(-1e6, 1e6));
            app.add_option("--count", o->count, "how many modes to print (default 10)")
                ->type_name("N")
                ->check(integerBetween(1, 100000));
            return CommandAction([o] { return modes(*o); });
          }};
}

}  // namespace flexarm::cli
