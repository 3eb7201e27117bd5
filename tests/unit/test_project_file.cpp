// Project files: save -> load -> save is byte-stable, every problem is reported with its path,
// unknown keys become warnings, tables load from files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dynamics/MultibodySystem.hpp"
#include "io/ProjectFile.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

namespace {
std::vector<fs::path> shippedProjects() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(FLEXARM_PROJECTS_DIR))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool mentions(const Diagnostics& d, const std::string& text, Diagnostic::Severity sev) {
  for (const auto& x : d.all())
    if (x.severity == sev && x.text().find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST(ProjectFile, ShippedProjectsLoadWithoutDiagnostics) {
  const auto files = shippedProjects();
  ASSERT_GE(files.size(), 2u);
  for (const auto& f : files) {
    const LoadedProject p = loadProjectFile(f);
    EXPECT_TRUE(p.project.has_value()) << f << "\n" << p.diagnostics.text();
    EXPECT_TRUE(p.diagnostics.all().empty()) << f << "\n" << p.diagnostics.text();
  }
}

TEST(ProjectFile, SaveLoadSaveIsByteStable) {
  for (const auto& f : shippedProjects()) {
    const LoadedProject a = loadProjectFile(f);
    ASSERT_TRUE(a.project) << f;
    const std::string first = projectToText(*a.project);
    const LoadedProject b = parseProjectText(first, f.parent_path());
    ASSERT_TRUE(b.project) << b.diagnostics.text();
    EXPECT_TRUE(b.diagnostics.all().empty()) << b.diagnostics.text();
    EXPECT_EQ(projectToText(*b.project), first) << f;
  }
}

TEST(ProjectFile, SavesAreByteIdenticalToTheCanonicalFilesOfEveryShippedProject) {
  // tests/data/canonical/ holds what the writer made of each shipped project before the writer
  // was driven by core/io/ProjectSchema (issue 16): a changed key order, number format or default
  // shows here as a changed byte.
  for (const auto& f : shippedProjects()) {
    const LoadedProject p = loadProjectFile(f);
    ASSERT_TRUE(p.project) << f;
    std::ifstream in(fs::path(FLEXARM_TEST_DATA_DIR) / "canonical" / f.filename(), std::ios::binary);
    ASSERT_TRUE(in) << "no canonical save for " << f.filename();
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(projectToText(*p.project), expected.str()) << f;
  }
}

TEST(ProjectFile, SaveFileWritesAtomicallyAndReadsBack) {
  const LoadedProject a = loadProjectFile(fs::path(FLEXARM_PROJECTS_DIR) / "spatial-3r-arm.flexarm.json");
  ASSERT_TRUE(a.project);
  const fs::path out = fs::temp_directory_path() / "flexarm-save-test.flexarm.json";
  ASSERT_TRUE(saveProjectFile(*a.project, out));
  EXPECT_FALSE(fs::exists(out.string() + ".tmp"));
  const LoadedProject b = loadProjectFile(out);
  ASSERT_TRUE(b.project) << b.diagnostics.text();
  EXPECT_EQ(projectToText(*b.project), projectToText(*a.project));
  // Values survive exactly (shortest round-trip number formatting).
  EXPECT_EQ(b.project->model.joints[1].placement.rpy.y(), a.project->model.joints[1].placement.rpy.y());
  fs::remove(out);
  EXPECT_FALSE(saveProjectFile(*a.project, "/nonexistent-dir/x.json"));
}

TEST(ProjectFile, UnknownKeysAreWarningsNotErrors) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1, "colour": "red",
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod", "radius": 3}, "paint": {}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1], "drive": {"type": "free", "gain": 2}}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_TRUE(mentions(p.diagnostics, "colour: unknown key", Diagnostic::Severity::Warning));
  EXPECT_TRUE(mentions(p.diagnostics, "links[0].paint: unknown key", Diagnostic::Severity::Warning));
  EXPECT_TRUE(mentions(p.diagnostics, "links[0].shape.radius: unknown key", Diagnostic::Severity::Warning));
  EXPECT_TRUE(mentions(p.diagnostics, "joints[0].drive.gain: unknown key", Diagnostic::Severity::Warning));
  EXPECT_EQ(projectToText(*p.project).find("colour"), std::string::npos);
}

// Found by tests/fuzz: the norm of [1e308, 1e308, 1e308] overflowed and the axis became [0, 0, 0]
// (accepted, and refused once saved); a saved unit axis such as [0.7071067811865475, 0, ...] was
// divided by a norm one ulp from 1 and saved one digit different.
TEST(ProjectFile, JointAxesAreNormalizedWithoutOverflowAndStayAsSaved) {
  auto axisOf = [](const std::string& axis) {
    const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
      "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
      "joints": [{"name": "j", "type": "revolute", "axis": )" +
                             axis + "}]}";
    const LoadedProject p = parseProjectText(text, ".");
    EXPECT_TRUE(p.project) << axis << ": " << p.diagnostics.text();
    return p.project ? p.project->model.joints[0].axis : Eigen::Vector3d::Zero().eval();
  };
  const Eigen::Vector3d huge = axisOf("[1e308, 1e308, 1e308]");
  EXPECT_NEAR(huge.x(), 1 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(huge.norm(), 1.0, 1e-15);
  EXPECT_NEAR(axisOf("[0, 3e100, 4e100]").z(), 0.8, 1e-15);
  const Eigen::Vector3d beyond = axisOf("[-1e308, 1.7976931348623157e308, 0]");  // norm above the largest double
  EXPECT_NEAR(beyond.norm(), 1.0, 1e-15);
  EXPECT_NEAR(beyond.y() / -beyond.x(), 1.7976931348623157, 1e-15);
  EXPECT_EQ(axisOf("[0, 0, 2]"), Eigen::Vector3d(0, 0, 1));
  const Eigen::Vector3d saved(0.7071067811865475, 0.7071067811865475, 0.0);  // norm 1 - 1 ulp
  EXPECT_EQ(axisOf("[0.7071067811865475, 0.7071067811865475, 0]"), saved);
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [1, 1, 0]}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const std::string once = projectToText(*p.project);
  const LoadedProject again = parseProjectText(once, ".");
  ASSERT_TRUE(again.project) << again.diagnostics.text();
  EXPECT_EQ(projectToText(*again.project), once);
}

// Found by tests/fuzz: a constraint's name and an unknown coordinate were echoed whole by the check
// of the constraints against the discretized system (a message of 100 kB).
TEST(ProjectFile, ConstraintMessagesEchoNamesShort) {
  const std::string name(100000, 'c'), coordinate = "q." + std::string(100000, 'x');
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1]}],
    "constraints": [{"name": ")" +
                           name + R"(", "type": "coordinates", "terms": {")" + coordinate +
                           R"(": 1}}],
    "simulation": {"solver": {"method": "ida"}}})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_FALSE(p.project);
  ASSERT_EQ(p.diagnostics.all().size(), 1u) << p.diagnostics.text().substr(0, 300);
  const std::string message = p.diagnostics.all()[0].text();
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  EXPECT_EQ(message.rfind("error: constraints: constraint 'ccc", 0), 0u) << message.substr(0, 400);
  EXPECT_NE(message.find("no coordinate named \"q.xxx"), std::string::npos) << message.substr(0, 400);
}

