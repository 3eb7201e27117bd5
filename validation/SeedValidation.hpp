#pragma once
// The seed papers' examples run from the shipped projects, each reported value or claim set next
// to FlexArm's, with a verdict computed from the runs. `flexarm-cli validate` writes them as
// docs/validation.md; the tests run the quick form and assert the claims.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

namespace flexarm {

enum class Verdict {
  Agree,    // FlexArm gives what the paper reports, within the stated tolerance
  Differ,   // it does not; the reason says why
  NoClaim,  // the paper states no value or trend: FlexArm's figure is given for the record
};

const char* verdictName(Verdict v);

struct ValidationRow {
  std::string id;        // stable key for tests, e.g. "zero-diverges-8"
  std::string quantity;  // what is compared
  std::string reported;  // the paper's value or claim
  std::string flexarm;   // FlexArm's value
  Verdict verdict = Verdict::NoClaim;
  std::string reason;  // tolerance used, or why the two differ
};

// A figure of the report: one channel of several runs overlaid (their CSVs below the work dir).
// `flexarm-cli validate` draws it when built with plotting and then sets `image`.
struct ValidationPlot {
  std::string caption;
  std::string stem;                                       // image file name without extension, e.g. "seed000-spin-up-8"
  std::string channel;                                    // e.g. "tip.beam.v"
  std::vector<std::pair<std::string, std::string>> runs;  // legend name, CSV file
  std::string image;                                      // the image's path relative to the report, once drawn
};

struct PaperValidation {
  std::string seed;     // "000 §4.1"
  std::string title;    // paper and example
  std::string project;  // shipped project file name(s)
  std::string setup;    // what was run (and the quick-mode shortening)
  std::vector<ValidationRow> rows;
  std::vector<ValidationPlot> plots;
  std::string error;  // the runs could not be made (unreadable project, ...): no rows
  double wall_time = 0.0;

  const ValidationRow* row(const std::string& id) const;
};

struct ValidationOptions {
  std::filesystem::path projects_dir;  // the shipped projects
  std::filesystem::path work_dir;      // per-case CSVs are written below it
  bool quick = false;                  // shortened studies (the ctest form)
  unsigned threads = 0;                // 0: the machine's cores
  const std::atomic<bool>* cancel = nullptr;
};

PaperValidation validateSpinUpBeam(const ValidationOptions& o);        // seed 000 §4.1
PaperValidation validateCanadarmDrop(const ValidationOptions& o);      // seed 000 §4.2
PaperValidation validateRigidFlexibleArm(const ValidationOptions& o);  // seed 001
PaperValidation validateInverseDynamics(const ValidationOptions& o);   // seed 002
PaperValidation validateSlidingBeam(const ValidationOptions& o);       // seed 003
PaperValidation validateSpatialRrr(const ValidationOptions& o);        // seed 004

std::vector<PaperValidation> validateAllSeeds(const ValidationOptions& o);

// The report: one table per paper. `command` is the command line that produced it.
std::string validationMarkdown(const std::vector<PaperValidation>& papers, const ValidationOptions& o,
                               const std::string& command);

}  // namespace flexarm
