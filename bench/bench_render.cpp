// Frame rate of the 3D view on the machine's OpenGL (llvmpipe under Xvfb in CI-like runs): for
// every shipped example, run it in the workbench, then (1) show its result rows in the 3D view one
// per frame (new centrelines and colours, rendered, composed and finished) and (2) play the timeline
// back, which also moves every plot's time cursor. Prints frames per second of both.
//   xvfb-run -a -s "-screen 0 1600x1000x24" build/bench/flexarm_bench_render [frames]
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QtTest>
#include <cstdio>

#include "results/RowCoordinates.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

int main(int argc, char** argv) {
  ArmView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FlexArmBench");
  QStandardPaths::setTestModeEnabled(true);
  const int frames = argc > 1 ? std::max(10, std::atoi(argv[1])) : 120;
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  if (!QTest::qWaitForWindowExposed(&w)) {
    std::fprintf(stderr, "bench_render: the window was not exposed (no display?)\n");
    return 2;
  }
  std::printf("%-36s %9s %6s %17s %17s\n", "", "", "", "3D view alone", "timeline playback");
  std::printf("%-36s %9s %6s %9s %7s %9s %7s\n", "project", "view", "frames", "ms/frame", "fps", "ms/frame", "fps");
  int failures = 0;
  const QStringList files = QDir(FLEXARM_PROJECTS_DIR).entryList({"*.flexarm.json"}, QDir::Files, QDir::Name);
  for (const QString& name : files) {
    if (!w.openProject(QString(FLEXARM_PROJECTS_DIR) + "/" + name)) {
      std::printf("%-40s could not be opened\n", qPrintable(name));
      ++failures;
      continue;
    }
    w.runSimulation();
    QElapsedTimer run;
    run.start();
    while (w.isRunning() && run.elapsed() < 120000) QTest::qWait(20);
    const Results* r = w.results();
    if (!r || r->rows() < 2) {
      std::printf("%-40s no results\n", qPrintable(name));
      ++failures;
      continue;
    }
    ArmView* view = w.armView();
    const int rows = static_cast<int>(r->rows());
    // Warm-up: the first frames compile shaders and upload buffers.
    for (int k = 0; k < 5; ++k) {
      w.timeline()->setRow(k % rows);
      view->repaint();
    }
    // (1) The 3D view alone: a new arm state each frame, rendered and composed into the window.
    Eigen::VectorXd q;
    auto frameRate = [&](auto&& setFrame) {
      QElapsedTimer clock;
      clock.start();
      for (int k = 0; k < frames; ++k) {
        setFrame(static_cast<int>((static_cast<long long>(k) * rows) / frames));
        const long long before = view->framesRendered();
        // Rendered and swapped to the (software) display: the swap of a software context copies the image out.
        while (view->framesRendered() == before) QCoreApplication::processEvents();
      }
      return clock.nsecsElapsed() * 1e-6 / frames;
    };
    const double view_ms = frameRate([&](int row) {
      if (coordinatesAtRow(*w.system(), *r, static_cast<std::size_t>(row), q)) view->showState(q);
    });
    // (2) Timeline playback: the view and every plot's time cursor.
    const double play_ms = frameRate([&](int row) { w.timeline()->setRow(row); });
    std::printf("%-36s %4dx%-4d %6d %9.1f %7.1f %9.1f %7.1f\n", qPrintable(name), view->width(), view->height(), frames, view_ms,
                1000.0 / view_ms, play_ms, 1000.0 / play_ms);
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
