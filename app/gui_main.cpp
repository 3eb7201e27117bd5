// flexarm: the FlexArm workbench.
//   flexarm [PROJECT] [--run] [--screenshot FILE.png] [--quit]
// --run starts the simulation at once; --screenshot saves the window when the run has finished
// (or after the first frame without --run); --quit closes the program after the screenshot.
#include <QApplication>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "Version.hpp"

#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"

int main(int argc, char** argv) {
  // Answered before Qt starts, so that they work without a display.
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--version")) {
      std::printf("flexarm %s\n", flexarm::kVersion);
      return 0;
    }
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf("usage: flexarm [PROJECT] [--run] [--screenshot FILE.png] [--quit]\n       flexarm --version | --help\n");
      return 0;
    }
  }
  flexarm::ArmView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FlexArm");
  QApplication::setApplicationName("FlexArm");
  QString project, screenshot;
  bool run = false, quit = false;
  const QStringList args = QApplication::arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == "--run")
      run = true;
    else if (args[i] == "--quit")
      quit = true;
    else if (args[i] == "--screenshot" && i + 1 < args.size())
      screenshot = args[++i];
    else if (args[i].startsWith("-")) {
      std::fprintf(stderr, "flexarm: unknown option %s\n", qPrintable(args[i]));
      return 2;
    } else
      project = args[i];
  }
  flexarm::MainWindow window;
  window.resize(1500, 950);
  window.show();
  if (!project.isEmpty() && !window.openProject(project) && quit) return 2;
  if (project.isEmpty() && !quit) window.offerRecovery(QString());  // an untitled project left by a crash
  auto snap = [&] {
    if (!screenshot.isEmpty()) {
      window.screenshot().save(screenshot);
      std::printf("screenshot saved to %s\n", qPrintable(screenshot));
    }
    if (quit) app.quit();
  };
  if (run) {
    QTimer::singleShot(200, &window, [&] { window.runSimulation(); });
    auto* waiter = new QTimer(&window);
    QObject::connect(waiter, &QTimer::timeout, &window, [&, waiter] {
      if (window.isRunning()) return;
      waiter->stop();
      QTimer::singleShot(300, &window, snap);
    });
    QTimer::singleShot(400, &window, [waiter] { waiter->start(100); });
  } else if (!screenshot.isEmpty() || quit) {
    QTimer::singleShot(800, &window, snap);
  }
  return app.exec();
}
