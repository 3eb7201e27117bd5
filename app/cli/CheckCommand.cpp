// flexarm-cli check PROJECT: validate a project file and print a summary of the arm it describes.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "dynamics/Centreline.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "base/NumberFormat.hpp"
#include "io/ProjectFile.hpp"
#include "base/Constants.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"

namespace flexarm::cli {

namespace {

// A grid of up to this many points is checked point by point; a larger one value by value.
constexpr std::size_t kCheckedGridPoints = 1000;
// The invalid variants and grid points named; the rest are counted.
constexpr int kReportedInvalidCases = 10;

int check(const ProjectInput& in) {
  const std::optional<Project> project = loadProject(in);
  if (!project) return kExitBadInput;
  // Every variant, and every value of the study's grid, must make a valid project: a misspelled path
  // would otherwise do nothing (the runs compared would be the same), and a value out of range would
  // be found only when its case runs.
  std::vector<StudyCase> cases;
  for (const Variant& v : project->variants)
    if (const Result<StudyCase> c = variantCase(*project, v.name)) cases.push_back(c.value());
  if (project->study && !project->study->grid.empty()) {
    const std::vector<StudyCase> grid = studyCases(*project);
    cases.insert(cases.end(), grid.begin(), grid.begin() + static_cast<long>(std::min(grid.size(), kCheckedGridPoints)));
    if (grid.size() > kCheckedGridPoints) {  // too many to load each: every value of each axis, the others at their first
      const Study& st = *project->study;
      for (std::size_t g = 0; g < st.grid.size(); ++g)
        for (std::size_t v = 1; v < st.grid[g].second.size(); ++v) {
          StudyCase c = grid.front();
          c.overrides[g] = st.grid[g].first + "=" + st.grid[g].second[v];
          c.name = c.overrides[g] + " (with the other paths at their first value)";
          cases.push_back(c);
        }
    }
  }
  int refused = 0;
  for (const StudyCase& c : cases)
    if (const Result<Project> p = caseProject(*project, std::filesystem::path(in.path).parent_path(), c); !p) {
      if (++refused > kReportedInvalidCases) continue;
      std::cerr << "flexarm-cli: " << in.path << ": "
                << (c.name.find('=') == std::string::npos ? "variant " : "study grid point ") << c.name
                << " is not a valid project:\n"
                << p.error().text();
    }
  if (refused > kReportedInvalidCases)
    std::cerr << "flexarm-cli: " << in.path << ": " << refused - kReportedInvalidCases
              << " more invalid variants or grid points\n";
  if (refused) return kExitBadInput;
  const Model& m = project->model;
  const MultibodySystem sys = MultibodySystem::fromModel(m, project->coupling);
  // What the summary prints must be numbers: a first frequency that is not one is a model out of range.
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    const Body& b = sys.bodies[i];
    if (m.links[i].flex && b.flexible && b.flexible->frequencies.size() && !std::isfinite(b.flexible->frequencies(0)))
      return fail(in.path + ": links[" + std::to_string(i) + "]: the first clamped-free frequency is " +
                      formatNumber(b.flexible->frequencies(0) / (2 * kPi)) +
                      " Hz, not a finite number (the model is out of the range double precision can compute)",
                  kExitSolverFailure);
  }
  int prescribed = 0;
  double total_mass = 0.0;
  for (const Link& l : m.links) total_mass += l.mass;
  for (const Joint& j : m.joints) total_mass += j.mass;
  for (const Payload& p : m.payloads) total_mass += p.mass;
  for (const Joint& j : m.joints) prescribed += j.drive.kind == JointDrive::Kind::Prescribed ? 1 : 0;
  std::cout << "project: " << project->name << "\n";
  std::cout << "bodies: " << m.links.size() << " links, " << m.payloads.size() << " payloads, total mass "
            << formatNumber(total_mass) << " kg\n";
  int motors = 0, elastic = 0;
  for (const Body& b : sys.bodies) {
    motors += b.hasFlexibleJoint() ? 1 : 0;
    elastic += b.e_count;
  }
  std::cout << "degrees of freedom: " << sys.nq << " (" << sys.nq - prescribed << " free, " << prescribed << " prescribed; "
            << m.joints.size() << " joint, " << motors << " motor, " << elastic << " elastic)\n";
  std::cout << "coupling: " << couplingName(project->coupling) << "\n";
  std::cout << "gravity: [" << formatNumber(m.gravity.x()) << ", " << formatNumber(m.gravity.y()) << ", "
            << formatNumber(m.gravity.z()) << "] m/s^2\n";
  // Where each link lies at the initial configuration (undeformed): a flexible link's beam runs along
  // this world direction, from its joint to its distal frame.
  Eigen::VectorXd q0, qd0;
  sys.initialState(m, q0, qd0);
  for (int k = 0; k < sys.nq; ++k)
    if (sys.coordinates.kinds[static_cast<std::size_t>(k)] == CoordinateKind::Elastic) q0(k) = 0.0;
  DynamicsData data(sys);
  const auto lines = deformedCentrelines(sys, data, q0, 2);
  std::cout << "joints:\n";
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    std::cout << "  " << j.name << ": " << jointTypeName(j.type) << (j.flex ? " (flexible)" : "") << " -> link "
              << m.links[i].name;
    if (m.links[i].flex) {
      const Body& b = sys.bodies[i];
      const double f1 = b.flexible->frequencies.size() ? b.flexible->frequencies(0) / (2 * kPi) : 0.0;
      const Eigen::Vector3d from = lines[i].front(), to = lines[i].back();
      const Eigen::Vector3d axis =
          (to - from).norm() > 0.0 ? Eigen::Vector3d((to - from).normalized()) : Eigen::Vector3d::UnitX();
      auto round = [](double v) { return formatShort(std::abs(v) < 1e-15 ? 0.0 : v, 6); };
      std::cout << " (flexible, " << b.e_count << " elastic coordinates, first clamped-free frequency " << formatShort(f1, 6)
                << " Hz; at q0 its " << formatShort(m.links[i].length, 6) << " m beam runs from [" << round(from.x()) << ", "
                << round(from.y()) << ", " << round(from.z()) << "] along [" << round(axis.x()) << ", " << round(axis.y()) << ", "
                << round(axis.z()) << "] in the world)";
    }
    std::cout << ", drive " << driveKindName(j.drive.kind);
    if (j.drive.kind != JointDrive::Kind::Free) std::cout << " (" << lawName(j.drive.law.law) << ")";
    std::cout << "\n";
  }
  const SimulationSettings& s = project->simulation;
  std::cout << "simulation: t_end " << formatNumber(s.t_end) << " s, " << describeSolver(s) << "\n";
  if (const SolverChoice choice = chooseSolver(sys, project->simulation); choice.automatic)
    std::cout << "method: " << choice.summary << ": " << choice.reason << "\n";
  std::cout << "ok\n";
  return kExitOk;
}

}  // namespace

Command checkCommand() {
  return {"check", "PROJECT [--set PATH=VALUE ...]",
          "Validate a project file and print a summary (bodies, degrees of freedom, drives).", [](CLI::App& app) {
            auto in = std::make_shared<ProjectInput>();
            addProjectArguments(app, *in, false);
            return CommandAction([in] { return check(*in); });
          }};
}

}  // namespace flexarm::cli
