// Export for reports (issue 8): CSV round trip, plots to PNG (size, DPI), PDF (checked with pdfinfo)
// and SVG (an XML parser), report bundles. Runs headless on Qt's offscreen platform.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <QImage>
#include <QFile>
#include <QXmlStreamReader>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "io/ProjectFile.hpp"
#include "results/Comparison.hpp"
#include "results/CsvReader.hpp"
#include "results/CsvWriter.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"
#include "ui/plots/PlotExport.hpp"
#include "ui/plots/ReportBundle.hpp"
#include "ui/plots/ValidationPlots.hpp"

namespace fs = std::filesystem;
using namespace flexarm;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("flexarm-export-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// A table with awkward numbers: thirds, tiny and huge magnitudes, negative zero, and no-value cells.
Results awkwardTable() {
  Results r;
  r.setChannels({{"t", "s"}, {"tip.arm.v", "m"}, {"torsion.j1", "rad"}});
  for (int k = 0; k < 50; ++k) {
    const double t = k / 3.0;
    const double row[] = {t, std::sin(t) * 1e-7 + 1.0 / 7.0, k == 7 ? -0.0 : (k > 40 ? std::nan("") : std::exp(k) * 1e-300)};
    r.appendRow(row);
  }
  r.project_name = "awkward, with a comma";
  r.variant = "coupling=zero";
  r.solver_description = "CVODE BDF rtol=1e-08 atol=1e-10 coupling=zero";
  r.status = RunStatus::Diverged;
  r.end_time = 13.0 + 2.0 / 3.0;
  r.message = "diverged at t = 13.67 s: the tip (of link 'arm') ran away";
  return r;
}

Figure sineFigure() {
  Figure f;
  f.title = "two sines";
  f.y_label = "value [m]";
  for (int s = 0; s < 2; ++s) {
    PlotSeries p;
    p.name = QString("curve %1").arg(s);
    for (int k = 0; k <= 200; ++k) {
      p.t.push_back(k * 0.05);
      p.v.push_back(k > 150 && s == 1 ? std::nan("") : std::sin(k * 0.05 * (s + 1)));
    }
    f.series.push_back(p);
  }
  return f;
}

std::string commandOutput(const std::string& cmd, int& exit_code) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = ::pclose(p);
  exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

class Export : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ensureQtApplication(); }
};

}  // namespace

