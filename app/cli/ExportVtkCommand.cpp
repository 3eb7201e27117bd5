// flexarm-cli export-vtk RESULTS.csv --project P --out DIR: the results of a run as a ParaView time
// series (one .vtp per output time and a .pvd collection, paraview/ParaViewSeries.hpp). Also what
// `flexarm-cli run --vtk DIR` writes after its run.
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "Modules.hpp"
#include "SeriesWriting.hpp"
#include "VtkSeriesOutput.hpp"
#include "base/Files.hpp"
#include "base/Text.hpp"
#include "results/CsvReader.hpp"

namespace fs = std::filesystem;

namespace flexarm::cli {

SeriesWriting* loadSeriesWriting(std::string& why) {
  static std::string error;
  static SeriesWriting* const writing =
      static_cast<SeriesWriting*>(openModule({FLEXARM_PARAVIEW_MODULE_FILE, "flexarm_cli_series_writing", kSeriesInterfaceVersion,
                                              "write the ParaView series", "flexarm-cli-paraview"},
                                             error));
  why = error;
  return writing;
}

bool checkVtkFolder(const std::string& dir, const std::string& option) {
  if (std::string why; !loadSeriesWriting(why)) {
    fail(option + ": " + why);
    return false;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) {
    fail(option + ": cannot create the folder " + inQuotes(dir, 200) + (ec ? ": " + ec.message() : std::string()));
    return false;
  }
  if (const Status writable = checkWritable(fs::path(dir) / (SeriesOptions().base + ".pvd")); !writable) {
    fail(option + ": " + writable.error().text());
    return false;
  }
  return true;
}

int writeVtkSeries(const Project& project, CouplingOrder coupling, const Results& results, const std::string& dir,
                   const std::string& option, std::ostream& report) {
  std::string why;
  SeriesWriting* const series = loadSeriesWriting(why);
  if (!series) return fail(option + ": " + why);
  const MultibodySystem sys = MultibodySystem::fromModel(project.model, coupling);
  const SeriesOutcome o = series->write(project.model, sys, results, dir, SeriesOptions{});
  if (!o.error.empty()) return fail(option + ": " + o.error);
  report << series->describe(o, dir) << "\n";
  return kExitOk;
}

namespace {

struct ExportVtkOptions {
  std::string results;
  ProjectInput project;
  std::string out;
};

// The coupling order a results file was computed with ("... coupling=zero" in its solver comment).
std::optional<CouplingOrder> couplingOfResults(const Results& r) {
  const std::size_t at = r.solver_description.rfind("coupling=");
  if (at == std::string::npos) return std::nullopt;
  const std::string word = r.solver_description.substr(at + 9, r.solver_description.find(' ', at) - at - 9);
  for (CouplingOrder c : {CouplingOrder::Zero, CouplingOrder::Geometric, CouplingOrder::High})
    if (word == couplingName(c)) return c;
  return std::nullopt;
}

int exportVtk(const ExportVtkOptions& o) {
  const Result<Results> results = readCsvFile(o.results);
  if (!results) return fail(results.error().text());
  std::optional<Project> project = loadProject(o.project);
  if (!project) return kExitBadInput;
  const CouplingOrder coupling = couplingOfResults(*results).value_or(project->coupling);
  std::string why;
  SeriesWriting* const series = loadSeriesWriting(why);
  if (!series) return fail("--out: " + why);
  const MultibodySystem sys = MultibodySystem::fromModel(project->model, coupling);
  if (const Status fits = series->checkResultsBelong(sys, *results); !fits)
    return fail(o.results + ": the results do not belong to " + o.project.path + ": " + fits.error().text());
  if (!checkVtkFolder(o.out, "--out")) return kExitBadInput;
  return writeVtkSeries(*project, coupling, *results, o.out, "--out", std::cout);
}

}  // namespace

Command exportVtkCommand() {
  return {"export-vtk", "RESULTS.csv --project PROJECT --out DIR [--set PATH=VALUE ...]",
          "ParaView output: the results of a run (a CSV of `flexarm-cli run` or the workbench) as one\n"
          "VTK poly data file per output time (DIR/arm_0000.vtp, ...) and DIR/arm.pvd, the collection\n"
          "with the times that ParaView opens: the deformed centreline of every link with its\n"
          "displacement, curvature, surface strain and link id, and the joints and payloads as points.\n"
          "The project (with the same --set overrides as the run) must be the one the results came from.",
          [](CLI::App& app) {
            auto o = std::make_shared<ExportVtkOptions>();
            app.add_option("results", o->results, "the results CSV")->type_name("RESULTS.csv")->required();
            app.add_option("--project,-p", o->project.path, "the project the results were computed from")
                ->type_name("PROJECT")
                ->required()
                ->check(nonEmptyPath());
            addSetOption(app, o->project.sets);
            app.add_option("-o,--out", o->out, "the folder to write the series into (created when missing)")
                ->type_name("DIR")
                ->required()
                ->check(nonEmptyPath());
            return CommandAction([o] { return exportVtk(*o); });
          }};
}

}  // namespace flexarm::cli
