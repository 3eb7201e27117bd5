// Numbers in files do not follow the locale, in the workbench too (issue 21, item 4), under xvfb-run.
// The program sets LC_ALL=de_DE.UTF-8 before QApplication, which calls setlocale(LC_ALL, ""): the C
// locale's decimal point is then ',' and QLocale() is German. Every file the workbench writes or
// reads must still use '.': (a) the results CSV of File > Export (and its sidecar), read back
// exactly; (b) a table file imported into a table law, and one referenced by name; (c) a project
// with fractional values typed in the editor, saved and reopened unchanged.
#include <QFile>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "results/CsvMetadata.hpp"
#include "results/CsvReader.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;
using Kind = ModelItem::Kind;
using flexarm::test::choose;
using flexarm::test::lineEdit;
using flexarm::test::savedExample;
using flexarm::test::type;

namespace {

QString fileText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Whether the process runs under the German locale: the C library's decimal point and Qt's.
bool germanLocale() {
  const std::lconv* c = std::localeconv();
  return c && std::string(c->decimal_point) == "," && QLocale().decimalPoint() == QString(",");
}

const TimeFunction& law(MainWindow& w) { return w.document()->project()->model.joints[0].drive.law; }

}  // namespace

class LocaleTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!germanLocale())
      QSKIP("the locale de_DE.UTF-8 is not installed (localedef -i de_DE -f UTF-8 de_DE.UTF-8; install-deps generates it)");
  }

  void exportedCsvHasPointsAndReadsBackExactly() {
    QTemporaryDir dir;
    const QString project = savedExample(dir, "double-pendulum.flexarm.json", {"simulation.t_end=0.5"}, "pendulum.flexarm.json");
    QVERIFY(!project.isEmpty());
    MainWindow w;
    QVERIFY(flexarm::test::openShown(w, project));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), flexarm::test::kSlowMs);
    const Results* run = w.results();
    QVERIFY(run);
    QCOMPARE(run->status, RunStatus::Completed);
    QVERIFY(run->rows() > 10);

    // File > Export > CSV, without its file dialog.
    const QString csv = dir.filePath("pendulum.csv");
    QCOMPARE(w.exportCsvTo(csv), std::string());
    flexarm::test::saveScreenshot(w, "export-csv-german-locale");  // the message names the sidecar
    const QStringList lines = fileText(csv).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), static_cast<int>(run->rows()) + 1);
    QVERIFY2(lines.front().startsWith("t,q.shoulder,"), qPrintable(lines.front()));
    const int commas = static_cast<int>(run->channels().size()) - 1;
    int with_point = 0;
    for (int k = 1; k < lines.size(); ++k) {
      // A decimal comma would add a cell to the row; every fraction has its '.'.
      QVERIFY2(lines[k].count(',') == commas, qPrintable(lines[k]));
      if (lines[k].contains('.')) ++with_point;
    }
    QVERIFY(with_point > 10);
    QVERIFY2(lines[1].startsWith("0,"), qPrintable(lines[1]));
    QVERIFY2(lines.last().startsWith("0.5,"), qPrintable(lines.last()));

    // Read back exactly, numbers and description (the sidecar's end time 0.5 included).
    const Result<Results> back = readCsvFile(csv.toStdString());
    QVERIFY2(back, back ? "" : back.error().text().c_str());
    QCOMPARE(back->rows(), run->rows());
    QCOMPARE(back->channels().size(), run->channels().size());
    for (std::size_t r = 0; r < run->rows(); ++r)
      for (std::size_t c = 0; c < run->channels().size(); ++c)
        QVERIFY2(back->value(r, c) == run->value(r, c) || (std::isnan(back->value(r, c)) && std::isnan(run->value(r, c))),
                 qPrintable(QString("row %1, channel %2").arg(r).arg(QString::fromStdString(run->channels()[c].name))));
    QCOMPARE(back->end_time, 0.5);
    QCOMPARE(back->status, RunStatus::Completed);
    QCOMPARE(back->solver_description, run->solver_description);
    QCOMPARE(back->channels()[1].unit, std::string("rad"));
    const QString meta = fileText(QString::fromStdString(csvMetadataFile(csv.toStdString()).string()));
    QVERIFY2(meta.contains("\"end_time\": 0.5,"), qPrintable(meta));
    QVERIFY2(meta.contains("\"wall_time\": "), qPrintable(meta));
    QVERIFY2(!meta.contains(QRegularExpression("\"wall_time\": [0-9]+,[0-9]")), qPrintable(meta));
  }

  void tableFilesAreReadWithPoints() {
    QTemporaryDir dir;
    const QString project = flexarm::test::copyOfExample(dir, "double-pendulum.flexarm.json");
    const QString table = dir.filePath("motion.csv");
    std::ofstream(table.toStdString()) << "t,angle\n0,0\n0.5,0.5\n1.5,0.75\n";
    MainWindow w;
    QVERIFY(flexarm::test::openShown(w, project));
    w.propertyEditor()->setFileChooser([&](const QString&) { return table; });
    w.modelTree()->select({Kind::Joint, 0});
    QVERIFY(choose(w, "joints[0].drive.type", "prescribed"));
    QVERIFY(choose(w, "joints[0].drive.law", "table"));
    // Import CSV...: the points are copied into the project.
    auto* import = qobject_cast<QPushButton*>(w.propertyEditor()->field("joints[0].drive.points"));
    QVERIFY(import);
    QTest::mouseClick(import, Qt::LeftButton);
    QVERIFY2(w.propertyEditor()->fieldError("joints[0].drive.points").isEmpty(),
             qPrintable(w.propertyEditor()->fieldError("joints[0].drive.points")));
    const Json& points = w.document()->json()["joints"][0]["drive"]["points"];
    QCOMPARE(points.size(), std::size_t(3));
    QCOMPARE(points[1], Json::array({0.5, 0.5}));
    QCOMPARE(points[2], Json::array({1.5, 0.75}));
    QCOMPARE(law(w).evaluate(0.5).value, 0.5);
    QCOMPARE(law(w).evaluate(1.0).value, 0.625);
    // The file referenced by name instead: read by the loader, with the same points.
    QVERIFY(type(w, "joints[0].drive.file", "motion.csv"));
    QCOMPARE(law(w).table_t.size(), std::size_t(3));
    QCOMPARE(law(w).table_t[1], 0.5);
    QCOMPARE(law(w).evaluate(0.5).value, 0.5);
  }

  void aSavedProjectReopensWithItsFractions() {
    QTemporaryDir dir;
    const QString project = flexarm::test::copyOfExample(dir, "double-pendulum.flexarm.json");
    const QString saved = dir.filePath("saved.flexarm.json");
    {
      MainWindow w;
      QVERIFY(flexarm::test::openShown(w, project));
      w.modelTree()->select({Kind::Link, 0});
      QVERIFY(type(w, "links[0].length", "0.123456789"));
      QVERIFY(type(w, "links[0].mass", "2.5"));
      QCOMPARE(w.document()->json()["links"][0]["length"].get<double>(), 0.123456789);
      QVERIFY(w.saveProject(saved));
    }
    const QString text = fileText(saved);
    QVERIFY2(text.contains("\"length\": 0.123456789"), qPrintable(text));
    QVERIFY2(text.contains("\"mass\": 2.5"), qPrintable(text));
    MainWindow w;
    QVERIFY(flexarm::test::openShown(w, saved));
    QCOMPARE(w.document()->json()["links"][0]["length"].get<double>(), 0.123456789);
    QCOMPARE(w.document()->project()->model.links[0].length, 0.123456789);
    QCOMPARE(w.document()->json()["links"][0]["mass"].get<double>(), 2.5);
    QCOMPARE(w.document()->json()["gravity"][2].get<double>(), -9.81);
    // The editor shows them as they are in the file.
    w.modelTree()->select({Kind::Link, 0});
    QLineEdit* length = lineEdit(w, "links[0].length");
    QVERIFY(length);
    QCOMPARE(length->text(), QString("0.123456789"));
    QCOMPARE(lineEdit(w, "links[0].mass")->text(), QString("2.5"));
  }
};

int main(int argc, char** argv) {
  // Before QApplication, which sets the C locale from the environment.
  ::setenv("LC_ALL", "de_DE.UTF-8", 1);
  return flexarm::test::runUiTests<LocaleTest>(argc, argv);
}
#include "test_locale.moc"
