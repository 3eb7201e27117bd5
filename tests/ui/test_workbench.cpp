// The workbench as a user drives it (Qt Test, under xvfb-run): open, run, watch the arm and the
// plots; stay responsive during a long run and stop quickly; show divergence and broken files.

#include <QElapsedTimer>
#include <QImage>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <atomic>
#include <future>

#include "dynamics/MultibodySystem.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/view/PlotPanel.hpp"
#include "ui/view/Timeline.hpp"

using namespace flexarm;
using flexarm::test::nonBackgroundPixels;

namespace {
QString example(const char* name) { return QString(FLEXARM_PROJECTS_DIR) + "/" + name; }

// A copy of a shipped example with some text replaced, in `dir`.
QString variant(const QTemporaryDir& dir, const char* name, const std::vector<std::pair<QByteArray, QByteArray>>& edits) {
  QFile in(example(name));
  if (!in.open(QIODevice::ReadOnly)) return {};
  QByteArray text = in.readAll();
  for (const auto& [from, to] : edits) text.replace(from, to);
  const QString path = dir.filePath(QString("variant-") + name);
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) return {};
  out.write(text);
  return path;
}

}  // namespace

class WorkbenchTest : public QObject {
  Q_OBJECT
 private slots:
  void openRunAndWatch() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("two-link-flexible-arm.flexarm.json")));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 60000);
    QVERIFY(w.results() != nullptr);
    QCOMPARE(w.results()->status, RunStatus::Completed);
    QCOMPARE(w.results()->rows(), std::size_t(401));
    QVERIFY(w.plots()->graphCount() > 0);
    QCOMPARE(w.plots()->pointCount(), 401);
    const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
    if (!shots.isEmpty()) QVERIFY(w.plots()->grab().save(shots + "/workbench-plots.png"));
    // The 3D view renders the arm, and the tip moves between two times.
    w.timeline()->setRow(0);
    QTest::qWait(50);
    const Eigen::Vector3d tip0 = w.armView()->drawnTip(1);
    const QImage first = w.armView()->grabFramebuffer();
    QVERIFY2(nonBackgroundPixels(first) > 500, "the arm is not drawn");
    w.timeline()->setRow(200);
    QTest::qWait(50);
    const Eigen::Vector3d tip1 = w.armView()->drawnTip(1);
    QVERIFY2((tip1 - tip0).norm() > 0.3, "the tip did not move between t = 0 and t = 2 s");
    QVERIFY(nonBackgroundPixels(w.armView()->grabFramebuffer()) > 500);
  }

  void responsiveDuringLongRunAndStopsQuickly() {
    QTemporaryDir dir;
    // CVODE BDF at rtol 1e-7, as the project shipped before issue 40: under auto 2000 s of spin-up take under a second.
    const QString path =
        variant(dir, "spin-up-beam.flexarm.json",
                {{"\"t_end\": 30.0", "\"t_end\": 2000.0, \"solver\": {\"method\": \"bdf\", \"rtol\": 1e-7, \"atol\": 1e-9}"}});
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    // The user sees the arm before pressing Run: the first renders of the window (shaders, buffers,
    // textures of the software OpenGL) are not part of the run.
    QTRY_VERIFY_WITH_TIMEOUT(w.armView()->framesRendered() >= 2, 5000);
    QTest::qWait(300);
    w.runSimulation();
    // Event-loop latency: a zero-timer fired repeatedly for 1.3 s from the moment Run is pressed. What the
    // workbench does per update (a replot, a software-rendered frame) takes 10-15 ms here; a single stall of
    // the whole process (the CI machine's scheduler: 86 ms once while this run's own work was unchanged) is
    // told from a slow update by a second window of 1.3 s later in the same run: a slow update shows in both.
    auto worstLatency = [] {
      QElapsedTimer clock;
      clock.start();
      double worst_ms = 0.0;
      while (clock.elapsed() < 1300) {
        QElapsedTimer lap;
        lap.start();
        bool fired = false;
        QTimer::singleShot(0, [&] { fired = true; });
        while (!fired) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        worst_ms = std::max(worst_ms, lap.nsecsElapsed() * 1e-6);
        QTest::qWait(10);
      }
      return worst_ms;
    };
    double worst_ms = worstLatency();
    qInfo("worst event-loop latency during the run: %.1f ms", worst_ms);
#if !defined(__SANITIZE_ADDRESS__)  // timings are asserted on the optimized build, not under AddressSanitizer
    if (worst_ms >= 50.0) {
      worst_ms = worstLatency();
      qInfo("worst event-loop latency in a second window of the run: %.1f ms", worst_ms);
    }
    QVERIFY2(worst_ms < 50.0, qPrintable(QString("event loop latency %1 ms").arg(worst_ms)));
#endif
    QVERIFY(w.isRunning());     // 2000 s of spin-up take longer than that
    QVERIFY(w.liveRows() > 0);  // live rows arrive while it runs
    QElapsedTimer stop;
    stop.start();
    w.stopSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 2000);
    qInfo("stopped after %lld ms", static_cast<long long>(stop.elapsed()));
