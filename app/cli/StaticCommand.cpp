// flexarm-cli static PROJECT: the static equilibrium under gravity, the loads and the drives.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "analysis/StaticEquilibrium.hpp"
#include "base/NumberFormat.hpp"
#include "model/Names.hpp"
#include "results/CsvMetadata.hpp"
#include "results/CsvWriter.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct StaticCliOptions {
  ProjectInput project;
  double t = 0.0;
  std::string out;
};

// The value of channel `name` in the one row of r (NaN when absent).
double rowValue(const Results& r, const std::string& name) {
  const int c = r.channelIndex(name);
  return c < 0 || r.rows() == 0 ? std::nan("") : r.value(0, static_cast<std::size_t>(c));
}

int solveStatic(const StaticCliOptions& o) {
  const std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  if (!o.out.empty() && (!checkOutputFile(o.out) || !checkOutputFile(csvMetadataFile(o.out).string()))) return kExitBadInput;
  stopOnSignals();
  const MultibodySystem sys = MultibodySystem::fromModel(project->model, project->coupling);
  StaticOptions options;
  options.t = o.t;
  options.cancel = &cancelFlag();
  const StaticSolution s = staticEquilibrium(*project, sys, options);
  if (s.interrupted) return fail("interrupted", kExitInterrupted);
  if (!s.converged) return fail(o.project.path + ": " + s.message, kExitSolverFailure);
  if (!s.q.allFinite() || !s.effort.allFinite()) return fail("the equilibrium found is not finite", kExitSolverFailure);

  const Model& m = project->model;
  std::cout << "project: " << project->name << " (" << couplingName(project->coupling) << "-order coupling)\n";
  std::cout << "static equilibrium at t = " << formatNumber(o.t) << " s under gravity [" << formatNumber(m.gravity.x()) << ", "
            << formatNumber(m.gravity.y()) << ", " << formatNumber(m.gravity.z()) << "] m/s^2 and " << m.loads.size()
            << (m.loads.size() == 1 ? " load" : " loads") << ": " << s.iterations << " Newton iterations ("
            << (s.difference_jacobians == 0 ? std::string("on the tangent stiffness")
                                            : std::to_string(s.difference_jacobians) + " difference-quotient Jacobian" +
                                                  (s.difference_jacobians == 1 ? "" : "s"))
            << "), " << s.load_steps << (s.load_steps == 1 ? " load step" : " load steps");
  if (s.force_scale > 1e-200)
    std::cout << ", force residual " << formatShort(s.residual, 2) << " of " << formatShort(s.force_scale, 3) << "\n";
  else
    std::cout << " (no force acts on the free coordinates: the arm rests where its drives hold it)\n";
  std::printf("%-20s %16s %16s  %s\n", "joint", "position", "effort", "");
  for (std::size_t j = 0; j < m.joints.size(); ++j) {
    const Joint& joint = m.joints[j];
    const Body& b = sys.bodies[j];
    const bool revolute = joint.type == JointType::Revolute;
    const std::string position = formatShort(s.q(b.q_index), 6) + (revolute ? " rad" : " m");
    const std::string effort = formatShort(s.effort(static_cast<int>(j)), 6) + (revolute ? " N m" : " N");
    const char* what = joint.drive.kind == JointDrive::Kind::Prescribed ? "(held at its prescribed position)"
                       : joint.drive.kind == JointDrive::Kind::PD       ? "(PD drive)"
                       : joint.drive.kind == JointDrive::Kind::Effort   ? "(effort law)"
                                                                        : "";
    std::printf("%-20s %16s %16s  %s\n", joint.name.c_str(), position.c_str(), effort.c_str(), what);
    if (b.hasFlexibleJoint())
      std::printf("%-20s %16s\n", ("  torsion " + joint.name).c_str(),
                  (formatShort(rowValue(s.results, names::jointTorsion(joint.name)), 6) + (revolute ? " rad" : " m")).c_str());
  }
  bool header = false;
  for (const Link& link : m.links) {
    if (!link.flex) continue;
    if (!header) std::printf("%-20s %14s %14s %14s %14s\n", "flexible link tip", "u [m]", "v [m]", "w [m]", "twist [rad]");
    header = true;
    std::printf("%-20s %14s %14s %14s %14s\n", link.name.c_str(),
                formatShort(rowValue(s.results, names::linkTip(link.name, "u")), 6).c_str(),
                formatShort(rowValue(s.results, names::linkTip(link.name, "v")), 6).c_str(),
                formatShort(rowValue(s.results, names::linkTip(link.name, "w")), 6).c_str(),
                formatShort(rowValue(s.results, names::linkTip(link.name, "phi")), 6).c_str());
  }
  std::cout << "end effector: [" << formatShort(rowValue(s.results, names::endEffector('x')), 6) << ", "
            << formatShort(rowValue(s.results, names::endEffector('y')), 6) << ", "
            << formatShort(rowValue(s.results, names::endEffector('z')), 6) << "] m\n";
  if (!o.out.empty()) {
    if (const Status written = writeCsvFile(s.results, o.out); !written) return fail(written.error().text());
    std::cout << "results: 1 row x " << s.results.channels().size() << " channels written to " << fs::absolute(o.out).string()
              << "\n";
  }
  std::cout.flush();
  if (!std::cout) return fail("cannot write to standard output");
  return kExitOk;
}

}  // namespace

Command staticCommand() {
  return {"static", "PROJECT [--time T] [--out FILE.csv] [--set PATH=VALUE ...]",
          "The static equilibrium of the arm held still at time T (default 0): gravity and the\n"
          "loads balanced by the drives (PD set-points, effort laws, prescribed joints held) and the\n"
          "links' and joints' stiffness. Prints each joint's position and effort and each flexible\n"
          "link's tip deflection; --out writes every channel of that state as one CSV row.",
          [](CLI::App& app) {
            auto o = std::make_shared<StaticCliOptions>();
            addProjectArguments(app, o->project, false);
            app.add_option("--time", o->t, "the time at which the drives' and loads' laws are taken [s] (default 0)")
                ->type_name("T")
                ->check(CLI::Range(0.0, 1e6));
            app.add_option("-o,--out", o->out, "write the equilibrium state as one CSV row (every channel of a run)")
                ->type_name("FILE")
                ->check(nonEmptyPath());
            return CommandAction([o] { return solveStatic(*o); });
          }};
}

}  // namespace flexarm::cli
