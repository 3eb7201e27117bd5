// Nothing of the previous project leaks into the next (issue 20, item 2), under xvfb-run: project A is
// run and its natural modes computed, with the plots read off at a time; then another project is opened,
// or File > New starts one (a template, the single rod, the empty chain). Every panel then shows the new
// project or nothing: the modes dock's table, the plot panel's channels and read-out, the progress bar
// and the status bar, the timeline, the 3D view's state, the results and the exports.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QMessageBox>
#include <QtTest>

#include "dynamics/MultibodySystem.hpp"
#include "io/JsonReader.hpp"
#include "solvers/Simulation.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/ModePreview.hpp"
#include "ui/view/PlotPanel.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
QString example(const char* name) { return QDir(QString(FLEXARM_PROJECTS_DIR)).absoluteFilePath(name); }

// Project A: seed 004's spatial RRR arm (three flexible joints: torsion.joint3 ...), run for 0.1 s only.
QString projectA(const QTemporaryDir& dir) {
  QFile in(example("spatial-rrr-flexible-seed004.flexarm.json"));
  if (!in.open(QIODevice::ReadOnly)) return {};
  QByteArray text = in.readAll();
  if (!text.contains("\"t_end\": 1.0")) return {};
  text.replace("\"t_end\": 1.0", "\"t_end\": 0.1");
  const QString path = dir.filePath("project-a.flexarm.json");
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size()) return {};
  return path;
}

// Compute in the modes dock and wait for its answer; false when none came.
bool computeModes(MainWindow& w) {
  QSignalSpy done(w.modePreview(), &ModePreview::finished);
  w.modePreview()->compute();
  return done.count() > 0 || done.wait(120000);
}

// A run, its modes and a read-out: what project A leaves in the window (asserted, so that the checks
// after the switch are not vacuous).
void leaveTraces(MainWindow& w, const QString& path) {
  QVERIFY(w.openProject(path));
  w.runSimulation();
  QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
  QVERIFY(w.results());
  QCOMPARE(w.results()->status, RunStatus::Completed);
  QVERIFY(w.timeline()->size() > 10);
  w.timeline()->setRow(static_cast<int>(w.timeline()->size() / 2));
  QVERIFY2(w.plots()->readout().contains("torsion.joint3"), qPrintable(w.plots()->readout()));
  QVERIFY(w.plots()->channelNames().contains("torsion.joint3"));
  QVERIFY2(w.progressText().contains("0.10 / 0.10 s"), qPrintable(w.progressText()));
  QVERIFY2(w.statusText().contains("steps"), qPrintable(w.statusText()));
  w.showModePreview();
  QVERIFY(computeModes(w));
  QVERIFY(w.modePreview()->outcome());
  QVERIFY(w.modePreview()->table()->rowCount() > 0);
}

// Every panel shows the open project (named `name`) as just opened, or nothing.
void expectNothingBefore(MainWindow& w, const QString& name) {
  QCOMPARE(w.document()->displayName(), name);
  QVERIFY2(w.windowTitle().startsWith(name), qPrintable(w.windowTitle()));
  // No results (nothing to export), no rows.
  QVERIFY(!w.results());
  QCOMPARE(w.liveRows(), std::size_t(0));
  // Natural modes: none listed, none described, the prompt.
  ModePreview& modes = *w.modePreview();
  QVERIFY(!modes.outcome());
  QCOMPARE(modes.table()->rowCount(), 0);
  QVERIFY2(modes.configurationText().isEmpty(), qPrintable(modes.configurationText()));
  QVERIFY2(!modes.statusText().contains("Out of date"), qPrintable(modes.statusText()));
  QVERIFY(!modes.isAnimating());
  // Plots: no channel offered, no curve, nothing read off.
  QVERIFY2(w.plots()->channelNames().isEmpty(), qPrintable(w.plots()->channelNames().join(" ")));
  QCOMPARE(w.plots()->graphCount(), 0);
  QVERIFY2(w.plots()->readout().isEmpty(), qPrintable(w.plots()->readout()));
  // Progress and status: nothing run yet.
  QVERIFY2(w.progressText().isEmpty(), qPrintable(w.progressText()));
  QVERIFY2(!w.statusText().contains("steps") && !w.statusText().contains("running"), qPrintable(w.statusText()));
  // Timeline: no times, at 0.
  QCOMPARE(w.timeline()->size(), std::size_t(0));
  QCOMPARE(w.timeline()->row(), 0);
  QCOMPARE(w.timeline()->timeText(), QString("t = 0.000 s"));
  QVERIFY(!w.timeline()->isPlaying());
  // 3D view: the new arm in its initial configuration.
  if (const Project* p = w.document()->project()) {
    Eigen::VectorXd q, qd;
    w.system()->initialState(p->model, q, qd);
    QCOMPARE(w.armView()->state().size(), q.size());
    QVERIFY((w.armView()->state() - q).norm() < 1e-12);
  }
}
}  // namespace

