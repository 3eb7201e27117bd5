// flexarm-cli linearize PROJECT --out model.mat|model.csv: the linear state-space model (A, B, C, D)
// of the arm about its initial configuration or a steady spin, with named states, inputs and outputs
// (core/analysis/StateSpace, StateSpaceFile), for control design in MATLAB, Octave or SciPy.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "FiniteOutput.hpp"
#include "analysis/StateSpace.hpp"
#include "analysis/StateSpaceFile.hpp"
#include "base/NumberFormat.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct LinearizeOptions {
  ProjectInput project;
  std::string inputs = "joints";
  std::string outputs = "tip,joints";
  std::string out;
  bool lock_joints = false;
  std::optional<double> spin;
};

// "a,b,c" -> {a, b, c}; "" -> {} (no names); "a,,b" keeps the empty name, which is refused by name.
std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  std::stringstream in(text + ",");
  std::string item;
  while (std::getline(in, item, ',')) items.push_back(item);
  return items;
}

std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 8) s += ", ...";
  return s;
}

int linearizeModel(const LinearizeOptions& o) {
  stopAnalysisOnSignals();  // Ctrl-C stops the linearization: exit 130
  const std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  const std::string ext = fs::path(o.out).extension().string();
  if (ext != ".mat" && ext != ".csv" && ext != ".MAT" && ext != ".CSV")
    return fail("--out: the model is written as .mat (MATLAB 5) or .csv, not \"" + o.out + "\"");
  const MultibodySystem system = MultibodySystem::fromModel(project->model, project->coupling);  // once, for both
  const Result<StateSpaceSignals> selection = selectSignals(*project, system, commaList(o.inputs), commaList(o.outputs));
  if (!selection) return fail(selection.error().text());
  if (!checkOutputFile(o.out)) return kExitBadInput;  // before the linearization, not after it
  LinearizationOptions options;
  options.lock_joints = o.lock_joints;
  options.spin_rate = o.spin;
  options.cancel = &cancelFlag();
  const Result<StateSpaceModel> model = stateSpaceModel(*project, system, selection.value(), options);
  if (!model && cancelFlag()) return fail("interrupted", kExitInterrupted);
  if (!model) return fail("the linearization failed: " + model.error().text(), kExitSolverFailure);
  const StateSpaceModel& m = model.value();
  for (const auto& [matrix, name] :
       {std::pair<const Eigen::MatrixXd*, const char*>{&m.A, "A"}, {&m.B, "B"}, {&m.C, "C"}, {&m.D, "D"}})
    if (const std::string bad = nonFiniteEntry(*matrix, name); !bad.empty()) return failNonFinite(bad);
  if (const std::string bad = nonFiniteMode(m.linearization); !bad.empty()) return failNonFinite(bad);
  if (const Status written = writeStateSpaceFile(m, stateSpaceDescription(*project), o.out); !written)
    return fail(written.error().text());
  std::cout << "project: " << project->name << " (" << couplingName(project->coupling) << "-order coupling)\n";
  std::cout << "linearized about " << m.operating_point << "\n";
  const LinearizationResult& r = m.linearization;
  if (r.joint_residual > 1e-6)
    std::cout << "note: the configuration is not an equilibrium of the free joints (unbalanced generalized force "
              << formatNumber(r.joint_residual) << "); the model is the instantaneous linearization\n";
  for (const std::string& held : m.held_inputs)
    std::cout << "note: " << held << " acts on a held joint (prescribed, --lock-joints or --spin): its column of B is zero\n";
  if (r.rigid_body_modes > 0)
    std::cout << "rigid-body modes (zero frequency): " << r.rigid_body_modes << " (A is singular: no static gain)\n";
  std::cout << "states:  " << m.states.size() << " (" << listed(m.states) << ")\n";
  std::cout << "inputs:  " << m.inputs.size() << " (" << listed(m.inputs) << ")\n";
  std::cout << "outputs: " << m.outputs.size() << " (" << listed(m.outputs) << ")\n";
  if (!r.modes.empty()) {
    std::cout << "lowest natural frequencies [Hz]:";
    for (std::size_t k = 0; k < r.modes.size() && k < 4; ++k) std::cout << " " << formatShort(r.modes[k].frequency_hz, 6);
    std::cout << "\n";
  }
  std::cout << "written to " << fs::absolute(o.out).string() << "\n";
  return kExitOk;
}

}  // namespace

Command linearizeCommand() {
  return {"linearize",
          "PROJECT [--inputs joints|JOINT,...] [--outputs tip,joints|CHANNEL,...] [--lock-joints] [--spin OMEGA] "
          "--out FILE.mat|FILE.csv [--set PATH=VALUE ...]",
          "Linear state-space model dx/dt = A x + B u, y = C x + D u of the arm about its initial\n"
          "configuration (elastic and motor coordinates at their equilibrium), with every joint held\n"
          "(--lock-joints), or about a steady spin of joint 1 (--spin), for control design. States: the\n"
          "free coordinates and their rates; inputs: joint efforts [N m or N] added to the drives';\n"
          "outputs: result channels (default: every flexible link's tip deflection tip.<link>.v/.w and\n"
          "every joint angle). Written as a MATLAB 5 .mat file (A, B, C, D, the names as cell arrays)\n"
          "or as CSV blocks [A] [B] [C] [D] with named rows and columns.",
          [](CLI::App& app) {
            auto o = std::make_shared<LinearizeOptions>();
            addProjectArguments(app, o->project, false);
            app.add_option("--inputs", o->inputs, "joint efforts in: joints (all, the default) or joint names, comma-separated")
                ->type_name("LIST");
            app.add_option("--outputs", o->outputs,
                           "outputs: tip (tip deflections), joints (joint angles) or channels such as tip.beam.y, "
                           "comma-separated (default tip,joints)")
                ->type_name("LIST");
            app.add_flag("--lock-joints", o->lock_joints, "hold every joint (their efforts then move nothing)");
            app.add_option("--spin", o->spin, "linearize about a steady spin of joint 1 at OMEGA rad/s")
                ->type_name("OMEGA")
                ->check(CLI::Range(-1e6, 1e6));
            app.add_option("-o,--out", o->out, "the model file to write: .mat (MATLAB 5) or .csv")
                ->type_name("FILE")
                ->required()
                ->check(nonEmptyPath());
            return CommandAction([o] { return linearizeModel(*o); });
          }};
}

}  // namespace flexarm::cli
