// Compare mode and the workbench's exports (issue 8), as a user drives them (Qt Test, xvfb-run):
// zero- against high-order coupling of the spin-up beam at 8 rad/s, side by side.
#include <QFile>
#include <QImage>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <qcustomplot.h>
#include <sys/wait.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "results/RowCoordinates.hpp"
#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvMetadata.hpp"
#include "solvers/Simulation.hpp"
#include "solvers/Study.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/compare/CompareDialog.hpp"
#include "ui/compare/ComparePlot.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/view/Timeline.hpp"

#include "tests/ui/UiTestSupport.hpp"

using flexarm::test::nonBackgroundPixels;

using namespace flexarm;

namespace {
const std::vector<std::string> kAtEight = {"joints[0].drive.omega0=8", "simulation.t_end=10"};

QString example(const char* name) { return QString(FLEXARM_PROJECTS_DIR) + "/" + name; }

// The spin-up beam at 8 rad/s for 10 s, saved where the test can open it.
QString spinUpAtEight(const QTemporaryDir& dir) {
  const LoadedProject p = loadProjectFile(example("spin-up-beam.flexarm.json").toStdString(), kAtEight);
  if (!p.project) return {};
  const QString path = dir.filePath("spin-up-at-8.flexarm.json");
  return saveProjectFile(*p.project, path.toStdString()) ? path : QString();
}

// The engine's own run of a variant of the project at 8 rad/s: what the workbench must show.
Results engineRun(const std::string& overrides) {
  const LoadedProject p = loadProjectFile(example("spin-up-beam.flexarm.json").toStdString(), kAtEight);
  const Result<Project> v = caseProject(*p.project, FLEXARM_PROJECTS_DIR, {overrides, {overrides}});
  return simulate(*v);
}

QStringList csvLines(const QString& file) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll()).split('\n');
}

// A results CSV's sidecar (X.meta.json) as JSON, without the one thing two runs differ in: the wall time.
Json sidecarWithoutWallTime(const QString& csv_file) {
  QFile f(QString::fromStdString(csvMetadataFile(csv_file.toStdString()).string()));
  if (!f.open(QIODevice::ReadOnly)) return Json();
  Json j = Json::parse(f.readAll().toStdString(), nullptr, false);
  if (j.is_object() && j.contains("stats")) j["stats"].erase("wall_time");
  if (j.is_object() && j.contains("variants"))  // a comparison's: each compared run's
    for (Json& v : j["variants"])
      if (v.contains("stats")) v["stats"].erase("wall_time");
  return j;
}

