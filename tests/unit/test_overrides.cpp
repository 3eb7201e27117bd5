// --set path=value overrides.
#include <gtest/gtest.h>

#include <cmath>

#include "io/Overrides.hpp"
#include "io/ProjectFile.hpp"

using namespace flexarm;

namespace {
const char* kBase = R"({"format": "flexarm-project", "schema_version": 1,
  "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}},
            {"name": "b", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
  "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1],
              "drive": {"type": "prescribed", "law": "spinup", "omega0": 2, "T": 15}},
             {"name": "k", "type": "revolute", "axis": [0, 0, 1]}],
  "simulation": {"t_end": 1}})";
}

TEST(Overrides, SetsNumbersArraysAndStrings) {
  const LoadedProject p = parseProjectText(
      kBase, ".", {"joints[0].drive.omega0=8", "links[1].mass=2.5", "gravity=[0,0,0]", "name=spin 8", "simulation.t_end=3"});
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->model.joints[0].drive.law.omega0, 8.0);
  EXPECT_EQ(p.project->model.links[1].mass, 2.5);
  EXPECT_TRUE(p.project->model.gravity.isZero());
  EXPECT_EQ(p.project->name, "spin 8");
  EXPECT_EQ(p.project->simulation.t_end, 3.0);
}

TEST(Overrides, OverriddenValuesAreValidatedLikeTheFile) {
  const LoadedProject p = parseProjectText(kBase, ".", {"links[0].mass=-3"});
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("links[0].mass: must be > 0, got -3"), std::string::npos);
}

TEST(Overrides, BadPathsAreReported) {
  for (const auto& [assignment, expected] : std::vector<std::pair<std::string, std::string>>{
           {"joints[5].q0=1", "joints has 2 entries, index 5 is out of range"},
           {"nothing.here=1", "\"nothing\" does not exist"},
           {"links.mass=1", "links is not an object"},
           {"links[x].mass=1", "is not a non-negative integer"},
           // Beyond unsigned long: std::stoul threw here (issue 21's fuzzing), now a message.
           {"links[99999999999999999999].length=1", "index 99999999999999999999 is out of range"},
           {"no-equals-sign", "expected path=value"}}) {
    const LoadedProject p = parseProjectText(kBase, ".", {assignment});
    EXPECT_FALSE(p.project) << assignment;
    EXPECT_NE(p.diagnostics.text().find(expected), std::string::npos) << assignment << "\n" << p.diagnostics.text();
  }
}

// Issue 40: projects that leave the solver to auto have no simulation.solver object; an override of one of
// its keys makes it, as any object of the format the file leaves out. A key the format does not have on
// the way is still refused.
TEST(Overrides, ObjectsOfTheFormatThatTheFileLeavesOutAreMade) {
  const LoadedProject p = parseProjectText(kBase, ".", {"simulation.solver.method=bdf", "simulation.solver.newmark.alpha=0.3"});
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->simulation.method, SimulationSettings::Method::Bdf);
  EXPECT_EQ(p.project->simulation.newmark_alpha, 0.3);
  const LoadedProject q = parseProjectText(kBase, ".", {"simulation.solver.foo.bar=1"});
  EXPECT_FALSE(q.project);
  EXPECT_NE(q.diagnostics.text().find("\"foo\" does not exist in simulation.solver"), std::string::npos) << q.diagnostics.text();
}