TEST_F(Export, CsvReadsBackToTheSameNumbersAndRunDescription) {
  // The CSV holds the header and the numbers; the sidecar X.meta.json the run's description. Read
  // together, they give back the Results that were written.
  Results r = awkwardTable();
  r.stats.steps = 812;
  r.stats.rhs_evaluations = 2130;
  r.stats.jacobian_evaluations = 41;
  r.stats.linear_setups = 57;
  r.stats.error_test_failures = 3;
  r.stats.nonlinear_iterations = 1234;
  r.stats.nonlinear_convergence_failures = 2;
  r.stats.last_step = 1.0 / 3.0e3;
  r.stats.wall_time = 0.4251;
  const fs::path file = scratch("awkward.csv");
  ASSERT_TRUE(writeCsvFile(r, file));
  ASSERT_TRUE(fs::exists(scratch("awkward.meta.json")));
  const Result<Results> back = readCsvFile(file);
  ASSERT_TRUE(back) << back.error().text();
  ASSERT_EQ(back->channels().size(), 3u);
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(back->channels()[c].name, r.channels()[c].name);
    EXPECT_EQ(back->channels()[c].unit, r.channels()[c].unit);
  }
  ASSERT_EQ(back->rows(), r.rows());
  for (std::size_t k = 0; k < r.rows(); ++k)
    for (std::size_t c = 0; c < 3; ++c) {
      const double a = r.value(k, c), b = back->value(k, c);
      if (std::isnan(a)) {
        EXPECT_TRUE(std::isnan(b)) << "row " << k;  // an empty cell stays "no value"
      } else {
        EXPECT_EQ(a, b) << "row " << k << " column " << c;  // 17 digits: exact, beyond the 1e-12 asked
        EXPECT_EQ(std::signbit(a), std::signbit(b));
      }
    }
  EXPECT_EQ(back->project_name, r.project_name);
  EXPECT_EQ(back->variant, r.variant);
  EXPECT_EQ(back->solver_description, r.solver_description);
  EXPECT_EQ(back->status, RunStatus::Diverged);
  EXPECT_EQ(back->end_time, r.end_time);
  EXPECT_EQ(back->message, r.message);
  EXPECT_EQ(back->stats.steps, 812);
  EXPECT_EQ(back->stats.rhs_evaluations, 2130);
  EXPECT_EQ(back->stats.jacobian_evaluations, 41);
  EXPECT_EQ(back->stats.linear_setups, 57);
  EXPECT_EQ(back->stats.error_test_failures, 3);
  EXPECT_EQ(back->stats.nonlinear_iterations, 1234);
  EXPECT_EQ(back->stats.nonlinear_convergence_failures, 2);
  EXPECT_EQ(back->stats.last_step, r.stats.last_step);
  EXPECT_EQ(back->stats.wall_time, r.stats.wall_time);
  // The CSV is the header row, then the rows: nothing a CSV reader would need an option to skip.
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  EXPECT_EQ(s.rfind("t,tip.arm.v,torsion.j1\n", 0), 0u) << s.substr(0, 200);
  EXPECT_EQ(s.find('#'), std::string::npos);
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), static_cast<long>(r.rows()) + 1);
  // The sidecar carries what a report needs to repeat the run, as JSON.
  std::ifstream meta_in(scratch("awkward.meta.json"));
  std::stringstream meta;
  meta << meta_in.rdbuf();
  for (const char* field :
       {"\"format\": \"flexarm-results-metadata\"", "\"project\": \"awkward, with a comma\"", "\"variant\": \"coupling=zero\"",
        "\"solver\": \"CVODE BDF rtol=1e-08 atol=1e-10 coupling=zero\"", "\"status\": \"diverged\"", "\"unit\": \"rad\""})
    EXPECT_NE(meta.str().find(field), std::string::npos) << field << "\n" << meta.str();
  // writeCsv alone (standard output) is the same CSV.
  std::stringstream alone;
  writeCsv(r, alone);
  EXPECT_EQ(alone.str(), s);
}

TEST_F(Export, BrokenCsvIsRejectedWithTheLine) {
  std::stringstream a("# x\nt,a\n0,1\n0.1,1,2\n");
  Result<Results> r = readCsv(a);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error().text(), "line 4: 3 cells, the header has 2");
  std::stringstream b("t,a\n0,abc\n");
  r = readCsv(b);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error().text(), "line 2, column a: \"abc\" is not a number");
  std::stringstream c("time,a\n");
  r = readCsv(c);
  EXPECT_FALSE(r);
  EXPECT_NE(r.error().text().find("must start with the channel \"t\""), std::string::npos);
  r = readCsvFile("/nonexistent/x.csv");
  EXPECT_FALSE(r);
  EXPECT_NE(r.error().text().find("cannot read"), std::string::npos);
}

TEST_F(Export, PngHasTheRequestedSizeAndResolution) {
  const fs::path file = scratch("plot.png");
  ASSERT_EQ(exportFigure(sineFigure(), QString::fromStdString(file.string()), {640, 480, 300}), "");
  QImage img;
  ASSERT_TRUE(img.load(QString::fromStdString(file.string())));
  EXPECT_EQ(img.width(), 640);
  EXPECT_EQ(img.height(), 480);
  EXPECT_NEAR(img.dotsPerMeterX(), 300 / 0.0254, 1.0);
  // Not blank: the two curves are drawn in their colours.
  int blue = 0, red = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      blue += (c == seriesColour(0)) ? 1 : 0;
      red += (c == seriesColour(1)) ? 1 : 0;
    }
  EXPECT_GT(blue, 200);
  EXPECT_GT(red, 200);
}