int runCommand(const QString& cmd) {
  const int status = std::system(cmd.toLocal8Bit().constData());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

class CompareTest : public QObject {
  Q_OBJECT
 private slots:
  void zeroAgainstHighOrderAtEightRadPerSecond() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(spinUpAtEight(dir)));
    CompareWindow* c = w.compareZeroVsHigh();
    QVERIFY(c);
    QVERIFY(QTest::qWaitForWindowExposed(c));
    QCOMPARE(c->variantCount(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), 120000);

    // Both variants finish or diverge as the engine says, to the last digit.
    const Results zero = engineRun("coupling=zero"), high = engineRun("coupling=high");
    QCOMPARE(zero.status, RunStatus::Diverged);
    QCOMPARE(high.status, RunStatus::Completed);
    const Results* gz = c->variantResults(0);
    const Results* gh = c->variantResults(1);
    QVERIFY(gz && gh);
    QCOMPARE(gz->status, zero.status);
    QCOMPARE(gz->end_time, zero.end_time);
    QCOMPARE(gh->status, high.status);
    QVERIFY(gz->column("tip.beam.v") == zero.column("tip.beam.v"));
    QVERIFY(gh->column("tip.beam.v") == high.column("tip.beam.v"));
    // The diverged variant shows where and when; the other goes on.
    QVERIFY(c->variantBannerShown(0));
    QVERIFY2(c->variantBanner(0).startsWith(QString("Diverged at t = %1 s").arg(zero.end_time, 0, 'g', 6)),
             qPrintable(c->variantBanner(0)));
    QVERIFY(c->variantBanner(0).contains("The other variants go on"));
    QVERIFY(!c->variantBannerShown(1));

    // The overlaid plot holds both curves, each named in the legend, equal to the runs at the samples.
    ComparePlot* plot = c->plot();
    plot->setCheckedChannels({"tip.beam.v"});
    QCustomPlot* qcp = plot->plot();
    QCOMPARE(qcp->graphCount(), 2);
    QVERIFY(qcp->graph(0)->name().contains("coupling=zero"));
    QVERIFY(qcp->graph(1)->name().contains("coupling=high"));
    QVERIFY(qcp->legend->visible());
    // The grid: the high-order run's output times, and the time the zero-order run diverged (its last
    // row, between two of them), where the high-order curve is interpolated.
    const std::vector<double> zv = zero.column("tip.beam.v"), zt = zero.column("t");
    const std::vector<double> hv = high.column("tip.beam.v"), ht = high.column("t");
    const std::size_t on_grid = zv.size() - 1;
    QVERIFY(zt.back() > ht[on_grid - 1] && zt.back() < ht[on_grid]);
    QCOMPARE(qcp->graph(1)->dataCount(), static_cast<int>(hv.size() + 1));
    QCOMPARE(qcp->graph(0)->dataCount(), static_cast<int>(hv.size() + 1));
    for (int k = 0; k < qcp->graph(1)->dataCount(); ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      const auto z = qcp->graph(0)->data()->at(k);
      const auto h = qcp->graph(1)->data()->at(k);
      if (i == on_grid) {  // the curve ends where the run did: the state that diverged
        QCOMPARE(h->key, zt.back());
        QCOMPARE(z->value, zv.back());
        QVERIFY(std::abs(z->value) > 4.0);
        continue;
      }
      const std::size_t j = i < on_grid ? i : i - 1;
      QCOMPARE(h->key, ht[j]);
      QCOMPARE(h->value, hv[j]);  // the samples themselves
      if (i < on_grid)
        QCOMPARE(z->value, zv[i]);
      else
        QVERIFY(std::isnan(z->value));  // a gap after the divergence
    }
    // One click gives the difference B - A at the sample times.
    QTest::mouseClick(plot->differenceButton(), Qt::LeftButton);
    QVERIFY(plot->isDifference());
    QCOMPARE(qcp->graphCount(), 1);
    QVERIFY(qcp->graph(0)->name().contains("coupling=high - coupling=zero"));
    for (int k = 0; k < qcp->graph(0)->dataCount(); ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      const double d = qcp->graph(0)->data()->at(k)->value;
      if (i < on_grid)
        QCOMPARE(d, hv[i] - zv[i]);
      else if (i > on_grid)
        QVERIFY(std::isnan(d));
    }
    QTest::mouseClick(plot->differenceButton(), Qt::LeftButton);
    QCOMPARE(qcp->graphCount(), 2);

    // One camera: a preset in one view moves the other; one time: each view shows its run's state.
    c->view(0)->viewPreset(ArmView::Preset::Top);
    QVERIFY((c->view(0)->cameraPosition() - c->view(1)->cameraPosition()).norm() < 1e-9);
    const int row = static_cast<int>(zv.size()) + 20;  // after the divergence
    c->timeline()->setRow(row);
    const LoadedProject base = loadProjectFile(example("spin-up-beam.flexarm.json").toStdString(), kAtEight);
    const MultibodySystem sys = MultibodySystem::fromModel(base.project->model, CouplingOrder::High);
    Eigen::VectorXd qh, qz;
    QVERIFY(coordinatesAtRow(sys, high, static_cast<std::size_t>(row), qh));
    QVERIFY(coordinatesAtRow(sys, zero, zv.size() - 1, qz));  // the zero-order arm stays at its last state
    QVERIFY((c->view(1)->state() - qh).norm() < 1e-12);
    QVERIFY((c->view(0)->state() - qz).norm() < 1e-12);

    // The GUI's CSV export is the CLI's compare.csv, byte for byte, and so is its sidecar.
    const QString gui_csv = dir.filePath("gui-compare.csv");
    QCOMPARE(c->exportCsv(gui_csv), std::string());
    const QString cli_dir = dir.filePath("cli");
    const QString cmd = QString(
                            "'%1' compare '%2' --zero-vs-high --set joints[0].drive.omega0=8 --t-end 10 --channels tip.beam.v "
                            "--out '%3' > /dev/null 2>&1")
                            .arg(FLEXARM_CLI, example("spin-up-beam.flexarm.json"), cli_dir);
    QCOMPARE(runCommand(cmd), 0);
    const QStringList gui_lines = csvLines(gui_csv), cli_lines = csvLines(cli_dir + "/compare.csv");
    QVERIFY(gui_lines.size() > 100);
    QCOMPARE(gui_lines, cli_lines);
    QCOMPARE(gui_lines.front().left(2), QString("t,"));  // the header first
    // The sidecars: the same but for the wall times; each variant's outcome is in them.
    const Json gui_meta = sidecarWithoutWallTime(gui_csv), cli_meta = sidecarWithoutWallTime(cli_dir + "/compare.csv");
    QVERIFY(gui_meta.is_object() && gui_meta.size() > 10);
    QCOMPARE(gui_meta, cli_meta);
    QCOMPARE(gui_meta["variants"][0]["status"], Json("diverged"));
    // The report bundle holds each variant's CSV as the CLI writes it; in the sidecars only the wall time differs.
    const QString bundle = dir.filePath("bundle");
    const BundleOutcome b = c->exportBundle(bundle);
    QCOMPARE(b.error, std::string());
    for (const char* v : {"coupling=zero.csv", "coupling=high.csv"}) {
      QCOMPARE(csvLines(bundle + "/" + v), csvLines(cli_dir + "/" + v));
      const Json meta = sidecarWithoutWallTime(bundle + "/" + v);
      QVERIFY2(meta.is_object(), v);
      QCOMPARE(meta, sidecarWithoutWallTime(cli_dir + "/" + v));
    }
    QCOMPARE(sidecarWithoutWallTime(bundle + "/coupling=zero.csv")["status"], Json("diverged"));
    QVERIFY(QFile::exists(bundle + "/plots/tip.beam.v.svg"));
    QVERIFY(QFile::exists(bundle + "/plots/tip.beam.v-difference.png"));
    QVERIFY(QFile::exists(bundle + "/summary.md"));

    // Plot, views and animation exports.
    QCOMPARE(c->exportPlotFile(dir.filePath("overlay.png"), {800, 450, 120}), std::string());
    QImage overlay(dir.filePath("overlay.png"));
    QCOMPARE(overlay.size(), QSize(800, 450));
    QCOMPARE(c->exportViewsPng(dir.filePath("views.png")), std::string());
    const QImage views(dir.filePath("views.png"));
    QVERIFY(views.width() > 400 && nonBackgroundPixels(views) > 500);
    const AnimationOutcome a = c->exportAnimationTo(dir.filePath("frames"), {5.0, 5.0, true});  // 10 s at 5x, 5 fps
    QCOMPARE(a.error, std::string());
    QCOMPARE(a.frames, 11);
    QVERIFY(QFile::exists(dir.filePath("frames/frame_00010.png")));
    if (!ffmpegProgram().isEmpty()) {
      QCOMPARE(a.mp4, dir.filePath("frames/animation.mp4"));
      QVERIFY(QFileInfo(a.mp4).size() > 1000);
    } else {
      QVERIFY(a.note.find("ffmpeg is not installed") != std::string::npos);
    }
    const QByteArray shots = qgetenv("FLEXARM_SCREENSHOTS");
    if (!shots.isEmpty()) {
      c->timeline()->setRow(static_cast<int>(zv.size()) - 1);
      c->view(0)->viewPreset(ArmView::Preset::Iso);
      QTest::qWait(200);
      grabWithViews(c, {c->view(0), c->view(1)}).save(QString::fromLocal8Bit(shots) + "/compare.png");
    }
    c->close();
  }

  void variantsThatChangeOnlySimulationSettingsShareTheDocumentsSystem() {
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(example("cantilever.flexarm.json")));
    const MultibodySystem* document = w.document()->system().get();
    QVERIFY(document);
    CompareWindow* c = w.compare({{"tighter", {"simulation.accuracy=1e-4", "simulation.t_end=0.05"}},
                                  {"zero-order", {"coupling=zero", "simulation.t_end=0.05"}},
                                  {"finer", {"links[0].flex.elements=12", "simulation.t_end=0.05"}}});
    QVERIFY(c);
    QCOMPARE(c->variantSystem(0), document);  // built once, for the document
    QVERIFY(c->variantSystem(1) && c->variantSystem(1) != document);
    QCOMPARE(c->variantSystem(1)->coupling, CouplingOrder::Zero);
    QVERIFY(c->variantSystem(2) && c->variantSystem(2) != document);
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), 60000);
    c->close();
  }

  void invalidVariantsAreRefusedWithTheLoadersMessage() {
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(example("cantilever.flexarm.json")));
    QVERIFY(!w.compare({{"short", {"links[0].length=-1"}}, {"as is", {}}}));
    QVERIFY(w.bannerShown());
    QVERIFY2(w.bannerText().contains("links[0].length"), qPrintable(w.bannerText()));
    QVERIFY(!w.compare({{"as is", {}}}));
    QVERIFY(w.bannerText().contains("two or more"));

    LoadedProject p = loadProjectFile(example("spin-up-beam.flexarm.json").toStdString());
    CompareDialog d(*p.project, FLEXARM_PROJECTS_DIR);
    QVERIFY(d.addSpec("links[9].mass=2").contains("links[9]"));
    QVERIFY(!d.addSpec("").isEmpty());
    QCOMPARE(d.cases().size(), std::size_t{0});
    d.setChecked("zero-order", true);
    QCOMPARE(d.addSpec("coupling=zero;joints[0].drive.omega0=3"), QString());
    const std::vector<StudyCase> cases = d.cases();
    QCOMPARE(cases.size(), std::size_t{2});
    QCOMPARE(cases[1].overrides, (std::vector<std::string>{"coupling=zero", "joints[0].drive.omega0=3"}));
  }

  void singleRunExports() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The cantilever for 0.5 s (a few seconds under the sanitizers).
    const LoadedProject cantilever = loadProjectFile(example("cantilever.flexarm.json").toStdString(), {"simulation.t_end=0.5"});
    QVERIFY(cantilever.project);
    const QString path = dir.filePath("cantilever.flexarm.json");
    QVERIFY(saveProjectFile(*cantilever.project, path.toStdString()));
    QVERIFY(w.openProject(path));
    QVERIFY(!w.exportBundleTo(dir.filePath("none")).error.empty());  // nothing run yet
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 300000);
    QCOMPARE(w.exportPlotTo(dir.filePath("p.svg"), {640, 400, 96}), std::string());
    QCOMPARE(w.exportPlotTo(dir.filePath("p.png"), {640, 400, 300}), std::string());
    QCOMPARE(QImage(dir.filePath("p.png")).size(), QSize(640, 400));
    QCOMPARE(w.exportViewPng(dir.filePath("v.png")), std::string());
    QCOMPARE(QImage(dir.filePath("v.png")).size(), w.armView()->size() * w.armView()->devicePixelRatio());
    const BundleOutcome b = w.exportBundleTo(dir.filePath("bundle"));
    QCOMPARE(b.error, std::string());
    QVERIFY(QFile::exists(dir.filePath("bundle/results.csv")));
    QVERIFY(QFile::exists(dir.filePath("bundle/summary.md")));
    const AnimationOutcome a = w.exportAnimationTo(dir.filePath("anim"), {10.0, 0.5, false});  // 0.5 s at 0.5x, 10 fps
    QCOMPARE(a.error, std::string());
    QCOMPARE(a.frames, 11);
    QVERIFY(a.mp4.isEmpty());
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<CompareTest>(argc, argv); }
#include "test_compare.moc"