// Found by tests/fuzz: an assignment without '=' was echoed whole, a message of megabytes (or of
// several lines when it held a newline).
TEST(Overrides, AnAssignmentWithoutEqualsSignIsEchoedShortOnOneLine) {
  for (const std::string& assignment : {"links" + std::string(100000, '['), "links[0]\nmass" + std::string(200, 'x')}) {
    const LoadedProject p = parseProjectText(kBase, ".", {assignment});
    EXPECT_FALSE(p.project);
    ASSERT_EQ(p.diagnostics.all().size(), 1u) << p.diagnostics.text().substr(0, 300);
    const std::string text = p.diagnostics.all()[0].text();
    EXPECT_LT(text.size(), 200u) << text.substr(0, 300);
    EXPECT_EQ(text.find('\n'), std::string::npos) << text.substr(0, 300);
    EXPECT_NE(text.find(": expected path=value"), std::string::npos) << text.substr(0, 300);
    EXPECT_EQ(p.diagnostics.all()[0].path.rfind("--set links", 0), 0u) << text.substr(0, 300);
  }
}

TEST(Overrides, NullRemovesAKey) {
  const LoadedProject p = parseProjectText(kBase, ".", {"joints[0].drive=null"});
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->model.joints[0].drive.kind, JointDrive::Kind::Free);  // the default drive

  const LoadedProject missing = parseProjectText(kBase, ".", {"joints[1].flex=null"});
  EXPECT_FALSE(missing.project);
  EXPECT_NE(missing.diagnostics.text().find("\"flex\" does not exist in joints[1], so it cannot be removed"), std::string::npos)
      << missing.diagnostics.text();
}

TEST(Overrides, PathsAreReadAsWrittenNotGuessed) {
  // Each was accepted before: links[0]length set links[0].length, links[0]]=1 was taken, and
  // links[0].=1 replaced the whole link.
  for (const char* bad : {"links[0]length=1", "links[0]]=1", "links[0].=1", "links.=1", "[0]=1", "links[0]x.mass=1"}) {
    const LoadedProject p = parseProjectText(kBase, ".", {bad});
    EXPECT_FALSE(p.project) << bad;
    EXPECT_NE(p.diagnostics.text().find("error: --set "), std::string::npos) << bad << "\n" << p.diagnostics.text();
  }
  const LoadedProject p = parseProjectText(kBase, ".", {"links[1].mass=3", "joints[1].axis[1]=1"});
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  EXPECT_EQ(p.project->model.links[1].mass, 3.0);
  EXPECT_NEAR(p.project->model.joints[1].axis.y(), std::sqrt(0.5), 1e-15);  // [0, 1, 1] normalized
}

TEST(Overrides, ValuesMustBeUtf8AndShallowJson) {
  LoadedProject p = parseProjectText(kBase, ".", {"name=\xff"});
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("--set name: the value is not valid UTF-8 text"), std::string::npos)
      << p.diagnostics.text();
  // A path that is not UTF-8 would become a key a variant keeps, which no project file can hold.
  p = parseProjectText(kBase, ".", {"variants[0].set.coupli\x90ng=1"});
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("the path is not valid UTF-8 text"), std::string::npos) << p.diagnostics.text();
  p = parseProjectText(kBase, ".", {"gravity=" + std::string(250, '[') + std::string(250, ']')});
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("nested more than 200 levels deep"), std::string::npos) << p.diagnostics.text();
  p = parseProjectText(kBase, ".", {R"(links[0]={"name": "a", "name": "b", "length": 1, "mass": 1})"});
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("name: this key is given twice"), std::string::npos) << p.diagnostics.text();
}

TEST(Overrides, VariantAndGridPathsAreCheckedByTheLoader) {
  std::string text = kBase;
  text.insert(text.rfind('}'), R"(, "variants": [{"name": "v", "set": {"links[1234567890].mass": 2}}])");
  LoadedProject p = parseProjectText(text, ".");
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("variants[0].set.links[1234567890].mass: index 1234567890 is out of range"),
            std::string::npos)
      << p.diagnostics.text();
  text = kBase;
  text.insert(text.rfind('}'), R"(, "study": {"grid": {"links[0]]": [1, 2]}})");
  p = parseProjectText(text, ".");
  EXPECT_FALSE(p.project);
  EXPECT_NE(p.diagnostics.text().find("study.grid.links[0]]: ']' without '['"), std::string::npos) << p.diagnostics.text();
}
