// flexarm-cli plot RESULTS.csv --channels A,B --out FILE.png|pdf|svg: a plot without a display.
#include <filesystem>
#include <iostream>
#include <memory>

#include "CliSupport.hpp"
#include "Command.hpp"
#include "Drawing.hpp"
#include "results/CsvReader.hpp"

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
#ifdef FLEXARM_WITH_PLOTS
  std::string why;
  Drawing* drawing = loadDrawing(why);
  if (!drawing) return fail(why);
  const DrawnPlot drawn = drawing->plot(*r, o.channels, o.title, o.out, {o.size.width, o.size.height, o.size.dpi});
  if (!drawn.channel_error.empty()) return fail(o.csv + ": " + drawn.channel_error);
  if (!drawn.write_error.empty()) return fail(drawn.write_error);
  std::cout << "plot of " << drawn.curves << " curves written to " << fs::absolute(o.out).string() << "\n";
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
