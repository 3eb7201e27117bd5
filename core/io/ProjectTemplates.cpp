#include "io/ProjectTemplates.hpp"

#include <fstream>
#include <sstream>

#include "base/Files.hpp"
#include "base/Text.hpp"
#include "io/Overrides.hpp"
#include "model/Project.hpp"

namespace flexarm {
namespace {

Json base(const char* name) {
  Json doc;
  doc["format"] = "flexarm-project";
  doc["schema_version"] = Project::kSchemaVersion;
  doc["name"] = name;
  return doc;
}

ProjectTemplate emptyTemplate() {
  ProjectTemplate t;
  t.id = "empty";
  t.title = "Empty project";
  t.description = "No links yet: add links, joints and payloads in the Model dock.";
  t.doc = base("Untitled");
  t.doc["links"] = Json::array();
  t.doc["joints"] = Json::array();
  return t;
}

// An aluminium strip (10 mm in the plane of motion, 40 mm tall) as planar Hermite elements.
Json strip(const char* name, double length, int elements) {
  return {{"name", name},
          {"length", length},
          {"flex",
           {{"section", {{"preset", "rectangle"}, {"width", 0.01}, {"height", 0.04}}},
            {"material", {{"preset", "aluminium"}}},
            {"basis", "fem"},
            {"elements", elements},
            {"layout", "planar"},
            {"rayleigh", Json::array({0.0, 0.0005})}}}};
}

// A template for a horizontal arm under gravity (high-order coupling), described in its document.
ProjectTemplate armTemplate(const char* id, const char* title, const char* description) {
  ProjectTemplate t;
  t.id = id;
  t.title = title;
  t.description = description;
  t.doc = base(title);
  t.doc["description"] = t.description;
  t.doc["coupling"] = "high";
  t.doc["gravity"] = Json::array({0.0, 0.0, -9.81});
  return t;
}

Json solver(double t_end) {
  return {{"t_end", t_end}, {"output_rate", 100.0}, {"accuracy", 1e-3}, {"solver", {{"method", "auto"}}}};
}

const std::vector<std::string> kMaterials = {"aluminium", "steel", "cfrp"};

ProjectTemplate singleLink() {
  ProjectTemplate t =
      armTemplate("single-flexible-link", "Single flexible link",
                  "A horizontal flexible link (an aluminium strip, planar finite elements) with a tip payload, turned by "
                  "90 degrees about the vertical axis in 1 s by a prescribed cycloidal motion of its joint; the link "
                  "bends during the motion and vibrates after it.");
  t.doc["links"] = Json::array({strip("link", 1.0, 6)});
  t.doc["joints"] = Json::array({Json{{"name", "joint"},
                                      {"type", "revolute"},
                                      {"axis", Json::array({0.0, 0.0, 1.0})},
                                      {"drive",
                                       {{"type", "prescribed"},
                                        {"law", "cycloidal"},
                                        {"before", 0.0},
                                        {"after", 1.5707963267948966},
                                        {"T", 1.0},
                                        {"t_step", 0.2}}}}});
  t.doc["payloads"] = Json::array(
      {Json{{"name", "tip"}, {"link", "link"}, {"frame", "distal"}, {"offset", Json::array({0.0, 0.0, 0.0})}, {"mass", 0.2}}});
  t.doc["simulation"] = solver(3.0);
  t.parameters = {
      {{"links[0].length"}, "link length", "m", {}},
      {{"links[0].flex.section.width"}, "section width (in the plane of motion)", "m", {}},
      {{"links[0].flex.section.height"}, "section height", "m", {}},
      {{"links[0].flex.material.preset"}, "material", "", kMaterials},
      {{"links[0].flex.elements"}, "finite elements", "-", {}},
      {{"payloads[0].mass"}, "tip payload mass", "kg", {}},
      {{"joints[0].drive.after"}, "joint motion", "rad", {}},
      {{"joints[0].drive.T"}, "motion time", "s", {}},
  };
  return t;
}

ProjectTemplate planarTwoLink() {
  ProjectTemplate t =
      armTemplate("planar-two-link", "Planar two-link arm",
                  "A horizontal two-link arm moving in a plane: two flexible aluminium strips (planar finite elements) on "
                  "revolute joints about the vertical axis, with a tip payload. The shoulder's PD controller turns the arm "
                  "by 90 degrees in 1 s while the elbow's holds its angle.");
  t.doc["links"] = Json::array({strip("upper", 0.8, 4), strip("fore", 0.6, 4)});
  // Gains for about 1.5 Hz, damping ratio 0.8, with the template's inertias (about 2 and 0.26 kg m^2).
  t.doc["joints"] = Json::array(
      {Json{{"name", "shoulder"},
            {"type", "revolute"},
            {"axis", Json::array({0.0, 0.0, 1.0})},
            {"drive",
             {{"type", "pd"},
              {"kp", 175.0},
              {"kd", 30.0},
              {"setpoint",
               {{"law", "step"}, {"t_step", 0.2}, {"before", 0.0}, {"after", 1.5707963267948966}, {"rise_time", 1.0}}}}}},
       Json{{"name", "elbow"},
            {"type", "revolute"},
            {"axis", Json::array({0.0, 0.0, 1.0})},
            {"drive", {{"type", "pd"}, {"kp", 23.0}, {"kd", 4.0}, {"setpoint", {{"law", "constant"}, {"value", 0.0}}}}}}});
  t.doc["payloads"] = Json::array(
      {Json{{"name", "tool"}, {"link", "fore"}, {"frame", "distal"}, {"offset", Json::array({0.0, 0.0, 0.0})}, {"mass", 0.5}}});
  t.doc["simulation"] = solver(3.0);
  t.parameters = {
      {{"links[0].length"}, "upper link length", "m", {}},
      {{"links[1].length"}, "fore link length", "m", {}},
      {{"links[0].flex.section.width", "links[1].flex.section.width"}, "section width (in the plane, both links)", "m", {}},
      {{"links[0].flex.section.height", "links[1].flex.section.height"}, "section height (both links)", "m", {}},
      {{"links[0].flex.material.preset", "links[1].flex.material.preset"}, "material (both links)", "", kMaterials},
      {{"links[0].flex.elements", "links[1].flex.elements"}, "finite elements per link", "-", {}},
      {{"payloads[0].mass"}, "tip payload mass", "kg", {}},
  };
  return t;
}

// Makes the relative "file" of every table law absolute against dir.
void absoluteTables(Json& j, const std::filesystem::path& dir) {
  if (j.is_object()) {
    auto law = j.find("law");
    auto file = j.find("file");
    if (law != j.end() && law->is_string() && *law == "table" && file != j.end() && file->is_string()) {
      const std::filesystem::path p = file->get<std::string>();
      if (p.is_relative()) *file = (dir / p).lexically_normal().string();
    }
    for (auto& [key, value] : j.items()) absoluteTables(value, dir);
  } else if (j.is_array()) {
    for (Json& value : j) absoluteTables(value, dir);
  }
}

}  // namespace

const std::vector<ProjectTemplate>& projectTemplates() {
  static const std::vector<ProjectTemplate> all = {emptyTemplate(), singleLink(), planarTwoLink()};
  return all;
}

const ProjectTemplate* findTemplate(const std::string& id) {
  for (const ProjectTemplate& t : projectTemplates())
    if (t.id == id) return &t;
  return nullptr;
}

std::optional<Json> instantiateTemplate(const ProjectTemplate& t, const std::string& name,
                                        const std::vector<std::string>& assignments, Diagnostics& diag) {
  Json doc = t.doc;
  if (!name.empty()) doc["name"] = name;
  bool ok = true;
  for (const std::string& a : assignments) ok = applyOverride(doc, a, diag) && ok;
  if (!ok) return std::nullopt;
  return doc;
}

std::optional<Json> projectFromExample(const std::filesystem::path& example, Diagnostics& diag) {
  const Result<std::string> text = readRegularFile(example);
  if (!text) {
    diag.error("", "cannot read " + inQuotes(example.string(), 200) + ": " + text.error().message);
    return std::nullopt;
  }
  Result<Json> parsed = parseJsonText(*text);
  if (!parsed) {
    diag.error(parsed.error().where, inQuotes(example.string(), 200) + ": " + parsed.error().message);
    return std::nullopt;
  }
  Json doc = std::move(*parsed);
  if (!doc.is_object()) {
    diag.error("", inQuotes(example.string(), 200) + " is not a JSON object");
    return std::nullopt;
  }
  absoluteTables(doc, std::filesystem::absolute(example).parent_path());
  return doc;
}

}  // namespace flexarm