TEST_F(Export, PdfIsValidForPdfinfo) {
  const fs::path file = scratch("plot.pdf");
  ASSERT_EQ(exportFigure(sineFigure(), QString::fromStdString(file.string()), {800, 500, 150}), "");
  int code = -1;
  const std::string info = commandOutput("pdfinfo '" + file.string() + "'", code);
  ASSERT_EQ(code, 0) << info;
  EXPECT_NE(info.find("Pages:           1"), std::string::npos) << info;
  EXPECT_NE(info.find("Page size:       800 x 500 pts"), std::string::npos) << info;
  EXPECT_NE(info.find("Creator:         FlexArm"), std::string::npos) << info;
}

TEST_F(Export, SvgIsWellFormedXmlWithTheCurves) {
  const fs::path file = scratch("plot.svg");
  ASSERT_EQ(exportFigure(sineFigure(), QString::fromStdString(file.string()), {900, 600, 150}), "");
  QFile f(QString::fromStdString(file.string()));
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&f);
  QString root;
  int shapes = 0, texts = 0;
  bool legend = false;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) {
      if (xml.isCharacters() && xml.text().contains(QStringLiteral("curve 1"))) legend = true;
      continue;
    }
    if (root.isEmpty()) {
      root = xml.name().toString();
      EXPECT_EQ(xml.attributes().value("width").toString(), "317.5mm") << "900 px at 72 dpi";
    }
    if (xml.name() == QStringLiteral("path") || xml.name() == QStringLiteral("polyline")) ++shapes;
    if (xml.name() == QStringLiteral("text")) ++texts;
  }
  EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString() << " at line " << xml.lineNumber();
  EXPECT_EQ(root, "svg");
  EXPECT_GE(shapes, 2);
  EXPECT_GT(texts, 5);  // tick labels, axis labels, legend
  EXPECT_TRUE(legend);
}

TEST_F(Export, BadRequestsAreRefusedWithAReason) {
  EXPECT_EQ(exportFigure(sineFigure(), "/tmp/x.jpg", {}), "cannot tell the format of \"/tmp/x.jpg\": use .png, .pdf or .svg");
  EXPECT_NE(exportFigure(sineFigure(), "/tmp/x.png", {4, 4, 100}).find("outside 16..20000"), std::string::npos);
  EXPECT_NE(exportFigure(sineFigure(), "/tmp/x.png", {100, 100, 0}).find("dpi"), std::string::npos);
  EXPECT_EQ(exportFigure(sineFigure(), "/nonexistent-dir/x.png", {}),
            "cannot write \"/nonexistent-dir/x.png\": the folder \"/nonexistent-dir\" does not exist");
  std::string why;
  EXPECT_FALSE(figureOf(awkwardTable(), {"tip.arm.w"}, why));
  EXPECT_EQ(why, "no channel \"tip.arm.w\" in the results");
}

