// Table laws in the model editor (issue 7: "drives with ... table imported from CSV"), under xvfb-run:
// a CSV file's points are imported into a prescribed drive (the law then equals linear and natural-
// cubic interpolation of those points, worked out here independently), a malformed file is refused
// naming its line, a table file can be referenced instead (relative to the project), and every step
// undoes.
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <fstream>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/PropertyEditor.hpp"

using namespace flexarm;
using Kind = ModelItem::Kind;
using flexarm::test::choose;
using flexarm::test::copyOfExample;
using flexarm::test::type;

namespace {

const TimeFunction& law(MainWindow& w) { return w.document()->project()->model.joints[0].drive.law; }
}  // namespace

class TableLawTest : public QObject {
  Q_OBJECT
 private slots:
  void importReferenceAndUndo() {
    QTemporaryDir dir;
    const QString project = copyOfExample(dir, "double-pendulum.flexarm.json");
    // A motion table as a lab might export it: a comment, a header, semicolons.
    const QString csv = dir.filePath("motion.csv");
    std::ofstream(csv.toStdString())
        << "# shoulder angle from the encoder\ntime;angle\n0;0\n0.5;0.2\n1.0;0.8\n1.5;1.0\n2.0;1.0\n";
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(project));
    const Json original = w.document()->json();
    QString asked;
    QString answer = csv;
    w.propertyEditor()->setFileChooser([&](const QString& title) {
      asked = title;
      return answer;
    });
    w.modelTree()->select({Kind::Joint, 0});
    QVERIFY(choose(w, "joints[0].drive.type", "prescribed"));
    QVERIFY(choose(w, "joints[0].drive.law", "table"));
    auto* import = qobject_cast<QPushButton*>(w.propertyEditor()->field("joints[0].drive.points"));
    QVERIFY(import);
    QCOMPARE(import->text(), QString("Import CSV..."));
    QTest::mouseClick(import, Qt::LeftButton);
    QCOMPARE(asked, QString("copy points from"));
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Import 5 points from motion.csv into drive of joint 'shoulder'"));
    const Json& points = w.document()->json()["joints"][0]["drive"]["points"];
    QCOMPARE(points.size(), std::size_t(5));
    QCOMPARE(points[2], Json::array({1.0, 0.8}));
    QVERIFY(!w.document()->json()["joints"][0]["drive"].contains("file"));
    // Linear interpolation between the imported points; held after the last one.
    QCOMPARE(law(w).evaluate(0.75).value, 0.5);
    QCOMPARE(law(w).evaluate(0.75).rate, (0.8 - 0.2) / 0.5);
    QCOMPARE(law(w).evaluate(3.0).value, 1.0);
    QVERIFY(w.propertyEditor()->previewPoints() > 0);
    QCOMPARE(w.propertyEditor()->previewLastValue(), 1.0);  // the preview spans t_end = 10 s
    // Cubic: the natural spline through the points. Its second derivatives m solve, with m0 = m4 = 0
    // and h = 0.5, m[i-1] + 4 m[i] + m[i+1] = 6 (y[i+1] - 2 y[i] + y[i-1]) / h^2.
    QVERIFY(choose(w, "joints[0].drive.interpolation", "cubic"));
    {
      const double h = 0.5, y[5] = {0, 0.2, 0.8, 1.0, 1.0};
      double r[3];
      for (int i = 1; i <= 3; ++i) r[i - 1] = 6 * (y[i + 1] - 2 * y[i] + y[i - 1]) / (h * h);
      // Tridiagonal [4 1 0; 1 4 1; 0 1 4] m = r, solved by hand (Cramer).
      const double det = 4 * (16 - 1) - 1 * (4 - 0);
      const double m1 = (r[0] * 15 - 1 * (4 * r[1] - r[2])) / det;
      const double m2 = (4 * (4 * r[1] - r[2]) - r[0] * 4) / det;
      // On [0.5, 1.0] at its midpoint: the mean of the ends minus h^2/16 times the mean curvature.
      const double expected = 0.5 * (y[1] + y[2]) - h * h / 16 * (m1 + m2);
      QVERIFY2(std::abs(law(w).evaluate(0.75).value - expected) < 1e-12,
               qPrintable(QString("%1 vs %2").arg(law(w).evaluate(0.75).value).arg(expected)));
    }
    if (qEnvironmentVariableIsSet("FLEXARM_SCREENSHOTS")) {
      w.resize(1500, 950);
      QTest::qWait(200);
      if (auto* scroll = w.propertyEditor()->findChild<QScrollArea*>()) scroll->ensureWidgetVisible(import);
      QTest::qWait(200);
      QVERIFY(w.screenshot().save(qEnvironmentVariable("FLEXARM_SCREENSHOTS") + "/editor-table-law.png"));
    }
    // A malformed file is refused with the reader's message, naming the line; nothing changes.
    const Json before = w.document()->json();
    const QString broken = dir.filePath("broken.csv");
    std::ofstream(broken.toStdString()) << "t,v\n0,0\n1,oops\n";
    answer = broken;
    import = qobject_cast<QPushButton*>(w.propertyEditor()->field("joints[0].drive.points"));
    QTest::mouseClick(import, Qt::LeftButton);
    const QString error = w.propertyEditor()->fieldError("joints[0].drive.points");
    QVERIFY2(error.contains("cannot import broken.csv") && error.contains("line 3"), qPrintable(error));
    QCOMPARE(w.document()->json(), before);
    // Cancelling the file dialog does nothing.
    answer.clear();
    QTest::mouseClick(import, Qt::LeftButton);
    QCOMPARE(w.document()->json(), before);
    // A reference to the file instead, relative to the project's directory; a missing file is refused.
    QVERIFY(!type(w, "joints[0].drive.file", "no-such.csv"));
    QVERIFY2(w.propertyEditor()->fieldError("joints[0].drive.file").contains("no-such.csv"),
             qPrintable(w.propertyEditor()->fieldError("joints[0].drive.file")));
    QCOMPARE(w.document()->json(), before);
    QVERIFY(type(w, "joints[0].drive.file", "motion.csv"));
    QCOMPARE(w.document()->json()["joints"][0]["drive"]["file"], Json("motion.csv"));
    QVERIFY(!w.document()->json()["joints"][0]["drive"].contains("points"));
    QCOMPARE(law(w).table_t.size(), std::size_t(5));
    // Every step undoes, back to the free joint.
    while (w.document()->undoStack()->canUndo()) w.document()->undo();
    QCOMPARE(w.document()->json(), original);
  }

  void aConstraintsValueTakesATableToo() {
    // The elbow follows a table of the shoulder's angle: q.elbow - q.shoulder = f(t).
    QTemporaryDir dir;
    ProjectDocument doc;
    QVERIFY(doc.open(copyOfExample(dir, "double-pendulum.flexarm.json")));
    Json j = doc.json();
    j["simulation"]["solver"]["method"] = "ida";
    j["constraints"] = Json::array(
        {Json{{"name", "follow"},
              {"type", "coordinates"},
              {"terms", {{"q.elbow", 1.0}, {"q.shoulder", -1.0}}},
              {"value", {{"law", "table"}, {"points", Json::array({Json::array({0.0, 0.0}), Json::array({1.0, 0.0})})}}}}});
    QString error;
    QVERIFY2(doc.apply("Add a constraint", j, &error), qPrintable(error));
    const QString csv = dir.filePath("bend.csv");
    std::ofstream(csv.toStdString()) << "0 0\n1 0.3\n2 0.3\n";
    QVERIFY2(edits::importTable(doc, "constraints[0].value", csv, &error), qPrintable(error));
    QCOMPARE(doc.undoStack()->undoText(), QString("Import 3 points from bend.csv into value law f(t) of constraint 'follow'"));
    QCOMPARE(doc.project()->model.constraints[0].value.evaluate(0.5).value, 0.15);
    // Where there is no table law, the edit says so.
    QVERIFY(!edits::importTable(doc, "joints[0].drive", csv, &error));
    QCOMPARE(error, QString("joints[0].drive: there is no table law here"));
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<TableLawTest>(argc, argv); }
#include "test_table_laws.moc"
