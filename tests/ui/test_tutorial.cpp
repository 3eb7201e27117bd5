// The getting-started tutorial (docs/getting-started.md), walked in the workbench as a user follows it,
// under xvfb-run: File > New's wizard with the page's values, the upper arm made rigid (2 kg), a run,
// Compare > Zero vs high order, the CSV and plot exports, Save. Each step asserts what the page says of it,
// and the project built in the editor is the one the page's flexarm-cli command makes. With
// FLEXARM_SCREENSHOT_DIR set it saves the page's pictures (docs/tools/make_screenshots.sh).
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "io/Diagnostics.hpp"
#include "io/ProjectFile.hpp"
#include "io/ProjectTemplates.hpp"
#include "results/Results.hpp"  // peakAbs
#include "tests/ui/UiTestSupport.hpp"
#include "ui/compare/ComparePlot.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/plots/PlotExport.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;
using flexarm::test::choose;
using flexarm::test::menuAction;
using flexarm::test::saveScreenshot;
using flexarm::test::type;

namespace {
const char* kName = "Two-link arm with a flexible forearm";

// The page's `flexarm-cli new` command, as the CLI builds it: the template with the same assignments.
std::optional<Project> projectOfTheCommandLine() {
  Diagnostics diag;
  const std::optional<Json> doc =
      instantiateTemplate(*findTemplate("planar-two-link"), kName,
                          {"links[1].length=1.2", "links[0].flex.section.width=0.005", "links[1].flex.section.width=0.005",
                           "links[0].flex=null", "links[0].mass=2", R"(links[0].shape={"type":"rod"})"},
                          diag);
  if (!doc) return std::nullopt;
  return projectFromJson(*doc, ".", diag);
}

// Types into a field of the wizard's second page as a user does: true when the field takes the value.
bool acceptedInWizard(NewProjectWizard& w, const QString& key, const QString& text) {
  return flexarm::test::typeInWizard(w, key, text) && w.fieldError(key).isEmpty();
}

int rowOfPeak(const std::vector<double>& v) {
  int best = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (std::abs(v[i]) > std::abs(v[static_cast<std::size_t>(best)])) best = static_cast<int>(i);
  return best;
}
}  // namespace