// Found by tests/fuzz: keys the file chooses (a study grid's paths, a constraint's coordinates) were
// echoed whole in the path of a message.
TEST(ProjectFile, KeysOfTheFileAreEchoedShortInPaths) {
  const std::string key = "links[0]." + std::string(100000, 'k');
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1]}],
    "constraints": [{"name": "c", "type": "coordinates", "terms": {")" +
                           key + R"(": "one"}}],
    "study": {"grid": {")" +
                           key + R"(": 5e-7}},
    "simulation": {"solver": {"method": "ida"}}})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_FALSE(p.project);
  EXPECT_TRUE(mentions(p.diagnostics, "study.grid.links[0].kkk", Diagnostic::Severity::Error))
      << p.diagnostics.text().substr(0, 500);
  EXPECT_TRUE(mentions(p.diagnostics, "constraints[0].terms.links[0].kkk", Diagnostic::Severity::Error))
      << p.diagnostics.text().substr(0, 500);
  for (const Diagnostic& d : p.diagnostics.all()) EXPECT_LT(d.text().size(), 400u) << d.text().substr(0, 400);
}

TEST(ProjectFile, ReportsEveryErrorNotJustTheFirst) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": -1, "mass": -2, "shape": {"type": "rod"}},
              {"name": "b", "length": 1, "mass": "x", "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "ball", "axis": [0, 0, 1]},
               {"name": "k", "type": "revolute", "axis": [0, 0, 0]}],
    "simulation": {"t_end": 0}})";
  const LoadedProject p = parseProjectText(text, ".");
  EXPECT_FALSE(p.project);
  for (const char* expected : {"links[0].length: must be >= 0, got -1", "links[0].mass: must be > 0, got -2",
                               "links[1].mass: must be a number", "joints[0].type: unknown value \"ball\"",
                               "joints[1].axis: must not be the zero vector", "simulation.t_end: must be > 0, got 0"})
    EXPECT_TRUE(mentions(p.diagnostics, expected, Diagnostic::Severity::Error)) << expected << "\n" << p.diagnostics.text();
}