class ProjectSwitchTest : public QObject {
  Q_OBJECT
 private slots:
  void openingAnotherProjectKeepsNothingOfTheFirst() {
    QTemporaryDir dir;
    const QString a = projectA(dir);
    QVERIFY(!a.isEmpty());
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    leaveTraces(w, a);
    if (QTest::currentTestFailed()) return;
    test::saveScreenshot(w, "switch-1-project-a-run-and-modes");
    QVERIFY(w.openProject(example("spin-up-beam.flexarm.json")));
    expectNothingBefore(w, "Spin-up beam (seed 000 sec 4.1)");
    if (QTest::currentTestFailed()) return;
    QVERIFY2(w.statusText().contains("to simulate"), qPrintable(w.statusText()));
    test::saveScreenshot(w, "switch-2-then-spin-up-beam-opened");
    // B's own run offers B's channels only.
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
    QVERIFY(w.results());
    QStringList expected;
    for (const Channel& c : runChannels(*w.document()->system(), w.document()->project()->simulation))
      if (w.plots()->channelNames().contains(QString::fromStdString(c.name))) expected << QString::fromStdString(c.name);
    QCOMPARE(w.plots()->channelNames(), expected);
    QVERIFY(!w.plots()->channelNames().contains("torsion.joint3"));
    QVERIFY2(w.progressText().contains("/ 30.00 s"), qPrintable(w.progressText()));
  }

  void fileNewKeepsNothingOfTheProjectBefore() {
    QTemporaryDir dir;
    const QString a = projectA(dir);
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The wizard's project is unsaved work: what comes after it asks first, and is told to discard it.
    int asked = 0;
    w.setQuestionHandler([&](const QString&, const QString&, int) {
      ++asked;
      return int(QMessageBox::Discard);
    });
    // File > New with a template: the wizard's project, as its Finish hands it to the window.
    leaveTraces(w, a);
    if (QTest::currentTestFailed()) return;
    NewProjectWizard wizard(FLEXARM_PROJECTS_DIR);
    QVERIFY(wizard.choose("single-flexible-link"));
    wizard.next();
    const std::optional<Json> fresh = wizard.document();
    QVERIFY(fresh);
    QVERIFY(w.newProjectFrom(*fresh));
    expectNothingBefore(w, QString::fromStdString((*fresh)["name"].get<std::string>()));
    if (QTest::currentTestFailed()) return;
    test::saveScreenshot(w, "switch-3-file-new-after-a");
    // The single rigid rod.
    QCOMPARE(asked, 0);
    leaveTraces(w, a);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(asked, 1);  // opening A asked about the wizard's project, which was never saved
    QVERIFY(w.newProject());
    QCOMPARE(asked, 1);  // A, opened from its file and run, has nothing unsaved
    expectNothingBefore(w, "Untitled");
    if (QTest::currentTestFailed()) return;
    // The empty chain: nothing to draw, run or linearize.
    leaveTraces(w, a);
    if (QTest::currentTestFailed()) return;
    QVERIFY(w.newEmptyProject());
    expectNothingBefore(w, "Untitled");
    if (QTest::currentTestFailed()) return;
    QVERIFY(w.statusText().contains("no links yet"));
  }

  // Modes still being computed for A when B opens are dropped, not listed for B.
  void modesComputedForTheProjectBeforeAreDropped() {
    QTemporaryDir dir;
    const QString a = projectA(dir);
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(a));
    w.showModePreview();
    QSignalSpy done(w.modePreview(), &ModePreview::finished);
    w.modePreview()->compute();  // its result arrives by the event loop, after the switch
    QVERIFY(w.openProject(example("cantilever.flexarm.json")));
    QVERIFY(done.count() > 0 || done.wait(120000));
    expectNothingBefore(w, "Flexible cantilever under gravity");
    if (QTest::currentTestFailed()) return;
    // Compute now: the modes of the project open.
    QVERIFY(computeModes(w));
    QVERIFY(w.modePreview()->outcome());
    QCOMPARE(w.modePreview()->outcome()->system->nq, w.system()->nq);
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<ProjectSwitchTest>(argc, argv); }
#include "test_project_switch.moc"
