// The project schema: the time laws defined once serve the reader, the writer and the editor alike.
#include <gtest/gtest.h>

#include "io/ProjectFile.hpp"
#include "io/ProjectSchema.hpp"

using namespace flexarm;

TEST(ProjectSchema, LawsFollowTheModelsNamesAndOrder) {
  const std::vector<std::string> names = schema::lawNames();
  ASSERT_EQ(names.size(), schema::laws().size());
  for (std::size_t k = 0; k < names.size(); ++k) {
    EXPECT_EQ(names[k], lawName(static_cast<TimeFunction::Law>(k)));
    EXPECT_EQ(schema::findLaw(names[k]), &schema::laws()[k]);
  }
  EXPECT_EQ(schema::findLaw("ramp"), nullptr);
  // The editor lists every law once, the table last.
  std::vector<std::string> menu = schema::lawMenuNames();
  EXPECT_EQ(menu.back(), "table");
  std::sort(menu.begin(), menu.end());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(menu, sorted);
}

TEST(ProjectSchema, EveryNewLawIsAcceptedAndWrittenBackWithItsParameters) {
  for (const schema::LawSpec& spec : schema::laws()) {
    Json drive = schema::newLaw(spec.name);
    drive["type"] = "effort";
    Json doc = {{"format", "flexarm-project"},
                {"schema_version", 1},
                {"links", Json::array({{{"name", "a"}, {"length", 1.0}, {"mass", 1.0}, {"shape", {{"type", "rod"}}}}})},
                {"joints", Json::array({{{"name", "j"}, {"type", "revolute"}, {"axis", {0.0, 0.0, 1.0}}, {"drive", drive}}})}};
    const LoadedProject p = parseProjectText(doc.dump(), ".");
    ASSERT_TRUE(p.project) << spec.name << "\n" << p.diagnostics.text();
    EXPECT_TRUE(p.diagnostics.all().empty()) << spec.name << "\n" << p.diagnostics.text();
    EXPECT_EQ(p.project->model.joints[0].drive.law.law, spec.law);
    const Json written = projectToJson(*p.project)["joints"][0]["drive"];
    for (const schema::LawParameter& param : spec.parameters) {
      ASSERT_TRUE(written.contains(param.key)) << spec.name << "." << param.key;
      EXPECT_EQ(written[param.key], param.initial) << spec.name << "." << param.key;  // read and written back unchanged
    }
  }
}

TEST(ProjectSchema, RequiredParametersAreRequiredAndRangesHold) {
  for (const schema::LawSpec& spec : schema::laws())
    for (const schema::LawParameter& param : spec.parameters) {
      Json drive = schema::newLaw(spec.name);
      drive["type"] = "effort";
      if (param.need == Need::Required) {
        drive.erase(param.key);
      } else if (param.range == Range::NonNegative || param.range == Range::Positive) {
        drive[param.key] = -1.0;
      } else {
        continue;
      }
      Json doc = {{"format", "flexarm-project"},
                  {"schema_version", 1},
                  {"links", Json::array({{{"name", "a"}, {"length", 1.0}, {"mass", 1.0}, {"shape", {{"type", "rod"}}}}})},
                  {"joints", Json::array({{{"name", "j"}, {"type", "revolute"}, {"axis", {0.0, 0.0, 1.0}}, {"drive", drive}}})}};
      const LoadedProject p = parseProjectText(doc.dump(), ".");
      EXPECT_FALSE(p.project) << spec.name << "." << param.key;
      EXPECT_NE(p.diagnostics.text().find(std::string("joints[0].drive.") + param.key), std::string::npos)
          << spec.name << "." << param.key << "\n"
          << p.diagnostics.text();
    }
}

TEST(ProjectSchema, ChoicesAreTheModelsNamesInEnumOrder) {
  const std::vector<std::string> methods = schema::methodNames();
  ASSERT_EQ(methods, (std::vector<std::string>{"bdf", "adams", "ida", "newmark", "dirk", "galpha"}));
  for (std::size_t k = 0; k < methods.size(); ++k) EXPECT_EQ(methods[k], methodName(static_cast<SimulationSettings::Method>(k)));
  EXPECT_EQ(schema::couplingNames(), (std::vector<std::string>{"zero", "geometric", "high"}));
  EXPECT_EQ(schema::jacobianNames(), (std::vector<std::string>{"analytic", "difference"}));
  EXPECT_EQ(schema::driveTypeNames(), (std::vector<std::string>{"free", "effort", "pd", "prescribed"}));
  // A project that says nothing about the simulation gets the schema's defaults.
  const LoadedProject p = parseProjectText(R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "mass": 1, "shape": {"type": "rod"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1]}]})",
                                           ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const SimulationSettings& d = schema::simulationDefaults();
  EXPECT_EQ(p.project->simulation.t_end, d.t_end);
  EXPECT_EQ(p.project->simulation.rtol, d.rtol);
  EXPECT_EQ(p.project->simulation.method, d.method);
}