TEST(ProjectFile, TableFromCsvFileRelativeToProject) {
  const fs::path dir = fs::temp_directory_path() / "flexarm-table-test";
  fs::create_directories(dir);
  std::ofstream(dir / "torque.csv") << "# a torque profile\ntime,torque\n0, 0\n1.0, 2.0\n2.0;1.0\n";
  std::ofstream(dir / "p.json") << R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1],
                "drive": {"type": "effort", "law": "table", "file": "torque.csv", "interpolation": "linear"}}]})";
  const LoadedProject p = loadProjectFile(dir / "p.json");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const TimeFunction& law = p.project->model.joints[0].drive.law;
  EXPECT_EQ(law.table_t.size(), 3u);
  EXPECT_DOUBLE_EQ(law.evaluate(1.5).value, 1.5);
  // Saved as the file reference, not as inline points.
  EXPECT_NE(projectToText(*p.project).find("\"file\": \"torque.csv\""), std::string::npos);
  fs::remove_all(dir);
}

TEST(ProjectFile, MissingFileIsAClearError) {
  const LoadedProject p = loadProjectFile("/no/such/project.json");
  EXPECT_FALSE(p.project);
  EXPECT_TRUE(mentions(p.diagnostics, "cannot open project file", Diagnostic::Severity::Error));
}

TEST(ProjectFile, JointLimitsAreReadCheckedAndWrittenBack) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}, {"name": "b", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1], "q0": 2,
                "limits": {"lower": -1.5, "upper": 1.5, "effort": 300, "velocity": 2}},
               {"name": "k", "type": "revolute", "axis": [0, 0, 1], "limits": {"velocity": 3}}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const JointLimits& l = p.project->model.joints[0].limits;
  ASSERT_TRUE(l.lower && l.upper && l.effort && l.velocity);
  EXPECT_EQ(*l.upper, 1.5);
  EXPECT_FALSE(p.project->model.joints[1].limits.lower);
  EXPECT_TRUE(
      mentions(p.diagnostics, "joints[0].limits.upper: q0 = 2 is outside the joint's limits", Diagnostic::Severity::Warning))
      << p.diagnostics.text();
  const Json saved = projectToJson(*p.project);
  EXPECT_EQ(saved["joints"][0]["limits"]["effort"], 300.0);
  EXPECT_EQ(saved["joints"][1]["limits"], Json({{"velocity", 3.0}}));

  std::string bad = text;
  bad.replace(bad.find("\"effort\": 300"), 13, "\"effort\": -3");
  bad.replace(bad.find("\"lower\": -1.5"), 13, "\"lower\": 1.75");
  const LoadedProject q = parseProjectText(bad, ".");
  EXPECT_FALSE(q.project);
  EXPECT_TRUE(mentions(q.diagnostics, "joints[0].limits.effort: must be >= 0", Diagnostic::Severity::Error))
      << q.diagnostics.text();
  EXPECT_TRUE(mentions(q.diagnostics, "joints[0].limits.upper: must be >= lower (1.75), got 1.5", Diagnostic::Severity::Error));
}

