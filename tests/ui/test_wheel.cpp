// Scrolling never edits (issue 20, item 1), under xvfb-run: the mouse wheel over a combo box, a spin box
// or a slider that has not been clicked into leaves the document (and the field) as it was and scrolls
// the form instead; the wheel gives those fields no focus; a field with the focus still takes the wheel.
// Every form of every shipped project (each item of the model tree in turn), the window's own controls
// (toolbar, timeline, natural modes) and the dialogs (File > New, File > Export > Animation).
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QDir>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>
#include <QtTest>
#include <QtTest/qtestspontaneevent.h>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/NewProjectWizard.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/export/ExportDialogs.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
QString example(const QString& name) { return QDir(QString(FLEXARM_PROJECTS_DIR)).absoluteFilePath(name); }

// The fields the wheel could change: combo boxes, spin boxes, sliders.
QList<QWidget*> wheelFields(QWidget* root) {
  QList<QWidget*> out;
  for (QWidget* w : root->findChildren<QWidget*>())
    if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QSlider*>(w)) out << w;
  return out;
}

// What a field shows: the choice, the spin box's text or the slider's position.
QString valueOf(QWidget* w) {
  if (auto* c = qobject_cast<QComboBox*>(w)) return QString::number(c->currentIndex()) + " " + c->currentText();
  if (auto* s = qobject_cast<QAbstractSpinBox*>(w)) return s->text();
  if (auto* s = qobject_cast<QSlider*>(w)) return QString::number(s->value());
  return {};
}

QString describe(QWidget* w) { return QString("%1 '%2'").arg(w->metaObject()->className(), w->objectName()); }

