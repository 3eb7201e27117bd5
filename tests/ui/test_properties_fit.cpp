// The Properties dock is usable (issue 20, item 3), under xvfb-run: at the window's default size and
// at 1366 x 768, every field of every form of every shipped project (each item of the model tree in
// turn) shows its value unclipped (a free text: at least its first PropertyEditor::kFreeTextChars
// characters) and its unit beside it, inside the dock; widening the dock leaves the 3D view, the
// timeline and the model tree their room.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>
#include <QtTest>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
QString example(const QString& name) { return QDir(QString(FLEXARM_PROJECTS_DIR)).absoluteFilePath(name); }

bool isNumberList(const QString& text) {
  bool ok = false;
  QLocale::c().toDouble(text.section(',', 0, 0).trimmed(), &ok);
  return ok;
}

// The width a field needs to show its value: the text's advance (a free text's first characters), and
// a combo box's arrow.
int neededWidth(QWidget* field) {
  const QFontMetrics fm(field->font());
  if (auto* e = qobject_cast<QLineEdit*>(field)) {
    int text = fm.horizontalAdvance(e->text());
    if (!isNumberList(e->text())) text = std::min(text, PropertyEditor::kFreeTextChars * fm.averageCharWidth());
    return text + 8;  // the frame and the line edit's own margins
  }
  if (auto* c = qobject_cast<QComboBox*>(field)) return fm.horizontalAdvance(c->currentText()) + 20;  // and the arrow
  return 0;
}

// Every line edit and combo box of the editor's form: wide enough and inside the dock's view, its unit
// label (the grid's next column) as wide as its text and inside too. False with the first problem.
bool everyFieldReadable(PropertyEditor* editor, QString* why) {
  auto* scroll = editor->findChild<QScrollArea*>();
  QWidget* viewport = scroll->viewport();
  auto inside = [viewport](QWidget* w) {
    const QPoint right = w->mapTo(viewport, QPoint(w->width(), 0));
    return w->mapTo(viewport, QPoint(0, 0)).x() >= 0 && right.x() <= viewport->width();
  };
  for (const QString& path : editor->paths()) {
    QWidget* field = editor->field(path);
    if (!field || !(qobject_cast<QLineEdit*>(field) || qobject_cast<QComboBox*>(field))) continue;
    const int needed = neededWidth(field);
    if (field->width() < needed) {
      *why = QString("%1: %2 px wide, its value needs %3").arg(path).arg(field->width()).arg(needed);
      return false;
    }
    if (!inside(field)) return *why = path + ": outside the dock", false;
    auto* grid = qobject_cast<QGridLayout*>(field->parentWidget()->layout());
    int row = 0, column = 0, rows = 0, columns = 0;
    grid->getItemPosition(grid->indexOf(field), &row, &column, &rows, &columns);
    QLayoutItem* next = grid->itemAtPosition(row, column + 1);
    auto* unit = next ? qobject_cast<QLabel*>(next->widget()) : nullptr;
    if (!unit) return *why = path + ": no unit label", false;
    if (unit->text().isEmpty()) continue;
    if (!unit->isVisible() || unit->width() < unit->fontMetrics().horizontalAdvance(unit->text()) || !inside(unit))
      return *why = QString("%1: the unit \"%2\" is cut or hidden").arg(path, unit->text()), false;
  }
  return true;
}
}  // namespace

class PropertiesFitTest : public QObject {
  Q_OBJECT
 private slots:
  void everyFieldReadsInFull_data() {
    QTest::addColumn<QString>("project");
    QTest::addColumn<QSize>("size");  // empty: the window's default size
    const QStringList all = QDir(FLEXARM_PROJECTS_DIR).entryList({"*.flexarm.json"}, QDir::Files, QDir::Name);
    QVERIFY(all.contains("spatial-rrr-flexible-seed004.flexarm.json"));
    for (const QString& name : all) {
      QTest::newRow(qPrintable(name + " default")) << name << QSize();
      QTest::newRow(qPrintable(name + " 1366x768")) << name << QSize(1366, 768);
    }
  }