TEST(ProjectFile, SameSystemWhenOnlySimulationSettingsNameOrVariantsDiffer) {
  const std::string file = std::string(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json";
  auto load = [&](std::vector<std::string> overrides) {
    LoadedProject p = loadProjectFile(file, overrides);
    EXPECT_TRUE(p.project) << p.diagnostics.text();
    return p.project ? *p.project : Project{};
  };
  const Project base = load({});
  EXPECT_TRUE(sameSystem(base, load({"simulation.t_end=0.5", "simulation.accuracy=1e-5", "name=\"other\""})));
  EXPECT_TRUE(sameSystem(base, load({"simulation.solver.method=\"bdf\"", "simulation.output_rate=50"})));
  // What the discretized system holds: coupling, links, joints (their drives too), gravity.
  EXPECT_FALSE(sameSystem(base, load({"coupling=\"zero\""})));
  EXPECT_FALSE(sameSystem(base, load({"links[0].flex.elements=12"})));
  EXPECT_FALSE(sameSystem(base, load({"joints[0].drive.value=0.1"})));
  EXPECT_FALSE(sameSystem(base, load({"gravity=[0, 0, -9.8]"})));
}

TEST(ProjectFile, LoadsAreReadCheckedAndWrittenBack) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "arm", "length": 1, "mass": 1, "shape": {"type": "rod"}},
              {"name": "beam", "length": 0.8, "flex": {"section": {"preset": "rectangle", "width": 0.01, "height": 0.03},
               "material": {"preset": "aluminium"}, "basis": "fem", "elements": 3, "layout": "spatial"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1]}, {"name": "k", "type": "revolute", "axis": [0, 0, 1]}],
    "loads": [{"name": "tool", "link": "beam", "point": [0.8, 0, 0.02], "force": [0, 0, -20], "axes": "link",
               "law": {"law": "step", "before": 0, "after": 1, "t_step": 0.5}},
              {"link": "arm", "point": [0.5, 0.1, 0], "torque": [0, 0, 3]}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const std::vector<Load>& loads = p.project->model.loads;
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0].link, 1);
  EXPECT_EQ(loads[0].axes, Load::Axes::Link);
  EXPECT_EQ(loads[0].law.law, TimeFunction::Law::Step);
  EXPECT_EQ(loads[1].name, "load2");
  EXPECT_EQ(loads[1].axes, Load::Axes::World);
  EXPECT_EQ(loads[1].force, Eigen::Vector3d::Zero());
  EXPECT_EQ(loads[1].law.evaluate(3.0).value, 1.0);  // no law: the force as given, at every time
  const Json saved = projectToJson(*p.project);
  EXPECT_EQ(saved["loads"][0]["axes"], "link");
  EXPECT_EQ(saved["loads"][1]["torque"], Json::array({0.0, 0.0, 3.0}));
  const LoadedProject again = parseProjectText(saved.dump(), ".");
  ASSERT_TRUE(again.project) << again.diagnostics.text();
  EXPECT_EQ(projectToJson(*again.project), saved);

  std::string bad = text;
  bad.replace(bad.find("[0.8, 0, 0.02]"), 14, "[0.9, 0, 0.02]");
  bad.replace(bad.find("\"link\": \"arm\""), 13, "\"link\": \"nope\"");
  bad.replace(bad.find("\"torque\": [0, 0, 3]"), 19, "\"torque\": [0, 0, 3e12]");
  const LoadedProject q = parseProjectText(bad, ".");
  EXPECT_FALSE(q.project);
  EXPECT_TRUE(mentions(q.diagnostics,
                       "loads[0].point: a load on the flexible link \"beam\" acts at a section x = point[0] between 0 "
                       "and its length 0.8 m, got 0.9",
                       Diagnostic::Severity::Error))
      << q.diagnostics.text();
  EXPECT_TRUE(mentions(q.diagnostics, "loads[1].link: no link is named \"nope\"", Diagnostic::Severity::Error));
  EXPECT_TRUE(mentions(q.diagnostics, "loads[1].torque: each component must be between -1e+09 and 1e+09 N m",
                       Diagnostic::Severity::Error))
      << q.diagnostics.text();
}

TEST(ProjectFile, InitialElasticRatesNeedOneValuePerCoordinateAndAreWrittenBack) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "beam", "length": 1, "flex": {"section": {"preset": "rectangle", "width": 0.01, "height": 0.03},
               "material": {"preset": "aluminium"}, "basis": "modes", "modes": {"bending_y": 3}, "ed0": [0.1, 0, 0]}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1]}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->model.links[0].flex->ed0, std::vector<double>({0.1, 0.0, 0.0}));
  EXPECT_EQ(projectToJson(*p.project)["links"][0]["flex"]["ed0"], Json::array({0.1, 0.0, 0.0}));
  std::string bad = text;
  bad.replace(bad.find("[0.1, 0, 0]"), 11, "[0.1, 0]");
  const LoadedProject q = parseProjectText(bad, ".");
  EXPECT_FALSE(q.project);
  EXPECT_TRUE(mentions(q.diagnostics, "links[0].flex.ed0: must have one value per elastic coordinate (3), got 2",
                       Diagnostic::Severity::Error))
      << q.diagnostics.text();
}