class TutorialTest : public QObject {
  Q_OBJECT
 private slots:
  void theTutorialAsAUserFollowsIt() {
    QTemporaryDir dir;
    const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    // 1. File > New: the planar two-link template, named, the forearm 1.2 m, the strips 5 mm wide.
    bool wizard_seen = false, values_accepted = false, finish_enabled = false;
    QTimer::singleShot(0, [&] {
      auto* wizard = qobject_cast<NewProjectWizard*>(QApplication::activeModalWidget());
      if (!wizard) return;
      wizard_seen = true;
      wizard->choose("planar-two-link");
      wizard->next();
      values_accepted = acceptedInWizard(*wizard, "name", kName) && acceptedInWizard(*wizard, "links[1].length", "1.2") &&
                        acceptedInWizard(*wizard, "links[0].flex.section.width", "0.005");
      QTest::qWait(200);
      if (!shots.isEmpty()) wizard->grab().save(shots + "/01-new-project.png");
      finish_enabled = wizard->button(QWizard::FinishButton)->isEnabled();
      wizard->button(QWizard::FinishButton)->click();
    });
    QAction* file_new = menuAction(w, "&File", "&New...");
    QVERIFY(file_new);
    file_new->trigger();
    QVERIFY(wizard_seen);
    QVERIFY(values_accepted);
    QVERIFY(finish_enabled);
    QCOMPARE(w.projectName(), QString(kName));
    QCOMPARE(w.document()->project()->model.links[1].length, 1.2);

    // 2. The upper arm made rigid: it keeps the beam's mass (rho A L = 0.432 kg) as a rod, then 2 kg.
    w.modelTree()->select({ModelItem::Kind::Link, 0});
    QVERIFY(choose(w, "links[0].flex", "rigid"));
    QVERIFY(!w.document()->project()->model.links[0].flex);
    QVERIFY(std::abs(w.document()->project()->model.links[0].mass - 2700 * 0.005 * 0.04 * 0.8) < 1e-9);
    QVERIFY(type(w, "links[0].mass", "2"));
    QCOMPARE(w.document()->project()->model.links[0].mass, 2.0);
    saveScreenshot(w, "02-rigid-upper-arm");
    // The forearm: 0.648 kg, first clamped-free frequency 2.83 Hz, as its form says.
    const auto& fore = w.document()->project()->model.links[1];
    QVERIFY(std::abs(fore.mass - 0.648) < 1e-9);
    // What the editor built is what the page's flexarm-cli command makes.
    const std::optional<Project> cli = projectOfTheCommandLine();
    QVERIFY(cli);
    QCOMPARE(projectToText(*w.document()->project()), projectToText(*cli));

    // 3. Run: completed, the forearm's tip 0.28 m at its peak, near t = 1.35 s.
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning() && w.results(), flexarm::test::kSlowMs);
    const Results* run = w.results();
    QCOMPARE(run->status, RunStatus::Completed);
    const std::vector<double> tip = run->column("tip.fore.v"), t = run->column("t");
    QVERIFY2(std::abs(peakAbs(tip) - 0.279) < 0.001, qPrintable(QString::number(peakAbs(tip))));
    const int peak = rowOfPeak(tip);
    QVERIFY(std::abs(t[static_cast<std::size_t>(peak)] - 1.35) < 0.05);
    QVERIFY(std::abs(peakAbs(run->column("q.elbow")) - 0.6) < 0.05);
    w.timeline()->setRow(peak);  // the picture: the forearm bent at its peak
    saveScreenshot(w, "03-run");

    // 4. Compare > Zero vs high order: both complete; zero-order overstates the peak by about 6 %.
    CompareWindow* c = w.compareZeroVsHigh();
    QVERIFY(c);
    QVERIFY(QTest::qWaitForWindowExposed(c));
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), flexarm::test::kSlowMs);
    QCOMPARE(c->variantName(0), QString("coupling=zero"));
    const Results* zero = c->variantResults(0);
    const Results* high = c->variantResults(1);
    QVERIFY(zero && high);
    QCOMPARE(zero->status, RunStatus::Completed);
    QCOMPARE(high->status, RunStatus::Completed);
    const double peak_zero = peakAbs(zero->column("tip.fore.v")), peak_high = peakAbs(high->column("tip.fore.v"));
    QVERIFY2(std::abs(peak_zero - 0.297) < 0.001 && std::abs(peak_high - 0.279) < 0.001,
             qPrintable(QString("%1 %2").arg(peak_zero).arg(peak_high)));
    QVERIFY(peak_zero / peak_high > 1.05 && peak_zero / peak_high < 1.08);
    if (!shots.isEmpty()) {
      c->resize(1500, 950);
      c->plot()->setCheckedChannels({"tip.fore.v"});
      c->timeline()->setRow(rowOfPeak(high->column("tip.fore.v")));
      QTest::qWait(300);
      grabWithViews(c, {c->view(0), c->view(1)}).save(shots + "/04-compare.png");
    }
    c->close();

    // 5. Export the CSV (with its description beside it) and the plot; save the project.
    QCOMPARE(w.exportCsvTo(dir.filePath("arm.csv")), std::string());
    QVERIFY(QFile::exists(dir.filePath("arm.csv")) && QFile::exists(dir.filePath("arm.meta.json")));
    QCOMPARE(w.exportPlotTo(dir.filePath("arm.png"), ExportSize{}), std::string());
    QVERIFY(QImage(dir.filePath("arm.png")).width() == 1200);
    QVERIFY(w.saveProject(dir.filePath("arm")));
    QVERIFY(QFile::exists(dir.filePath("arm.flexarm.json")));
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<TutorialTest>(argc, argv); }
#include "test_tutorial.moc"
