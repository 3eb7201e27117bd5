#pragma once
// What the UI tests share: pixel checks and the test program's main.
#include <dlfcn.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QImage>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

#include "io/ProjectFile.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/editor/PropertyEditor.hpp"

namespace flexarm::test {

// How long a test waits for a run or an analysis to finish [ms]: far longer under the sanitizers.
#ifdef FLEXARM_SANITIZED
constexpr int kSlowMs = 600000;
#else
constexpr int kSlowMs = 120000;
#endif

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

// A copy of a shipped example in dir (edits must not touch the shipped file); "" when it fails.
inline QString copyOfExample(const QTemporaryDir& dir, const char* name) {
  const QString path = dir.filePath(name);
  QFile::remove(path);
  return QFile::copy(QString(FLEXARM_PROJECTS_DIR) + "/" + name, path) ? path : QString();
}

// A shipped example with overrides (as flexarm-cli --set takes them) saved in dir as `file`; "" when
// it fails.
inline QString savedExample(const QTemporaryDir& dir, const char* name, const std::vector<std::string>& overrides,
                            const QString& file) {
  const LoadedProject p = loadProjectFile(std::string(FLEXARM_PROJECTS_DIR) + "/" + name, overrides);
  if (!p.project) return {};
  const QString path = dir.filePath(file);
  return saveProjectFile(*p.project, path.toStdString()) ? path : QString();
}

// The spin-up beam at 8 rad/s for 10 s with the given coupling ("zero" diverges near 6.5 s, "high"
// completes), saved in dir.
inline QString spinUpAtEight(const QTemporaryDir& dir, const std::string& coupling) {
  return savedExample(dir, "spin-up-beam.flexarm.json",
                      {"joints[0].drive.omega0=8", "simulation.t_end=10", "coupling=" + coupling},
                      QString::fromStdString("spin-up-" + coupling + ".flexarm.json"));
}

// The action `text` of the menu bar's menu `menu` (e.g. "&File"), its submenus searched too; null when none.
inline QAction* menuAction(QMenu* m, const QString& text) {
  for (QAction* a : m->actions()) {
    if (a->text() == text) return a;
    if (a->menu())
      if (QAction* inner = menuAction(a->menu(), text)) return inner;
  }
  return nullptr;
}
inline QAction* menuAction(QMainWindow& w, const QString& menu, const QString& text) {
  for (QAction* m : w.menuBar()->actions())
    if (m->text() == menu && m->menu()) return menuAction(m->menu(), text);
  return nullptr;
}

// Types text into a field of the new-project wizard as a user does; false when there is no such field.
inline bool typeInWizard(NewProjectWizard& w, const QString& key, const QString& text) {
  auto* e = qobject_cast<QLineEdit*>(w.field(key));
  if (!e) return false;
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
  return true;
}

// Shows the window at the tests' size and opens the project in it.
inline bool openShown(MainWindow& w, const QString& project) {
  w.resize(1400, 900);
  w.show();
  return w.openProject(project);
}

inline QLineEdit* lineEdit(MainWindow& w, const QString& path) {
  return qobject_cast<QLineEdit*>(w.propertyEditor()->field(path));
}
inline QComboBox* combo(MainWindow& w, const QString& path) { return qobject_cast<QComboBox*>(w.propertyEditor()->field(path)); }

// Types text into the property field of `path` as a user does (replace, then Return); true when the
// field shows no error afterwards.
inline bool type(MainWindow& w, const QString& path, const QString& text) {
  QLineEdit* e = lineEdit(w, path);
  if (!e) {
    qWarning("no text field %s among %s", qPrintable(path), qPrintable(w.propertyEditor()->paths().join(" ")));
    return false;
  }
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
  return w.propertyEditor()->fieldError(path).isEmpty();
}

// Picks a choice of the property field of `path`; true when the field shows no error afterwards.
inline bool choose(MainWindow& w, const QString& path, const QString& text) {
  QComboBox* c = combo(w, path);
  if (!c || c->findText(text) < 0) {
    qWarning("no choice %s in %s", qPrintable(text), qPrintable(path));
    return false;
  }
  c->setCurrentIndex(c->findText(text));
  return w.propertyEditor()->fieldError(path).isEmpty();
}

// Saves the window as the user sees it to $FLEXARM_SCREENSHOT_DIR/name.png when that variable is set
// (screenshots to look at; the tests assert what they show).
inline void saveScreenshot(MainWindow& w, const QString& name) {
  const QString dir = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  const QString file = dir + "/" + name + ".png";
  QTest::qWait(300);  // the queued replots and renders first
  if (w.screenshot().save(file)) qInfo("screenshot %s", qPrintable(file));
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
