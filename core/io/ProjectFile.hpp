#pragma once
// FlexArm project files (JSON, documented in docs/project-format.md).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/Diagnostics.hpp"
#include "io/JsonReader.hpp"
#include "model/Project.hpp"
#include "base/Result.hpp"

namespace flexarm {

struct LoadedProject {
  std::optional<Project> project;  // empty when there were errors
  Diagnostics diagnostics;         // every error and warning, with JSON paths
};

// Reads a project file; `overrides` are "path=value" assignments applied before interpretation.
// Never throws: every problem is a diagnostic.
LoadedProject loadProjectFile(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

// Same from text; relative table files are resolved against base_dir.
LoadedProject parseProjectText(const std::string& text, const std::filesystem::path& base_dir,
                               const std::vector<std::string>& overrides = {});

// Interprets an already parsed document.
std::optional<Project> projectFromJson(const Json& doc, const std::filesystem::path& base_dir, Diagnostics& diag);

// What a run may ask for: t_end at most kMaxEndTime seconds, output_rate at most kMaxOutputRate Hz,
// and no more than kMaxOutputRows output rows (t_end x output_rate). Larger values allocate without
// end or are lost in round-off (t + 1/rate == t); the error names the fields.
constexpr double kMaxEndTime = 1e6;
constexpr double kMaxOutputRate = 1e6;
constexpr double kMaxOutputRows = 1e7;
Status checkRunLength(const SimulationSettings& s);

// Canonical JSON of a project: save -> load -> save gives the same bytes.
Json projectToJson(const Project& project);
// Whether two projects describe the same discretized system (MultibodySystem::fromModel of their model
// and coupling): their files differ at most in what the system leaves out (name, simulation settings,
// inverse-dynamics path, variants, study), so that their runs can share one system.
bool sameSystem(const Project& a, const Project& b);
std::string projectToText(const Project& project);
// Writes the file atomically (temporary file + rename). Returns an empty string or the reason it failed.
Status saveProjectFile(const Project& project, const std::filesystem::path& file);

}  // namespace flexarm
