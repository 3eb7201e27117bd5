// First steps (issue 20, item 7), under xvfb-run: with no project the window offers a start page (New,
// Open, each example with its one-line description, Recent); an empty project shows an empty scene;
// the wizard's summary is the chosen start's; Save adds .flexarm.json to a name without an extension;
// a run slower than real time says in the status bar why it may be slow and what to try.
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "io/ProjectFile.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/run/RunAdvice.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/workbench/StartPage.hpp"

using namespace flexarm;

namespace {
QString example(const QString& name) { return QDir(QString(FLEXARM_PROJECTS_DIR)).absoluteFilePath(name); }

QJsonObject jsonOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

// Pixels (every second one) darker than the scene's darkest background: what a solid object covers.
double darkFraction(const QImage& img) {
  int dark = 0, all = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2, ++all) dark += qGray(img.pixel(x, y)) < 120 ? 1 : 0;
  return static_cast<double>(dark) / std::max(all, 1);
}
}  // namespace

class FirstStepsTest : public QObject {
  Q_OBJECT
 private slots:
  void startPageOffersNewOpenExamplesAndRecent() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.startPageShown());
    QVERIFY2(!w.statusText().contains("Model dock"), qPrintable(w.statusText()));  // issue 43: the page hides it
    for (const char* dock : {"dock.model", "dock.properties", "dock.plots"})       // no untitled project to edit
      QVERIFY(w.findChild<QDockWidget*>(dock)->isHidden());
    StartPage* start = w.startPage();
    QVERIFY(start->isVisible() && start->newButton()->isVisible() && start->openButton()->isVisible());
    // Every shipped example, with its name as its one-line description and its description on hover.
    const QStringList shipped = QDir(FLEXARM_PROJECTS_DIR).entryList({"*.flexarm.json"}, QDir::Files, QDir::Name);
    QCOMPARE(start->examples()->count(), shipped.size());
    for (int i = 0; i < shipped.size(); ++i) {
      const QJsonObject doc = jsonOf(example(shipped[i]));
      const QListWidgetItem* item = start->examples()->item(i);
      QVERIFY2(item->text().contains(doc["name"].toString()), qPrintable(item->text()));
      QVERIFY(!item->text().contains('\n'));  // one line
      QCOMPARE(item->toolTip(), doc["description"].toString());
    }
    flexarm::test::saveScreenshot(w, "first-steps-start-page");
    // An example opens on activation; it then heads the recent projects.
    QListWidgetItem* beam = start->examples()->findItems("spin-up-beam", Qt::MatchStartsWith).value(0);
    QVERIFY(beam);
    emit start->examples()->itemActivated(beam);
    QVERIFY(!w.startPageShown());
    for (const char* dock : {"dock.model", "dock.properties", "dock.plots"})
      QVERIFY(w.findChild<QDockWidget*>(dock)->isVisible());
    QCOMPARE(w.document()->path(), example("spin-up-beam.flexarm.json"));
    QVERIFY(start->recent()->count() > 0);
    QVERIFY(start->recent()->item(0)->toolTip() == example("spin-up-beam.flexarm.json"));
  }

  void emptyProjectShowsAnEmptyScene() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.newEmptyProject());
    QVERIFY(!w.startPageShown());
    QTRY_VERIFY_WITH_TIMEOUT(w.armView()->framesRendered() > 0, 10000);
    QTest::qWait(200);
    const QImage scene = w.armView()->grabFramebuffer();
    QVERIFY2(darkFraction(scene) < 0.01, qPrintable(QString("%1 of the view is dark").arg(darkFraction(scene))));
    QVERIFY(flexarm::test::nonBackgroundPixels(scene) > 100);  // the grid and the base are drawn
    flexarm::test::saveScreenshot(w, "first-steps-empty-project");
  }

  void wizardSummaryIsTheChosenStarts() {
    NewProjectWizard wizard(MainWindow::examplesDirectory());
    QVERIFY(wizard.choose("single-flexible-link"));
    QVERIFY2(wizard.summary().startsWith("1 link(s), 1 payload(s)"), qPrintable(wizard.summary()));
    QVERIFY(wizard.choose("empty"));
    QVERIFY2(!wizard.summary().contains("link(s)") && wizard.summary().startsWith("No links yet"), qPrintable(wizard.summary()));
    QVERIFY(wizard.choose("planar-two-link"));
    QVERIFY2(wizard.summary().startsWith("2 link(s)"), qPrintable(wizard.summary()));
    QVERIFY(wizard.choose("empty"));
    QVERIFY(wizard.summary().startsWith("No links yet"));
  }

  void saveAddsTheProjectExtension() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(example("cantilever.flexarm.json")));
    QVERIFY(w.saveProject(dir.filePath("my-arm")));
    QVERIFY(QFile::exists(dir.filePath("my-arm.flexarm.json")));
    QVERIFY(!QFile::exists(dir.filePath("my-arm")));
    QCOMPARE(w.document()->path(), dir.filePath("my-arm.flexarm.json"));
    QVERIFY(w.saveProject(dir.filePath("other.json")));  // an extension of the user's own stays
    QVERIFY(QFile::exists(dir.filePath("other.json")));
  }

  // The advice names what the project has: stiff joints, undamped links, the element count, and what to try.
  void slowRunAdviceNamesTheCauses() {
    // With BDF, as the project was before it moved to generalized-alpha and then auto: the advice names
    // the methods that damp what a step does not resolve.
    const LoadedProject seed =
        loadProjectFile(example("spatial-rrr-flexible-seed004.flexarm.json").toStdString(), {"simulation.solver.method=bdf"});
    QVERIFY(seed.project);
    const RunAdvice advice = slowRunAdvice(*seed.project, 36);
    QVERIFY2(advice.causes.contains("stiff joint springs (k up to"), qPrintable(advice.causes));
    QVERIFY(advice.causes.contains("36 elastic coordinates"));
    QVERIFY2(advice.suggestions.contains("method auto, or galpha"), qPrintable(advice.suggestions));
    // Under auto, no method to suggest: what the model has, and a looser accuracy when it is tight.
    const LoadedProject automatic =
        loadProjectFile(example("spatial-rrr-flexible-seed004.flexarm.json").toStdString(), {"simulation.accuracy=1e-5"});
    QVERIFY(automatic.project);
    const RunAdvice tight = slowRunAdvice(*automatic.project, 36);
    QVERIFY2(tight.causes.contains("a tight accuracy (1e-05)"), qPrintable(tight.causes));
    QVERIFY2(!tight.suggestions.contains("method") && tight.suggestions.contains("accuracy 1e-3"), qPrintable(tight.suggestions));
    const LoadedProject beam = loadProjectFile(example("spin-up-beam.flexarm.json").toStdString(),
                                               {"links[0].flex.rayleigh=[0,0]", "simulation.solver.method=bdf"});
    QVERIFY(beam.project);
    const RunAdvice undamped = slowRunAdvice(*beam.project, 20);
    QVERIFY2(undamped.causes.contains("undamped high modes (link beam"), qPrintable(undamped.causes));
    QVERIFY(undamped.suggestions.contains("simulation.solver.max_order 2"));
    QVERIFY(undamped.suggestions.contains("Rayleigh damping"));
  }

  // A run slower than real time says so in the status bar, and in full in the banner and the messages:
  // the causes and what to try.
  void slowRunSaysWhyInTheStatusBar() {
    QTemporaryDir dir;
    const QString path = flexarm::test::savedExample(
        dir, "spatial-rrr-flexible-seed004.flexarm.json",
        {"simulation.solver.rtol=1e-11", "simulation.solver.atol=1e-13", "simulation.t_end=100"}, "slow.flexarm.json");
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains("slower than real time"), 60000);
    QVERIFY2(w.statusText().contains("(see the banner)"), qPrintable(w.statusText()));
    QVERIFY(w.bannerShown());
    QVERIFY2(w.bannerText().startsWith("This run goes slower than real time. It may be slow because of stiff joint springs") &&
                 w.bannerText().contains("\nTry "),
             qPrintable(w.bannerText()));
    QVERIFY(
        w.findChild<QPlainTextEdit*>()->toPlainText().contains("This run goes slower than real time. It may be slow because of"));
    flexarm::test::saveScreenshot(w, "first-steps-slow-run");
    w.stopSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 30000);
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<FirstStepsTest>(argc, argv); }
#include "test_first_steps.moc"
