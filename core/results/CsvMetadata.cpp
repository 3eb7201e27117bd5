#include "results/CsvMetadata.hpp"

#include <cctype>

#include "Version.hpp"
#include "base/Text.hpp"
#include "io/JsonReader.hpp"

namespace flexarm {
namespace {

constexpr const char* kFormat = "flexarm-results-metadata";
constexpr long kVersionWritten = 1;

const std::vector<std::string>& statusNames() {
  static const std::vector<std::string> names = {runStatusName(RunStatus::Completed), runStatusName(RunStatus::Failed),
                                                 runStatusName(RunStatus::Cancelled), runStatusName(RunStatus::Diverged)};
  return names;
}

bool endsWithCsv(const std::string& name) {
  if (name.size() < 4) return false;
  std::string ext = name.substr(name.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".csv";
}

// The first error among the findings (a sidecar's unknown keys are only warnings, and ignored).
Status firstError(const Diagnostics& diag) {
  for (const Diagnostic& d : diag.all())
    if (d.severity == Diagnostic::Severity::Error) return errorAt(d.path, d.message);
  return {};
}

void readStats(JsonObjectReader stats, SolverStats& s) {
  stats.integer("steps", s.steps, Need::Optional, 0);
  stats.integer("rhs_evaluations", s.rhs_evaluations, Need::Optional, 0);
  stats.integer("jacobian_evaluations", s.jacobian_evaluations, Need::Optional, 0);
  stats.integer("linear_setups", s.linear_setups, Need::Optional, 0);
  stats.integer("error_test_failures", s.error_test_failures, Need::Optional, 0);
  stats.integer("nonlinear_iterations", s.nonlinear_iterations, Need::Optional, 0);
  stats.integer("nonlinear_convergence_failures", s.nonlinear_convergence_failures, Need::Optional, 0);
  stats.number("last_step", s.last_step, Need::Optional, Range::NonNegative);
  stats.number("wall_time", s.wall_time, Need::Optional, Range::NonNegative);
}

// The channels' units, checked against the CSV's columns (a sidecar of another file is refused).
std::vector<std::string> readUnits(JsonObjectReader& doc, const Results& results) {
  std::vector<std::string> units;  // without "channels": those the results have
  for (const Channel& c : results.channels()) units.push_back(c.unit);
  const Json* channels = doc.array("channels", Need::Optional);
  if (!channels) return units;
  Diagnostics& diag = doc.diagnostics();
  if (channels->size() != units.size()) {
    diag.error("channels", "lists " + std::to_string(channels->size()) + " channels, the CSV has " +
                               std::to_string(units.size()) + " columns");
    return units;
  }
  for (std::size_t k = 0; k < units.size(); ++k) {
    units[k].clear();
    JsonObjectReader c(&(*channels)[k], "channels[" + std::to_string(k) + "]", diag);
    std::string name;
    if (!c.string("name", name, Need::Required)) continue;
    if (name != results.channels()[k].name) {
      diag.error(c.pathOf("name"), inQuotes(name) + " is not the CSV's column " + std::to_string(k + 1) + ", " +
                                       inQuotes(results.channels()[k].name));
      continue;
    }
    c.string("unit", units[k], Need::Optional);
  }
  return units;
}

}  // namespace

std::filesystem::path csvMetadataFile(const std::filesystem::path& csv_file) {
  const std::string name = csv_file.filename().string();
  const std::string stem = endsWithCsv(name) ? name.substr(0, name.size() - 4) : name;
  return csv_file.parent_path() / (stem + ".meta.json");
}

namespace {
Json statsJson(const SolverStats& s) {
  return {{"steps", s.steps},
          {"rhs_evaluations", s.rhs_evaluations},
          {"jacobian_evaluations", s.jacobian_evaluations},
          {"linear_setups", s.linear_setups},
          {"error_test_failures", s.error_test_failures},
          {"nonlinear_iterations", s.nonlinear_iterations},
          {"nonlinear_convergence_failures", s.nonlinear_convergence_failures},
          {"last_step", s.last_step},
          {"wall_time", s.wall_time}};
}
}  // namespace

void writeCsvMetadata(const Results& r, std::ostream& out) {
  Json channels = Json::array();
  for (const Channel& c : r.channels()) channels.push_back(Json{{"name", c.name}, {"unit", c.unit}});
  const Json stats = statsJson(r.stats);
  Json errors = Json::array();
  for (const ErrorEstimate& e : r.errors) {
    Json j = {
        {"group", e.group}, {"unit", e.unit}, {"estimate", e.absolute}, {"excursion", e.excursion}, {"relative", e.relative}};
    if (e.measured >= 0.0) j["measured_relative"] = e.measured;
    errors.push_back(j);
  }
  Json doc = {{"format", kFormat},
              {"version", kVersionWritten},
              {"flexarm", kVersion},
              {"project", r.project_name},
              {"variant", r.variant},
              {"solver", r.solver_description},
              {"status", runStatusName(r.status)},
              {"end_time", r.end_time},
              {"message", r.message},
              {"accuracy", r.accuracy},
              {"method_choice", r.method_choice},
              {"errors", errors},
              {"stats", stats}};
  if (!r.variants.empty()) {
    Json variants = Json::array();
    for (const VariantOutcome& v : r.variants)
      variants.push_back(Json{{"name", v.name},
                              {"status", runStatusName(v.status)},
                              {"end_time", v.end_time},
                              {"message", v.message},
                              {"solver", v.solver},
                              {"stats", statsJson(v.stats)}});
    doc["variants"] = variants;
  }
  doc["channels"] = channels;
  // nlohmann writes numbers with '.' whatever the locale; text that is not UTF-8 becomes U+FFFD.
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

Status readCsvMetadata(const std::string& text, Results& results) {
  const Result<Json> parsed = parseJsonText(text);
  if (!parsed) return parsed.error();
  Diagnostics diag;
  JsonObjectReader doc(&*parsed, "", diag);
  if (!doc.valid()) return firstError(diag);
  std::string format;
  if (doc.string("format", format, Need::Required) && format != kFormat)
    diag.error("format", "must be \"" + std::string(kFormat) + "\" (a FlexArm results sidecar), got " + inQuotes(format));
  long version = 0;
  if (doc.integer("version", version, Need::Required, 1) && version > kVersionWritten)
    diag.error("version", "this FlexArm reads version " + std::to_string(kVersionWritten) + ", the file has " +
                              std::to_string(version) + " (written by a newer FlexArm?)");
  if (Status bad = firstError(diag); !bad) return bad;  // not a sidecar FlexArm can read: nothing more to say

  Results described;
  std::string ignored;
  doc.string("flexarm", ignored, Need::Optional);
  doc.string("project", described.project_name, Need::Optional);
  doc.string("variant", described.variant, Need::Optional);
  doc.string("solver", described.solver_description, Need::Optional);
  const int status = doc.choice("status", statusNames(), Need::Optional, 0);
  doc.number("end_time", described.end_time, Need::Optional);
  doc.string("message", described.message, Need::Optional);
  doc.number("accuracy", described.accuracy, Need::Optional, Range::NonNegative);
  doc.string("method_choice", described.method_choice, Need::Optional);
  if (const Json* errors = doc.array("errors", Need::Optional)) {
    for (std::size_t k = 0; k < errors->size(); ++k) {
      JsonObjectReader e(&(*errors)[k], "errors[" + std::to_string(k) + "]", diag);
      if (!e.valid()) continue;
      ErrorEstimate est;
      e.string("group", est.group, Need::Required);
      e.string("unit", est.unit, Need::Optional);
      e.number("estimate", est.absolute, Need::Required, Range::NonNegative);
      e.number("excursion", est.excursion, Need::Optional, Range::NonNegative);
      e.number("relative", est.relative, Need::Optional, Range::NonNegative);
      e.number("measured_relative", est.measured, Need::Optional, Range::NonNegative);
      e.finish();
      described.errors.push_back(est);
    }
  }
  readStats(doc.object("stats", Need::Optional), described.stats);
  if (const Json* variants = doc.array("variants", Need::Optional)) {
    for (std::size_t k = 0; k < variants->size(); ++k) {
      JsonObjectReader v(&(*variants)[k], "variants[" + std::to_string(k) + "]", diag);
      if (!v.valid()) continue;
      VariantOutcome o;
      v.string("name", o.name, Need::Required);
      o.status = static_cast<RunStatus>(v.choice("status", statusNames(), Need::Optional, 0));
      v.number("end_time", o.end_time, Need::Optional);
      v.string("message", o.message, Need::Optional);
      v.string("solver", o.solver, Need::Optional);
      readStats(v.object("stats", Need::Optional), o.stats);
      v.finish();
      described.variants.push_back(o);
    }
  }
  const std::vector<std::string> units = readUnits(doc, results);
  if (Status bad = firstError(diag); !bad) return bad;

  std::vector<Channel> channels = results.channels();
  for (std::size_t k = 0; k < channels.size(); ++k) channels[k].unit = units[k];
  described.setChannels(std::move(channels));
  for (std::size_t row = 0; row < results.rows(); ++row) described.appendRow(results.data() + row * units.size());
  described.status = static_cast<RunStatus>(status);
  results = std::move(described);
  return {};
}

}  // namespace flexarm