TEST(ProjectFile, StartTimeAndInitialTorsionAreReadCheckedAndWrittenOnlyWhenSet) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "rod", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1], "q0": 0.5,
                "flex": {"stiffness": 100, "rotor_inertia": 0.01, "gear_ratio": 10, "torsion0": 0.01, "torsiond0": -0.2}}],
    "simulation": {"t_start": 1.5, "t_end": 4}})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->simulation.t_start, 1.5);
  EXPECT_EQ(p.project->model.joints[0].flex->torsion0, 0.01);
  EXPECT_EQ(p.project->model.joints[0].flex->torsiond0, -0.2);
  const Json written = projectToJson(*p.project);
  EXPECT_EQ(written["simulation"]["t_start"], 1.5);
  EXPECT_EQ(written["simulation"].begin().key(), "t_start");
  EXPECT_EQ(written["joints"][0]["flex"]["torsion0"], 0.01);
  // The motor starts twisted: N (q0 + torsion0), its rate N (qd0 + torsiond0).
  const MultibodySystem sys = MultibodySystem::fromModel(p.project->model, p.project->coupling);
  Eigen::VectorXd q, qd;
  sys.initialState(p.project->model, q, qd);
  EXPECT_DOUBLE_EQ(q(sys.bodies[0].motor_index), 10 * 0.51);
  EXPECT_DOUBLE_EQ(qd(sys.bodies[0].motor_index), -2.0);
  // Not set: not written, so that every other project's file stays as it was.
  Project plain = *p.project;
  plain.simulation.t_start = 0;
  plain.model.joints[0].flex->torsion0 = plain.model.joints[0].flex->torsiond0 = 0;
  const Json plain_json = projectToJson(plain);
  EXPECT_FALSE(plain_json["simulation"].contains("t_start"));
  EXPECT_FALSE(plain_json["joints"][0]["flex"].contains("torsion0"));
  std::string late = text;
  const std::string end4 = "\"t_end\": 4";
  late.replace(late.find(end4), end4.size(), "\"t_end\": 1");
  const LoadedProject q2 = parseProjectText(late, ".");
  EXPECT_FALSE(q2.project);
  EXPECT_TRUE(
      mentions(q2.diagnostics, "simulation.t_start: must be before simulation.t_end 1 s, got 1.5 s", Diagnostic::Severity::Error))
      << q2.diagnostics.text();
}

TEST(ProjectFile, PiecewiseLawsAreReadCheckedAndWrittenBack) {
  const std::string text = R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "rod", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1], "drive": {"type": "effort", "law": "piecewise",
      "pieces": [{"from": 0, "law": {"law": "constant", "value": 2}},
                 {"from": 1.5, "law": {"law": "table", "points": [[1.5, 1], [3, 0]]}}]}}]})";
  const LoadedProject p = parseProjectText(text, ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const TimeFunction& law = p.project->model.joints[0].drive.law;
  EXPECT_EQ(law.law, TimeFunction::Law::Piecewise);
  EXPECT_EQ(law.evaluate(1.0).value, 2.0);
  EXPECT_NEAR(law.evaluate(2.25).value, 0.5, 1e-15);
  const Json saved = projectToJson(*p.project);
  EXPECT_EQ(saved["joints"][0]["drive"]["pieces"][1]["from"], 1.5);
  EXPECT_EQ(saved["joints"][0]["drive"]["pieces"][1]["law"]["law"], "table");
  const LoadedProject again = parseProjectText(saved.dump(), ".");
  ASSERT_TRUE(again.project) << again.diagnostics.text();
  EXPECT_EQ(projectToJson(*again.project), saved);

  std::string bad = text;
  bad.replace(bad.find("\"from\": 1.5"), 11, "\"from\": 0.0");
  bad.replace(bad.find("{\"law\": \"constant\", \"value\": 2}"), 31, "{\"law\": \"piecewise\", \"pieces\": []}");
  const LoadedProject q = parseProjectText(bad, ".");
  EXPECT_FALSE(q.project);
  EXPECT_TRUE(mentions(q.diagnostics, "joints[0].drive.pieces[1].from: the pieces' start times must increase: 0 after 0",
                       Diagnostic::Severity::Error))
      << q.diagnostics.text();
  EXPECT_TRUE(mentions(q.diagnostics, "joints[0].drive.pieces[0].law.law: a piece cannot itself be piecewise",
                       Diagnostic::Severity::Error))
      << q.diagnostics.text();
}
