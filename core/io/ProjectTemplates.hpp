#pragma once
// Starting points for a new project: an empty base, a single flexible link, a planar two-link arm
// (and, in the workbench and `flexarm-cli new`, a copy of any shipped example). A template is a
// project document plus the few values a user sets first, each named by its JSON path so that they
// are applied and checked exactly as `--set path=value` overrides are (core/io/Overrides).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/Diagnostics.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {

struct TemplateParameter {
  std::vector<std::string> paths;    // "links[0].length": the value goes to each
  std::string label;                 // "link length"
  std::string unit;                  // "m"
  std::vector<std::string> choices;  // non-empty: one of these strings
};

struct ProjectTemplate {
  std::string id;           // "single-flexible-link"
  std::string title;        // "Single flexible link"
  std::string description;  // what it is and what it does when run
  Json doc;                 // a valid project, except "empty" (no links: the editor's empty chain)
  std::vector<TemplateParameter> parameters;
};

// The built-in templates: "empty", "single-flexible-link", "planar-two-link".
const std::vector<ProjectTemplate>& projectTemplates();
const ProjectTemplate* findTemplate(const std::string& id);

// The template's document with `name` and the assignments ("path=value") applied. Problems go to
// diag with the path they concern; nullopt when an assignment cannot be applied. The result is not
// interpreted here: projectFromJson says whether it is a valid project.
std::optional<Json> instantiateTemplate(const ProjectTemplate& t, const std::string& name,
                                        const std::vector<std::string>& assignments, Diagnostics& diag);

// A shipped example as the start of a new project: its document, with every relative table file
// made absolute against the example's directory (the new project is saved elsewhere).
std::optional<Json> projectFromExample(const std::filesystem::path& example, Diagnostics& diag);

}  // namespace flexarm