  void everyFieldReadsInFull() {
    QFETCH(QString, project);
    QFETCH(QSize, size);
    MainWindow w;
    if (size.isValid()) w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example(project)));
    int items = 0, fields = 0;
    for (QTreeWidgetItemIterator it(w.modelTree()->tree()); *it; ++it) {
      w.modelTree()->tree()->setCurrentItem(*it);
      QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
      QCoreApplication::processEvents();  // the form laid out
      QString why;
      QVERIFY2(everyFieldReadable(w.propertyEditor(), &why),
               qPrintable(QString("%1 (%2): %3").arg((*it)->text(0)).arg(w.width()).arg(why)));
      ++items;
      fields += static_cast<int>(w.propertyEditor()->paths().size());
    }
    QVERIFY(items > 3 && fields > 10);
    if (project == "spin-up-beam.flexarm.json") {
      for (QTreeWidgetItemIterator it(w.modelTree()->tree()); *it; ++it)
        if ((*it)->text(0).contains("beam")) w.modelTree()->tree()->setCurrentItem(*it);
      flexarm::test::saveScreenshot(w, size.isValid() ? "properties-1366x768" : "properties-default");
    }
  }

  // The default size is a working size on this screen, and a widened dock leaves the view and the
  // timeline their room.
  // Issue 43 item 6: an imported robot's values read as numbers, not as round-off; six inertia numbers
  // in two fields of three; a value left as shown keeps what is stored.
  void importedValuesReadWithoutRoundOffAndKeepTheirDigits() {
    MainWindow w;
    QVERIFY(flexarm::test::openShown(w, example("ur5-like-flexible-forearm.flexarm.json")));
    w.modelTree()->select({ModelItem::Kind::Link, 4});  // wrist_2_link
    QLineEdit* com = flexarm::test::lineEdit(w, "links[4].com");
    QVERIFY(com);
    QCOMPARE(com->text(), QString("0.09465, 0, 0"));  // 2.1016521856154213e-17 in the file
    QLineEdit* moments = flexarm::test::lineEdit(w, "links[4].inertia");
    QLineEdit* products = flexarm::test::lineEdit(w, "links[4].inertia.products");
    QVERIFY(moments && products);
    QCOMPARE(moments->text(), QString("0.21942, 0.11117276, 0.11117276"));
    QCOMPARE(products->text(), QString("0, 0, 0"));  // 2.4035716632342385e-17 in the file
    // A new Ixx: the other five stay as stored, to the last digit.
    const Json before = w.document()->json()["links"][4]["inertia"];
    QVERIFY(flexarm::test::type(w, "links[4].inertia", "0.2, 0.11117276, 0.11117276"));
    const Json after = w.document()->json()["links"][4]["inertia"];
    QCOMPARE(after.size(), std::size_t(6));
    QCOMPARE(after[0].get<double>(), 0.2);
    for (std::size_t i = 1; i < 6; ++i) QCOMPARE(after[i].get<double>(), before[i].get<double>());
    QCOMPARE(w.document()->undoStack()->undoText(),
             QString("Set inertia Ixx, Iyy, Izz [, Ixy, Ixz, Iyz] of link 'wrist_2_link' to ") +
                 "[0.2,0.111172755531,0.111172755531,"
                 "0.0,2.4035716632342385e-17,0.0] kg m²");
    // Products typed as 0: the list shrinks to the three moments.
    QVERIFY(flexarm::test::type(w, "links[4].inertia.products", "0, 0, 0"));
    QCOMPARE(w.document()->json()["links"][4]["inertia"].size(), std::size_t(3));
    flexarm::test::saveScreenshot(w, "properties-imported-link");
  }

  void widenedDockLeavesTheViewAndTheTimeline() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.width() >= 1200 && w.height() >= 750);
    w.resize(1366, 768);
    QVERIFY(w.openProject(example("spatial-rrr-flexible-seed004.flexarm.json")));
    auto* dock = w.findChild<QDockWidget*>("dock.properties");
    w.resizeDocks({dock}, {900}, Qt::Horizontal);
    QTest::qWait(200);
    QVERIFY(dock->width() > 500);  // it did widen
    QVERIFY(w.armView()->sceneWidget()->width() >= 240);
    QVERIFY(w.modelTree()->width() >= 170);  // and the model tree its own
    QVERIFY(w.armView()->sceneWidget()->height() >= 200);
    Timeline* t = w.timeline();
    QVERIFY(t->isVisible() && t->width() >= t->minimumSizeHint().width());
    QVERIFY(t->mapTo(&w, QPoint(t->width(), 0)).x() <= w.width());
    QVERIFY(flexarm::test::nonBackgroundPixels(w.armView()->grabFramebuffer()) > 500);
    flexarm::test::saveScreenshot(w, "properties-widened");
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<PropertiesFitTest>(argc, argv); }
#include "test_properties_fit.moc"
