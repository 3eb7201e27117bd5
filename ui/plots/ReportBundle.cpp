#include "ui/plots/ReportBundle.hpp"

#include <QDateTime>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <system_error>

#include "Version.hpp"
#include "base/Files.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvMetadata.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"

namespace flexarm {
namespace {

std::string formatValue(double x) {
  if (std::isnan(x)) return "–";
  return formatShort(x, 6);  // not printf: the Qt application has set the C locale from the environment
}

std::string mdCell(std::string s) {
  for (char& c : s)
    if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
  return s;
}

}  // namespace

BundleOutcome writeReportBundle(const BundleRequest& req) {
  BundleOutcome out;
  if (!req.project || req.runs.empty()) {
    out.error = "nothing to export: no project or no runs";
    return out;
  }
  for (const NamedRun& r : req.runs)
    if (!r.results || r.results->rows() == 0) {
      out.error = "run \"" + r.name + "\" has no results to export";
      return out;
    }
  std::error_code ec;
  std::filesystem::create_directories(req.dir / "plots", ec);
  if (ec) {
    out.error = "cannot create \"" + (req.dir / "plots").string() + "\": " + ec.message();
    return out;
  }
  auto fail = [&](const std::string& why) {
    out.error = why;
    return out;
  };
  // The project and each run's table.
  if (const Status saved = saveProjectFile(*req.project, req.dir / "project.flexarm.json"); !saved)
    return fail(saved.error().text());
  out.files.push_back("project.flexarm.json");
  const bool many = req.runs.size() > 1;
  std::vector<std::string> csv_names;
  for (const NamedRun& r : req.runs) {
    const std::string name = (many || !r.name.empty() ? caseFileName(r.name) : std::string("results")) + ".csv";
    if (req.run_csvs_written) {
      if (!std::filesystem::exists(req.dir / name))
        return fail("run \"" + r.name + "\": \"" + (req.dir / name).string() + "\" is missing");
    } else {
      if (const Status written = writeCsvFile(*r.results, req.dir / name); !written) return fail(written.error().text());
    }
    out.files.push_back(name);
    if (std::error_code ec; std::filesystem::exists(req.dir / csvMetadataFile(name), ec))
      out.files.push_back(csvMetadataFile(name).string());
    csv_names.push_back(name);
  }
  // The comparison table and the plots are made from the same common-grid results.
  for (const std::string& ch : req.channels)
    for (const NamedRun& r : req.runs)
      if (r.results->channelIndex(ch) < 0) return fail("run \"" + r.name + "\" has no channel \"" + ch + "\"");
  Results table = many ? compareRuns(req.runs, req.channels) : *req.runs.front().results;
  if (many) {
    table.project_name = comparisonName(req.project->name, req.runs);
    if (const Status written = writeCsvFile(table, req.dir / "compare.csv"); !written) return fail(written.error().text());
    out.files.push_back("compare.csv");
    out.files.push_back(csvMetadataFile("compare.csv").string());
  }
  std::vector<std::string> plotted = req.plot_channels;
  if (plotted.empty())  // the default plots, among the compared channels
    for (const std::string& ch : defaultPlotChannels(req.runs.front().results->channels()))
      if (req.channels.empty() || std::find(req.channels.begin(), req.channels.end(), ch) != req.channels.end())
        plotted.push_back(ch);
  std::vector<std::pair<std::string, std::string>> images;  // caption, file
  auto plot = [&](const std::vector<std::string>& columns, const std::string& caption, const std::string& stem,
                  bool difference) -> std::string {
    std::string why;
    std::optional<Figure> f = figureOf(table, columns, why);
    if (!f) return why;
    f->title = QString::fromStdString(req.project->name + ": " + caption);
    markEarlyEnds(*f, req.runs, difference);  // a single run's divergence too
    for (const char* ext : {".png", ".svg"}) {
      const std::string file = "plots/" + stem + ext;
      why = exportFigure(*f, QString::fromStdString((req.dir / file).string()), req.size);
      if (!why.empty()) return why;
      out.files.push_back(file);
    }
    images.emplace_back(caption, "plots/" + stem + ".png");
    return {};
  };
  for (const std::string& ch : plotted) {
    if (std::string why = plot({ch}, ch, caseFileName(ch), false); !why.empty()) return fail("plot of " + ch + ": " + why);
    if (!many) continue;
    std::vector<std::string> differences;
    for (std::size_t k = 1; k < req.runs.size(); ++k)
      differences.push_back(ch + "[" + req.runs[k].name + " - " + req.runs[0].name + "]");
    if (std::string why = plot(differences, ch + " difference", caseFileName(ch) + "-difference", true); !why.empty())
      return fail("difference plot of " + ch + ": " + why);
  }

  // The summary.
  const Project& p = *req.project;
  std::ostringstream md;
  md << "# " << mdCell(p.name) << (many ? ": comparison" : ": run") << "\n\n";
  md << "Made by FlexArm " << kVersion << " on " << QDateTime::currentDateTime().toString(Qt::ISODate).toStdString() << ".";
  if (!req.command.empty()) md << " Command: `" << req.command << "`.";
  md << "\n\n";
  if (!p.description.empty()) md << p.description << "\n\n";
  md << "## Runs\n\n| run | solver, tolerances, coupling | outcome | end time [s] | steps | RHS evaluations | wall time [s] | "
        "file |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (std::size_t k = 0; k < req.runs.size(); ++k) {
    const Results& r = *req.runs[k].results;
    md << "| " << mdCell(req.runs[k].name.empty() ? p.name : req.runs[k].name) << " | " << mdCell(r.solver_description) << " | "
       << runStatusName(r.status) << (r.message.empty() ? "" : ": " + mdCell(r.message)) << " | " << formatValue(r.end_time)
       << " | " << r.stats.steps << " | " << r.stats.rhs_evaluations << " | " << formatValue(r.stats.wall_time) << " | ["
       << csv_names[k] << "](" << csv_names[k] << ") |\n";
  }
  const SimulationSettings& s = p.simulation;
  md << "\nProject settings: end time " << formatValue(s.t_end) << " s, output rate " << formatValue(s.output_rate) << " Hz, "
     << describeRun(req.system ? *req.system : MultibodySystem::fromModel(p.model, p.coupling), p.simulation)
     << ". Each run applies its variant's overrides to these.\n";
  md << "\n## Scalar metrics\n\n| metric |";
  for (const NamedRun& r : req.runs) md << " " << mdCell(r.name.empty() ? p.name : r.name) << " |";
  md << "\n|---|";
  for (std::size_t k = 0; k < req.runs.size(); ++k) md << "---|";
  md << "\n";
  std::vector<std::vector<ScalarMetric>> metrics;
  for (const NamedRun& r : req.runs) metrics.push_back(scalarMetrics(p.model, r.results));
  for (std::size_t m = 0; m < metrics.front().size(); ++m) {
    md << "| " << metrics.front()[m].name << " |";
    for (const auto& run : metrics) md << " " << (m < run.size() ? formatValue(run[m].value) : "–") << " |";
    md << "\n";
  }
  if (!images.empty()) md << "\n## Plots\n\nPNG and SVG of each plot are in `plots/`.\n\n";
  for (const auto& [caption, file] : images) md << "### " << caption << "\n\n![" << caption << "](" << file << ")\n\n";
  if (const Status written = writeFileAtomically(req.dir / "summary.md", md.str()); !written) return fail(written.error().text());
  out.files.push_back("summary.md");
  return out;
}

}  // namespace flexarm
