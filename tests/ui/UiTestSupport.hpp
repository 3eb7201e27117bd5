#pragma once
// What the UI tests share: pixel checks and the test program's main.
#include <dlfcn.h>

#include <QApplication>
#include <QImage>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

#include "ui/ArmView.hpp"

namespace flexarm::test {

// Pixels (every second one in each direction) that differ clearly from the top-left corner's colour.
inline int nonBackgroundPixels(const QImage& img) {
  const QRgb corner = img.pixel(2, 2);
  int n = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QRgb p = img.pixel(x, y);
      if (std::abs(qRed(p) - qRed(corner)) + std::abs(qGreen(p) - qGreen(corner)) + std::abs(qBlue(p) - qBlue(corner)) > 60) ++n;
    }
  return n;
}

// Runs the Qt Test class T in a QApplication set up for the 3D view.
template <class T>
int runUiTests(int argc, char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  // Keep Mesa's software driver loaded until exit (libGLX unloads it when the display closes), so
  // that LeakSanitizer can name its one-off allocations and tests/ui/lsan.supp can suppress them.
  dlopen("libGLX_mesa.so.0", RTLD_NOW | RTLD_NODELETE);
  dlopen(FLEXARM_MESA_SWRAST, RTLD_NOW | RTLD_NODELETE);
#endif
  ArmView::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("FlexArmTests");
  // The tests' settings and recovery files are their own, never the user's (child processes, such as
  // the editor's crash helper, inherit FLEXARM_RECOVERY_DIR).
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir recovery;
  if (!recovery.isValid()) return 1;
  qputenv("FLEXARM_RECOVERY_DIR", recovery.path().toLocal8Bit());
  T t;
  return QTest::qExec(&t, argc, argv);
}

}  // namespace flexarm::test
