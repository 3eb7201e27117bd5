#include "ui/plots/ValidationPlots.hpp"

#include "results/Comparison.hpp"
#include "results/CsvReader.hpp"
#include "ui/plots/PlotFigure.hpp"

namespace flexarm {

std::string drawValidationPlot(ValidationPlot& plot, const std::filesystem::path& report_dir, const ExportSize& size) {
  std::vector<Results> results;
  results.reserve(plot.runs.size());
  for (const auto& [legend, csv] : plot.runs) {
    Result<Results> r = readCsvFile(csv);
    if (!r) return r.error().text();
    results.push_back(std::move(*r));
  }
  std::vector<NamedRun> named;
  for (std::size_t k = 0; k < results.size(); ++k) named.push_back({plot.runs[k].first, &results[k]});
  const Results table = compareRuns(named, {plot.channel});
  std::string why;
  std::optional<Figure> f = figureOf(table, {plot.channel}, why);
  if (!f) return why;
  f->title = QString::fromStdString(plot.caption);
  markEarlyEnds(*f, named);
  std::error_code ec;
  std::filesystem::create_directories(report_dir / "validation", ec);
  const std::string image = "validation/" + plot.stem + ".png";
  why = exportFigure(*f, QString::fromStdString((report_dir / image).string()), size);
  if (why.empty()) plot.image = image;
  return why;
}

}  // namespace flexarm