#if !defined(__SANITIZE_ADDRESS__)
    QVERIFY2(stop.elapsed() < 200, qPrintable(QString("stop took %1 ms").arg(stop.elapsed())));
#endif
    QCOMPARE(w.results()->status, RunStatus::Cancelled);
    QVERIFY(w.results()->rows() > 0);
  }

  // Issue 43: with every channel ticked, the read-out under the plot pushed the window past the screen.
  void theWindowNeverGrowsPastTheScreenWithEveryChannelPlotted() {
    for (const QSize screen : {QSize(1366, 768), QSize(1600, 1000)}) {
      MainWindow w;
      w.setQuestionHandler([](const QString&, const QString&, int) { return int(QMessageBox::No); });  // no recovery
      w.resize(screen);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QVERIFY(w.openProject(example("two-link-flexible-arm.flexarm.json")));
      QVERIFY(w.document()->setValue("simulation.t_end", 0.2));
      w.runSimulation();
      QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 30000);
      w.plots()->checkAllChannels();
      w.plots()->setTimeCursor(0.1);
      QTest::qWait(100);
      QVERIFY(w.plots()->graphCount() > 20);
      QVERIFY2(w.plots()->readout().size() > 400, qPrintable(w.plots()->readout()));
      QVERIFY2(w.width() <= screen.width(),
               qPrintable(QString("%1 px wide on a %2 px screen").arg(w.width()).arg(screen.width())));
      QVERIFY2(w.minimumSizeHint().width() <= screen.width(), qPrintable(QString::number(w.minimumSizeHint().width())));
      // Every button of the model tree shows at this size: none behind an overflow arrow (issue 43: + Payload).
      const QList<QToolButton*> buttons = w.modelTree()->findChildren<QToolButton*>();
      QVERIFY(buttons.size() >= 9);
      for (QToolButton* b : buttons) {
        QVERIFY2(b->isVisible(), qPrintable(b->text()));
        const QRect r(b->mapTo(w.modelTree(), QPoint(0, 0)), b->size());
        QVERIFY2(w.modelTree()->rect().contains(r), qPrintable(b->text()));
      }
      if (screen.width() == 1366) test::saveScreenshot(w, "every-channel-1366");
      w.document()->undo();  // the shipped example as it was: nothing unsaved, nothing autosaved
    }
  }

  void divergingRunShowsBannerAndKeepsResults() {
    QTemporaryDir dir;
    const QString path = variant(dir, "spin-up-beam.flexarm.json",
                                 {{"\"coupling\": \"high\"", "\"coupling\": \"zero\""}, {"\"omega0\": 2.0", "\"omega0\": 10.0"}});
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(path));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 60000);
    QCOMPARE(w.results()->status, RunStatus::Diverged);
    QVERIFY(w.bannerShown());
    QVERIFY2(w.bannerText().contains("Diverged") && w.bannerText().contains("t = "), qPrintable(w.bannerText()));
    QVERIFY(w.results()->rows() > 10);
    QVERIFY(w.plots()->pointCount() > 10);

    // Issue 43: the banner goes with the results it describes, through an edit, its undo and its redo.
    QVERIFY(w.document()->setValue("simulation.t_end", 5.0));
    QVERIFY(!w.bannerShown());
    w.document()->undo();
    QVERIFY(!w.results());
    QVERIFY2(!w.bannerShown(), qPrintable(w.bannerText()));
    w.document()->redo();
    QVERIFY(!w.bannerShown());
  }

  void newProjectRunsAndSaves() {
    MainWindow w;
    w.show();
    QVERIFY(w.newProject());
    QCOMPARE(w.projectName(), QString("Untitled"));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 30000);
    QCOMPARE(w.results()->status, RunStatus::Completed);
    QVERIFY(w.results()->rows() > 100);
  }

  void brokenFileKeepsThePreviousProject() {
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(example("cantilever.flexarm.json")));
    const QString name = w.projectName();
    QVERIFY(!w.openProject(QString(FLEXARM_TEST_DATA_DIR) + "/bad/negative-mass.json"));
    QVERIFY(w.bannerShown());
    QVERIFY2(w.bannerText().contains("links[1].mass: must be > 0, got -2"), qPrintable(w.bannerText()));
    QCOMPARE(w.projectName(), name);
  }

  // A broken project given on the command line (or opened from the file manager) with no project
  // open yet: the start page stays, and the reason is shown above it, not on the hidden workbench.
  void brokenFileFromTheStartPageSaysWhy() {
    MainWindow w;
    w.show();
    QVERIFY(w.startPageShown());
    QVERIFY(!w.openProject(QString(FLEXARM_TEST_DATA_DIR) + "/bad/duplicate-key.json"));
    QVERIFY(w.startPageShown());
    QVERIFY(w.bannerShown());
    QVERIFY2(w.bannerText().contains("Could not open duplicate-key.json"), qPrintable(w.bannerText()));
    test::saveScreenshot(w, "broken-file-from-start-page");
  }

  // Issue 41, item 5: the discretized system is built off the GUI thread (a fine mesh takes a second).
  // The test holds the build back until it has looked: the window opens the project at once, says
  // what it builds, holds Run, and takes an edit; released, the build of the edited model reaches the
  // run, the status and the 3D view.
  void aFineMeshIsBuiltOffTheGuiThread() {
    QTemporaryDir dir;
    const QString path = test::savedExample(
        dir, "spatial-rrr-flexible-seed004.flexarm.json",
        {"links[0].flex.elements=50", "links[1].flex.elements=50", "links[2].flex.elements=50"}, "fine.flexarm.json");
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.setSystemBuildGrace(std::chrono::milliseconds(0));
    std::promise<void> release;
    const std::shared_future<void> gate = release.get_future().share();
    std::atomic<int> builds{0};
    w.document()->setSystemBuilder([gate, &builds](const Project& p) {
      gate.wait();
      ++builds;
      return buildSystem(p);
    });
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    QAction* run = w.findChild<QAction*>("action.run");
    QVERIFY(run);
    QVERIFY(!w.document()->systemReady());
    QVERIFY2(w.statusText().contains("building the model: 906 coordinates"), qPrintable(w.statusText()));
    QVERIFY(!run->isEnabled());
    test::saveScreenshot(w, "fine-mesh-building");
    // The window answers while the system builds: an edit goes through.
    QVERIFY(w.document()->setValue("links[2].length", Json(3.0)));
    QVERIFY(!w.document()->systemReady());
    QVERIFY(!run->isEnabled());
    release.set_value();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->systemReady(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), 5000);
    QVERIFY2(w.statusText().startsWith("906 coordinates"), qPrintable(w.statusText()));
    const MultibodySystem* sys = w.document()->system().get();
    QVERIFY(sys != nullptr);
    QCOMPARE(sys->nq, 906);
    QCOMPARE(sys->bodies[2].length, 3.0);                // the edited model's
    QCOMPARE(w.armView()->drawnTip(2).x() > 4.0, true);  // drawn: 1 m column, then 4 m and 3 m along x
    test::saveScreenshot(w, "fine-mesh-built");
    QTRY_COMPARE_WITH_TIMEOUT(builds.load(), 2, 60000);  // the one before the edit too, left to finish
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<WorkbenchTest>(argc, argv); }

#include "test_workbench.moc"