TEST_F(Export, ReportBundleOfAComparisonHoldsTablesPlotsAndMetrics) {
  // Zero- against high-order coupling of the spin-up beam at 8 rad/s, shortened: the zero-order model
  // diverges at 6.5 s, the high-order one goes on.
  LoadedProject base = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/spin-up-beam.flexarm.json",
                                       {"joints[0].drive.omega0=8", "simulation.t_end=8"});
  ASSERT_TRUE(base.project) << base.diagnostics.text();
  std::vector<Results> runs;
  std::vector<NamedRun> named;
  for (const char* spec : {"coupling=zero", "coupling=high"}) {
    const Result<StudyCase> c = variantCase(*base.project, spec);
    ASSERT_TRUE(c) << c.error().text();
    const Result<Project> p = caseProject(*base.project, FLEXARM_PROJECTS_DIR, *c);
    ASSERT_TRUE(p) << p.error().text();
    runs.push_back(simulate(*p));
    runs.back().variant = spec;
  }
  for (std::size_t k = 0; k < runs.size(); ++k) named.push_back({runs[k].variant, &runs[k]});
  ASSERT_EQ(runs[0].status, RunStatus::Diverged);
  ASSERT_EQ(runs[1].status, RunStatus::Completed);
  BundleRequest req;
  req.dir = scratch("bundle");
  req.project = &*base.project;
  req.runs = named;
  req.size = {600, 400, 96};
  const BundleOutcome out = writeReportBundle(req);
  ASSERT_EQ(out.error, "");
  for (const char* f : {"project.flexarm.json", "coupling=zero.csv", "coupling=high.csv", "compare.csv", "summary.md",
                        "coupling=zero.meta.json", "coupling=high.meta.json", "compare.meta.json", "plots/tip.beam.v.png",
                        "plots/tip.beam.v.svg", "plots/tip.beam.v-difference.png"}) {
    EXPECT_TRUE(fs::exists(req.dir / f)) << f;
    EXPECT_NE(std::find(out.files.begin(), out.files.end(), f), out.files.end()) << f;
  }
  // Each run's CSV reads back with its outcome and units from its sidecar.
  const Result<Results> zero_csv = readCsvFile(req.dir / "coupling=zero.csv");
  ASSERT_TRUE(zero_csv) << zero_csv.error().text();
  EXPECT_EQ(zero_csv->status, RunStatus::Diverged);
  EXPECT_EQ(zero_csv->end_time, runs[0].end_time);
  EXPECT_EQ(zero_csv->channels()[zero_csv->channelIndex("tip.beam.v")].unit, "m");
  // The project copy is the project; the comparison table is compareRuns of the runs, read back exactly.
  const LoadedProject copy = loadProjectFile(req.dir / "project.flexarm.json");
  ASSERT_TRUE(copy.project);
  EXPECT_EQ(projectToText(*copy.project), projectToText(*base.project));
  const Result<Results> table = readCsvFile(req.dir / "compare.csv");
  ASSERT_TRUE(table) << table.error().text();
  const Results expected = compareRuns(named, {});
  ASSERT_EQ(table->rows(), expected.rows());
  ASSERT_EQ(table->channels().size(), expected.channels().size());
  for (std::size_t k = 0; k < expected.rows(); ++k)
    for (std::size_t c = 0; c < expected.channels().size(); ++c) {
      if (std::isnan(expected.value(k, c)))
        EXPECT_TRUE(std::isnan(table->value(k, c)));
      else
        EXPECT_EQ(table->value(k, c), expected.value(k, c));
    }
  // The summary names the outcomes, the settings and the peak tip deflection of each run.
  std::ifstream in(req.dir / "summary.md");
  std::stringstream md;
  md << in.rdbuf();
  const std::string s = md.str();
  EXPECT_NE(
      s.find("| coupling=zero | auto: generalized-alpha rho_inf=0.8 rtol=0.0001 atol=1e-06 output_rate=20 Hz coupling=zero | "
             "diverged"),
      std::string::npos)
      << s;
  EXPECT_NE(
      s.find("| coupling=high | auto: generalized-alpha rho_inf=0.8 rtol=0.0001 atol=1e-06 output_rate=20 Hz coupling=high | "
             "completed"),
      std::string::npos)
      << s;
  char row[128];
  std::snprintf(row, sizeof row, "| peak_tip.beam [m] | %.6g | %.6g |", peakAbs(runs[0].column("tip.beam.v")),
                peakAbs(runs[1].column("tip.beam.v")));
  EXPECT_NE(s.find(row), std::string::npos) << row << "\n" << s;
  EXPECT_NE(s.find("![tip.beam.v](plots/tip.beam.v.png)"), std::string::npos);
  // A caller that wrote the runs' CSVs itself (flexarm-cli compare, through runCases) gets them kept,
  // not written twice; a missing one is named.
  { std::ofstream(req.dir / "coupling=zero.csv", std::ios::trunc) << "t,kept\n0,1\n"; }
  req.run_csvs_written = true;
  ASSERT_EQ(writeReportBundle(req).error, "");
  {
    std::ifstream kept(req.dir / "coupling=zero.csv");
    std::stringstream text;
    text << kept.rdbuf();
    EXPECT_EQ(text.str(), "t,kept\n0,1\n");
  }
  fs::remove(req.dir / "coupling=high.csv");
  EXPECT_EQ(writeReportBundle(req).error,
            "run \"coupling=high\": \"" + (req.dir / "coupling=high.csv").string() + "\" is missing");
  req.run_csvs_written = false;
  // A run without rows is refused, not plotted.
  Results empty;
  req.runs = {{"empty", &empty}};
  EXPECT_EQ(writeReportBundle(req).error, "run \"empty\" has no results to export");
  fs::remove_all(req.dir.parent_path());
}