// A wheel turn (one notch, up or down) over the middle of `w`, sent as QApplication::sendEvent sends it.
void sendWheel(QWidget* w, int delta) {
  const QPointF at(w->width() / 2.0, w->height() / 2.0);
  QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

// The same turn as the window system delivers it: to the innermost widget under the pointer (a spin
// box's line edit), spontaneous, so that Qt gives the focus by wheel and passes an ignored event on to
// the parents.
void userWheel(QWidget* w, int delta) {
  const QPoint middle(w->width() / 2, w->height() / 2);
  QWidget* target = w->childAt(middle) ? w->childAt(middle) : w;
  const QPointF at = target->mapFrom(w, middle);
  QWheelEvent e(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QSpontaneKeyEvent::setSpontaneous(&e);
  qApp->notify(target, &e);
}

// Turns the wheel both ways over every field under root (none focused); false (with the reason in
// *why) when a field's value changed or a field took the focus.
bool wheelChangesNothing(QWidget* root, QString* why) {
  for (QWidget* f : wheelFields(root)) {
    if ((f->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) {
      *why = describe(f) + " takes the focus by wheel";
      return false;
    }
    const QString before = valueOf(f);
    for (int delta : {120, -120, -120, 120, 120, -120}) sendWheel(f, delta);
    if (f->isVisible())
      for (int delta : {-120, 120, 120, -120}) userWheel(f, delta);
    if (valueOf(f) != before) {
      *why = describe(f) + " changed from " + before + " to " + valueOf(f);
      return false;
    }
    if (f->hasFocus()) {
      *why = describe(f) + " took the focus";
      return false;
    }
  }
  return true;
}
}  // namespace

class WheelTest : public QObject {
  Q_OBJECT
 private slots:
  void scrollingOverTheFormsNeverEdits_data() {
    QTest::addColumn<QString>("project");
    const QStringList all = QDir(FLEXARM_PROJECTS_DIR).entryList({"*.flexarm.json"}, QDir::Files, QDir::Name);
    for (const char* needed : {"spin-up-beam", "spatial-rrr-flexible-seed004", "sliding-beam-slow-push"})
      QVERIFY(all.contains(QString(needed) + ".flexarm.json"));
    for (const QString& name : all) QTest::newRow(qPrintable(name)) << name;
  }

  // Every item of the model tree in turn: every field of its form, and the window's own controls.
  void scrollingOverTheFormsNeverEdits() {
    QFETCH(QString, project);
    MainWindow w;
    w.resize(1300, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example(project)));
    ProjectDocument& doc = *w.document();
    const Json saved = doc.json();
    int items = 0, fields = 0;
    for (QTreeWidgetItemIterator it(w.modelTree()->tree()); *it; ++it) {
      w.modelTree()->tree()->setCurrentItem(*it);
      QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);  // the previous form goes
      ++items;
      fields += wheelFields(w.propertyEditor()).size();
      QString why;
      QVERIFY2(wheelChangesNothing(&w, &why), qPrintable((*it)->text(0) + ": " + why));
      QVERIFY2(doc.json() == saved, qPrintable("scrolling over the form of " + (*it)->text(0) + " changed the project"));
      QCOMPARE(doc.undoStack()->count(), 0);
      QVERIFY(doc.undoStack()->isClean());
      QVERIFY(!doc.isDirty());
    }
    qInfo("%d tree items, %d form fields scrolled over", items, fields);
    QVERIFY(items >= 5);
    QVERIFY(fields > 0);
    // The file the user would save is the one opened.
    QTemporaryDir dir;
    QVERIFY(w.saveProject(dir.filePath("after.flexarm.json")));
    QVERIFY(doc.open(example(project)));
    const Json reopened = doc.json();
    QVERIFY(doc.open(dir.filePath("after.flexarm.json")));
    QVERIFY(doc.json() == reopened);
  }

  // The wheel over a field scrolls the form around it, as it would over a label.
  void theWheelScrollsTheFormInstead() {
    MainWindow w;
    w.resize(1300, 560);  // forms taller than the dock
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("spatial-rrr-flexible-seed004.flexarm.json")));
    const Json saved = w.document()->json();
    int scrolled = 0;
    for (QTreeWidgetItemIterator it(w.modelTree()->tree()); *it && scrolled == 0; ++it) {
      w.modelTree()->tree()->setCurrentItem(*it);
      QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
      auto* area = w.propertyEditor()->findChild<QScrollArea*>();
      QVERIFY(area);
      QScrollBar* bar = area->verticalScrollBar();
      if (bar->maximum() == 0) continue;  // the whole form fits
      for (QWidget* f : wheelFields(area->widget())) {
        const QRect in_view(f->mapTo(area->viewport(), QPoint(0, 0)), f->size());
        if (!f->isVisible() || !area->viewport()->rect().contains(in_view)) continue;
        bar->setValue(0);
        const QString before = valueOf(f);
        userWheel(f, -120);  // down
        QVERIFY2(bar->value() > 0, qPrintable(describe(f) + ": the form did not scroll"));
        QCOMPARE(valueOf(f), before);
        QVERIFY(!f->hasFocus());
        ++scrolled;
        break;
      }
    }
    QVERIFY2(scrolled > 0, "no form taller than its dock with a field in view");
    QVERIFY(w.document()->json() == saved);
    QCOMPARE(w.document()->undoStack()->count(), 0);
  }

  // Clicked into (the keyboard focus), a field takes the wheel: that is deliberate editing.
  void aFocusedFieldTakesTheWheel() {
    MainWindow w;
    w.resize(1300, 800);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.openProject(example("spin-up-beam.flexarm.json")));
    w.modelTree()->select({ModelItem::Kind::Simulation, -1});
    QComboBox* coupling = test::combo(w, "coupling");
    QVERIFY(coupling);
    QCOMPARE(coupling->focusPolicy(), Qt::StrongFocus);
    const int before = coupling->currentIndex();
    const int delta = before > 0 ? 120 : -120;  // towards a choice there is
    sendWheel(coupling, delta);
    QCOMPARE(coupling->currentIndex(), before);  // not focused: unchanged
    coupling->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(coupling->hasFocus());
    sendWheel(coupling, delta);
    QVERIFY(coupling->currentIndex() != before);
    QCOMPARE(w.document()->undoStack()->count(), 1);
    QVERIFY2(w.document()->undoStack()->undoText().startsWith("Set coupling"), qPrintable(w.document()->undoStack()->undoText()));
    // A spin box of the window too (the deformation scale of the toolbar).
    QDoubleSpinBox* scale = nullptr;
    for (QDoubleSpinBox* s : w.findChildren<QDoubleSpinBox*>())
      if (s->toolTip().startsWith("Deformation scale")) scale = s;
    QVERIFY(scale);
    const double scale_before = scale->value();
    sendWheel(scale, 120);
    QCOMPARE(scale->value(), scale_before);
    scale->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(scale->hasFocus());
    sendWheel(scale, 120);
    QVERIFY(scale->value() > scale_before);
  }

  // The dialogs: File > New (a template's values) and File > Export > Animation (its spin boxes).
  void theDialogsToo() {
    MainWindow w;  // the workbench installs the guard for the whole application
    w.show();
    NewProjectWizard wizard(FLEXARM_PROJECTS_DIR, &w);
    wizard.show();
    QVERIFY(wizard.choose("planar-two-link"));
    wizard.next();
    QCoreApplication::processEvents();
    QVERIFY(!wheelFields(&wizard).isEmpty());
    const std::optional<Json> made = wizard.document();
    QVERIFY(made);
    QString why;
    QVERIFY2(wheelChangesNothing(&wizard, &why), qPrintable(why));
    QVERIFY(wizard.document() == made);

    int checked = 0;
    QTimer::singleShot(200, &w, [&] {
      QWidget* dialog = QApplication::activeModalWidget();
      if (!dialog) return;
      checked = wheelFields(dialog).size();
      if (!wheelChangesNothing(dialog, &why)) checked = -1;
      static_cast<QDialog*>(dialog)->reject();
    });
    QString dir;
    AnimationSettings settings;
    QVERIFY(!askAnimationExport(&w, dir, settings));
    QVERIFY2(checked >= 2, qPrintable(QString("%1 fields: %2").arg(checked).arg(why)));
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<WheelTest>(argc, argv); }
#include "test_wheel.moc"
