// Test helper for the editor's crash recovery (tests/ui/test_editor.cpp): a FlexArm window that makes
// one edit, which the autosave writes to the recovery file, prints "edited" and then waits to be
// killed (SIGKILL: no destructor, no clean close, as in a crash).
//   flexarm_editor_crash_helper PROJECT   sets links[1].length to 4.5 in PROJECT
//   flexarm_editor_crash_helper --untitled  builds an untitled project with two links
#include <QApplication>
#include <QTimer>
#include <cstdio>

#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/document/ProjectDocument.hpp"

int main(int argc, char** argv) {
  flexarm::ArmView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FlexArmTests");
  if (argc < 2) return 2;
  flexarm::MainWindow window;
  window.setQuestionHandler([](const QString&, const QString&, int) { return 0; });  // never block on a dialog
  window.show();
  const QString arg = QString::fromLocal8Bit(argv[1]);
  QTimer::singleShot(0, &window, [&] {
    bool ok = false;
    if (arg == "--untitled") {
      ok = window.newEmptyProject() && flexarm::edits::addLink(*window.document()) && flexarm::edits::addLink(*window.document());
    } else {
      ok = window.openProject(arg) && window.document()->setValue("links[1].length", 4.5, nullptr, "m");
    }
    std::printf("%s\n", ok ? "edited" : "failed");
    std::fflush(stdout);
  });
  return app.exec();
}
