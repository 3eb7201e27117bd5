// The project schema: the time laws defined once serve the reader, the writer and the editor alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "io/ProjectFile.hpp"
#include "io/ProjectSchema.hpp"

using namespace flexarm;
namespace fs = std::filesystem;

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
  ASSERT_EQ(methods, (std::vector<std::string>{"bdf", "adams", "ida", "newmark", "dirk", "galpha", "esdirk", "auto"}));
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

// ---- docs/project-format.md against the schema -------------------------------------------------

namespace {

std::string trim(std::string s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const std::size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

// The cells of a table row "| a | b \| c | d |" (an escaped bar stays in its cell).
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return out;
}

std::string withoutBackticks(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  return trim(s);
}

// The quoted words of a cell: `"zero"` | `"high"` -> {zero, high}.
std::vector<std::string> quotedWords(const std::string& cell) {
  std::vector<std::string> out;
  for (std::size_t a = cell.find('"'); a != std::string::npos; a = cell.find('"', a + 1)) {
    const std::size_t b = cell.find('"', a + 1);
    if (b == std::string::npos) break;
    out.push_back(cell.substr(a + 1, b - a - 1));
    a = b;
  }
  return out;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The schema path of the keys each section of docs/project-format.md documents in its "key" tables.
std::string sectionPrefix(const std::string& heading) {
  const std::pair<const char*, const char*> sections[] = {
      {"## 1. ", ""},
      {"## 3. ", "links[]"},
      {"### 3.3 ", "links[].flex"},
      {"### 3.4 ", "links[].flex.section"},
      {"### 3.5 ", "links[].flex.material"},
      {"#### 3.6.1 ", "links[].flex.modes"},
      {"#### 3.6.2 ", "links[].flex"},
      {"## 4. ", "joints[]"},
      {"### 4.1 ", "joints[].flex"},
      {"### 4.2 ", "joints[].limits"},
      {"## 7. ", "payloads[]"},
      {"### 7.1 ", "constraints[]"},
      {"### 7.2 ", "loads[]"},
      {"## 8. ", "simulation"},
  };
  for (const auto& [start, prefix] : sections)
    if (startsWith(heading, start)) return prefix;
  return "?";
}

// What a documented key's row says that the schema disagrees with (empty: they agree).
std::vector<std::string> disagreements(const schema::Key& k, const std::vector<std::string>& header,
                                       const std::vector<std::string>& row) {
  std::vector<std::string> out;
  for (std::size_t c = 1; c < header.size() && c < row.size(); ++c) {
    const std::string& column = header[c];
    const std::string& cell = row[c];
    if (column == "required") {
      if ((cell == "yes" && k.need != Need::Required) || (cell == "no" && k.need != Need::Optional))
        out.push_back("required is \"" + cell + "\"");
    } else if (column == "default" && k.type != schema::Type::Name) {
      const std::string text = withoutBackticks(cell);
      if (text == "—") {
        if (!k.fallback.is_null()) out.push_back("no default documented, the schema's is " + k.fallback.dump());
        continue;
      }
      const Json documented = Json::parse(text, nullptr, false);
      if (documented.is_discarded()) continue;  // a default in words ("identity", "none")
      if (documented != k.fallback) out.push_back("default " + text + ", the schema's is " + k.fallback.dump());
    } else if (column == "type") {
      using T = schema::Type;
      const std::string t = withoutBackticks(cell);
      bool ok = true;
      switch (k.type) {
        case T::Number: ok = startsWith(t, "number"); break;
        case T::Integer: ok = startsWith(t, "integer"); break;
        case T::Vector3: ok = startsWith(t, "[x, y, z]"); break;
        case T::Inertia: ok = startsWith(t, "3 or 6 numbers"); break;
        case T::Numbers: ok = startsWith(t, "array") || startsWith(t, "["); break;
        case T::Choice: {
          std::vector<std::string> words = quotedWords(cell), choices = k.choices;
          std::sort(words.begin(), words.end());
          std::sort(choices.begin(), choices.end());
          ok = words == choices;
          break;
        }
        case T::Text: ok = startsWith(t, "string"); break;
        case T::Name: ok = startsWith(t, "name"); break;
        case T::Object: ok = startsWith(t, "object"); break;
        case T::Array: ok = startsWith(t, "array"); break;
        case T::Boolean: ok = t.find("true") != std::string::npos; break;
        case T::Law: ok = t.find("law") != std::string::npos; break;
      }
      if (t.find("> 0") != std::string::npos && k.range != Range::Positive) ok = false;
      if (t.find("≥ 0") != std::string::npos && k.range != Range::NonNegative && k.lower != 0.0) ok = false;
      if (k.type == T::Integer && std::isfinite(k.lower) && t.find(formatNumber(k.lower)) == std::string::npos) ok = false;
      if (!ok) out.push_back("type \"" + cell + "\", the schema's is " + schema::typeName(k.type));
    }
  }
  // The unit: the first [...] of the meaning, when there is one.
  const std::string& meaning = row.back();
  const std::size_t a = meaning.find('['), b = meaning.find(']');
  const std::string unit = k.unit;
  if (a != std::string::npos && b != std::string::npos && a < b && !unit.empty() && unit != "-" &&
      meaning.substr(a + 1, b - a - 1) != schema::docUnit(k.unit))
    out.push_back("unit [" + meaning.substr(a + 1, b - a - 1) + "], the schema's is [" + schema::docUnit(k.unit) + "]");
  return out;
}

}  // namespace

TEST(ProjectSchema, DocumentedKeysMatchTheSchema) {
  // Every row of a "key" table in docs/project-format.md that names one key: the key is in the
  // schema, and its need, type, default and unit are the schema's.
  const fs::path doc = fs::path(FLEXARM_PROJECTS_DIR) / ".." / "docs" / "project-format.md";
  std::ifstream in(doc);
  ASSERT_TRUE(in) << doc;
  std::string line, prefix = "?";
  std::vector<std::string> header;
  int checked = 0;
  while (std::getline(in, line)) {
    if (startsWith(line, "#")) {
      prefix = sectionPrefix(line);
      header.clear();
      continue;
    }
    if (!startsWith(line, "|")) {
      header.clear();
      continue;
    }
    const std::vector<std::string> row = cells(line);
    if (header.empty()) {
      header = row;
      continue;
    }
    if (prefix == "?" || header[0] != "key" || startsWith(row[0], "---") || row.size() != header.size()) continue;
    const std::string name = row[0];
    if (name.size() < 3 || name.front() != '`' || name.back() != '`' || std::count(name.begin(), name.end(), '`') != 2)
      continue;  // a row of several keys
    const std::string path = (prefix.empty() ? "" : prefix + ".") + name.substr(1, name.size() - 2);
    const schema::Key* k = nullptr;
    try {
      k = &schema::key(path);
    } catch (const std::logic_error&) {
    }
    if (!k) {
      ADD_FAILURE() << "docs/project-format.md documents " << path << ", which the schema does not know";
      continue;
    }
    for (const std::string& problem : disagreements(*k, header, row))
      ADD_FAILURE() << "docs/project-format.md, " << path << ": " << problem;
    ++checked;
  }
  EXPECT_GE(checked, 60) << "the tables of docs/project-format.md were not found";
}

TEST(ProjectSchema, KeysAreKnownAndTheirDefaultsAreWhatTheReaderAssumes) {
  EXPECT_THROW(schema::key("links[].colour"), std::logic_error);
  EXPECT_EQ(schema::key("links[].flex.section.width").name(), "width");
  EXPECT_EQ(schema::unitFor(schema::key("joints[].q0").unit, true), "rad");
  EXPECT_EQ(schema::unitFor(schema::key("joints[].q0").unit, false), "m");
  // A project that leaves out every optional key reads as the schema's fallbacks say.
  const LoadedProject p = parseProjectText(R"({"format": "flexarm-project", "schema_version": 1,
    "links": [{"name": "a", "length": 1, "flex": {"section": {"A": 1e-4, "Iy": 1e-9, "Iz": 1e-9, "J": 2e-9},
               "material": {"preset": "steel"}, "basis": "fem"}}],
    "joints": [{"name": "j", "type": "revolute", "axis": [0, 0, 1], "flex": {"stiffness": 10, "rotor_inertia": 1}}],
    "payloads": [{"link": "a", "mass": 1}]})",
                                           ".");
  ASSERT_TRUE(p.project) << p.diagnostics.text();
  const Json written = projectToJson(*p.project);
  for (const char* path : {"coupling", "gravity"}) EXPECT_EQ(written[path], schema::key(path).fallback) << path;
  const Json& flex = written["links"][0]["flex"];
  for (const char* key : {"elements", "layout", "reduce_to", "rayleigh", "modal_damping"})
    EXPECT_EQ(flex[key], schema::key(std::string("links[].flex.") + key).fallback) << key;
  const Json& joint = written["joints"][0];
  for (const char* key : {"q0", "qd0", "damping", "mass", "drive"})
    EXPECT_EQ(joint[key], schema::key(std::string("joints[].") + key).fallback) << key;
  for (const char* key : {"damping", "gear_ratio"})
    EXPECT_EQ(joint["flex"][key], schema::key(std::string("joints[].flex.") + key).fallback) << key;
  for (const char* key : {"frame", "offset"})  // the inertia is written as 6 numbers
    EXPECT_EQ(written["payloads"][0][key], schema::key(std::string("payloads[].") + key).fallback) << key;
  for (const schema::Key& k : schema::keys())
    if (startsWith(k.path, "simulation.") && k.type != schema::Type::Object) {
      if (k.path == "simulation.t_start") {  // written only when not 0 (a continued run): other files stay as they were
        EXPECT_FALSE(written["simulation"].contains("t_start"));
        continue;
      }
      Json v = written;
      std::string rest = k.path;
      for (std::size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1)) v = v[rest.substr(0, dot)];
      EXPECT_EQ(v[rest], k.fallback) << k.path;
    }
}