TEST_F(Export, ValidationReportFiguresAreDrawnFromTheRunsCsvs) {
  // Two runs as CSV files, one ending early (diverged): the figure overlays them and marks the end.
  const fs::path dir = scratch("validation");
  fs::create_directories(dir);
  Results a = awkwardTable(), b = awkwardTable();
  b.status = RunStatus::Completed;
  for (Results* r : {&a, &b}) ASSERT_TRUE(writeCsvFile(*r, dir / (r == &a ? "a.csv" : "b.csv")));
  PaperValidation paper;
  paper.seed = "999";
  paper.title = "test paper";
  paper.project = "x.flexarm.json";
  paper.rows.push_back({"id", "quantity", "1", "1", Verdict::Agree, "exact"});
  paper.plots.push_back({"Tip deflection of A and B",
                         "fig-a-b",
                         "tip.arm.v",
                         {{"A", (dir / "a.csv").string()}, {"B", (dir / "b.csv").string()}},
                         {}});
  ASSERT_EQ(drawValidationPlot(paper.plots[0], dir, {500, 300, 100}), "");
  EXPECT_EQ(paper.plots[0].image, "validation/fig-a-b.png");
  QImage img;
  ASSERT_TRUE(img.load(QString::fromStdString((dir / "validation/fig-a-b.png").string())));
  EXPECT_EQ(img.size(), QSize(500, 300));
  ValidationOptions o;
  const std::string md = validationMarkdown({paper}, o, "flexarm-cli validate");
  EXPECT_NE(md.find("![Tip deflection of A and B](validation/fig-a-b.png)"), std::string::npos) << md;
  // A missing CSV: no image, a reason, and the report has no broken link.
  paper.plots[0].image.clear();
  paper.plots[0].runs[1].second = (dir / "missing.csv").string();
  EXPECT_NE(drawValidationPlot(paper.plots[0], dir, {500, 300, 100}).find("cannot read"), std::string::npos);
  EXPECT_EQ(validationMarkdown({paper}, o, "x").find("fig-a-b"), std::string::npos);
}

TEST(ExportMarkers, EarlyEndsTakeTheColourOfTheirCurve) {
  // Three runs: the reference (0) and run 2 diverge. In the overlay, run k's curve is curve k; in the
  // difference figure, curve k - 1 is run k minus run 0, and run 0's end ends every difference.
  Results r[3];
  for (int k = 0; k < 3; ++k) {
    r[k].status = k == 1 ? RunStatus::Completed : RunStatus::Diverged;
    r[k].end_time = 1.0 + k;
  }
  const std::vector<NamedRun> runs = {{"a", &r[0]}, {"b", &r[1]}, {"c", &r[2]}};
  Figure overlay, difference;
  markEarlyEnds(overlay, runs);
  markEarlyEnds(difference, runs, true);
  ASSERT_EQ(overlay.markers.size(), 2u);
  ASSERT_EQ(difference.markers.size(), 2u);
  EXPECT_EQ(overlay.markers[0].series, 0u);
  EXPECT_EQ(overlay.markers[1].series, 2u);
  EXPECT_EQ(overlay.markers[1].label, "c diverged at t = 3 s");
  EXPECT_EQ(difference.markers[0].series, 0u);
  EXPECT_EQ(difference.markers[1].series, 1u);
  EXPECT_EQ(difference.markers[1].t, 3.0);
}
