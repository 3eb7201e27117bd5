// flexarm-cli plot RESULTS.csv --channels A,B --out FILE.png|pdf|svg: a plot without a display.
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "results/CsvReader.hpp"
#ifdef FLEXARM_WITH_PLOTS
#include "ui/plots/PlotExport.hpp"
#endif

namespace fs = std::filesystem;

namespace flexarm::cli {

namespace {

struct PlotOptions {
  std::string csv;
  std::vector<std::string> channels;
  std::string out;
  std::string title;
  FigureSizeOption size;
};

int plot(const PlotOptions& o) {
  const Result<Results> r = readCsvFile(o.csv);
  if (!r) return fail(r.error().text());
  std::string why;
#ifdef FLEXARM_WITH_PLOTS
  ensureQtApplication();
  std::optional<Figure> figure = figureOf(*r, o.channels, why);
  if (!figure) return fail(o.csv + ": " + why);
  if (!o.title.empty()) figure->title = QString::fromStdString(o.title);
  why = exportFigure(*figure, QString::fromStdString(o.out), {o.size.width, o.size.height, o.size.dpi});
  if (!why.empty()) return fail(why);
  std::cout << "plot of " << figure->series.size() << " curves written to " << fs::absolute(o.out).string() << "\n";
  return kExitOk;
#else
  return fail("this build has no plotting (configure with -DFLEXARM_BUILD_UI=ON)");
#endif
}

}  // namespace

Command plotCommand() {
  return {"plot", "RESULTS.csv --channels NAME,NAME... --out FILE.png|pdf|svg [--size WIDTHxHEIGHT] [--dpi N] [--title TEXT]",
          "Plot channels of a results CSV (from run, study or compare) against time, without a\n"
          "display. In a compare.csv, NAME selects that channel of every variant and\n"
          "'NAME[B - A]' a difference. --size in pixels (default 1200x700; PDF and SVG: points),\n"
          "--dpi is written into PNG files (default 150).",
          [](CLI::App& app) {
            auto o = std::make_shared<PlotOptions>();
            app.add_option("RESULTS", o->csv, "a results CSV written by run, inverse, study or compare")->required();
            app.add_option("--channels", o->channels, "the channels to plot, separated by commas")
                ->type_name("NAME,NAME...")
                ->delimiter(',')
                ->allow_extra_args(false)
                ->required();
            app.add_option("--out,-o", o->out, "the figure; its extension (.png, .pdf, .svg) chooses the format")
                ->type_name("FILE")
                ->required()
                ->check(nonEmptyPath());
            app.add_option("--title", o->title, "the figure's title")->type_name("TEXT");
            addFigureSizeOptions(app, o->size);
            return CommandAction([o] { return plot(*o); });
          }};
}

}  // namespace flexarm::cli