TEST(ProjectSchema, NewItemsOfTheSchemaAreValid) {
  // Every section preset and shape the editor can add reads back with the schema's initial dimensions.
  for (const std::string& preset : schema::sectionPresetNames()) {
    Json flex = schema::newFlexibleLink();
    flex["section"] = schema::newSection(preset);
    Json doc = {{"format", "flexarm-project"},
                {"schema_version", 1},
                {"links", Json::array({{{"name", "a"}, {"length", 1.0}, {"flex", flex}}})},
                {"joints", Json::array({{{"name", "j"}, {"type", "revolute"}, {"axis", {0.0, 0.0, 1.0}}}})}};
    const LoadedProject p = parseProjectText(doc.dump(), ".");
    ASSERT_TRUE(p.project) << preset << "\n" << p.diagnostics.text();
    EXPECT_EQ(projectToJson(*p.project)["links"][0]["flex"]["section"], flex["section"]) << preset;
  }
  for (const std::string& shape : schema::shapeNames()) {
    Json link = {{"name", "a"}};
    link.update(schema::newObject("links[]"));
    link["shape"] = schema::newShape(shape);
    Json joint = {{"name", "j"}};
    joint.update(schema::newObject("joints[]"));
    Json doc = {
        {"format", "flexarm-project"}, {"schema_version", 1}, {"links", Json::array({link})}, {"joints", Json::array({joint})}};
    const LoadedProject p = parseProjectText(doc.dump(), ".");
    ASSERT_TRUE(p.project) << shape << "\n" << p.diagnostics.text();
    EXPECT_EQ(projectToJson(*p.project)["links"][0]["shape"], link["shape"]) << shape;
  }
  EXPECT_TRUE(schema::newSection("hexagon").is_null());
}
