#pragma once
// The fuzz program's targets: each takes the bytes of one input to one call of the engine and
// judges what came back. A finding (a non-empty text) is a bug: an exception that escaped, a
// project accepted with a number that is not finite, a refusal without a message, a results file
// that does not read back what it was written from, equations that give NaN without saying so.
// Crashes, sanitizer reports and hangs are caught by the driver (flexarm_fuzz.cpp).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

struct Outcome {
  bool accepted = false;  // the engine took the input (a project loaded, a table or CSV read)
  std::string finding;    // empty unless the input shows a bug
};

class Targets {
 public:
  // `scratch`: a folder of the program's own for table files (a relative "table.csv" there is valid).
  // Every `evaluate_every`-th accepted project is also built and its equations evaluated once (0: never).
  Targets(std::filesystem::path scratch, int evaluate_every);

  // The project loader on text (parseProjectText).
  Outcome project(const std::string& text);
  // `--set` overrides on a valid project: the assignments are applied before interpretation.
  Outcome overrides(const std::string& project_text, const std::vector<std::string>& assignments);
  // A table file (readTableFile), then a project whose drive reads it.
  Outcome table(const std::string& text);
  // A results CSV (readCsv on text); what it accepts must write and read back the same.
  Outcome csv(const std::string& text);

  // A URDF robot (UrdfRobot::parse), then its chain and the project it imports as (to the tip found,
  // and to the first and last leaves; every other robot with its first moving link made flexible),
  // which the project loader must accept and which is judged as a loaded project.
  Outcome urdf(const std::string& text);
  // A prepared study's study.json (openStudyFolder, as `flexarm-cli study DIR --case K` reads it)
  // beside the frozen copy of the shipped project whose file name its "source" holds (see
  // prepareStudy); what it accepts must be the frozen project's study with a run length the loader
  // allows, and its first cases, built as a case's run builds them, finite.
  Outcome study(const std::string& manifest);
  // Prepares a study folder in the scratch folder for `project_file` (with a study), as `flexarm-cli
  // study PROJECT --out DIR --slurm` does, and returns its study.json: a seed of the study target.
  // Empty when the project defines no study.
  std::string prepareStudy(const std::filesystem::path& project_file, const std::vector<std::string>& overrides, double t_end);

  // The name of the table file the table target writes, relative to the scratch folder.
  static constexpr const char* kFuzzTable = "fuzz-table.csv";
  // A project (JSON text) whose first joint's drive is a table law read from kFuzzTable.
  static std::string projectWithTableFile(const std::string& project_text, const std::string& file);

  long evaluations() const { return evaluations_; }

 private:
  std::filesystem::path scratch_;
  int evaluate_every_;
  long accepted_projects_ = 0;
  long evaluations_ = 0;
  long accepted_robots_ = 0;
  // The prepared study folders: the project file's name, the folder holding its frozen copy.
  std::vector<std::pair<std::string, std::filesystem::path>> study_dirs_;
};

}  // namespace fuzz
