// File > Export > ParaView series... as a user drives it (Qt Test, under xvfb-run): refused before a
// run; after the spin-up beam's run, arm.pvd lists one .vtp per output row with the results' times;
// a long export shows its progress and stops at Cancel (no collection written); the compare window
// writes one series per variant in a subfolder.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressDialog>
#include <QTemporaryDir>
#include <QTimer>
#include <QXmlStreamReader>
#include <QtTest>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {

// The collection's (time, file) entries, read with Qt's XML reader.
std::vector<std::pair<double, QString>> readPvd(const QString& file) {
  std::vector<std::pair<double, QString>> out;
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return out;
  QXmlStreamReader xml(&f);
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("DataSet"))
      out.emplace_back(xml.attributes().value("timestep").toDouble(), xml.attributes().value("file").toString());
  if (xml.hasError()) qWarning("%s: %s", qPrintable(file), qPrintable(xml.errorString()));
  return out;
}

}  // namespace

class ParaViewExportTest : public QObject {
  Q_OBJECT
 private slots:
  void mainWindowWritesOneFilePerOutputTime() {
    QTemporaryDir dir;
    MainWindow w;
    const QString project = test::savedExample(dir, "spin-up-beam.flexarm.json", {"simulation.t_end=4"}, "beam.flexarm.json");
    QVERIFY(test::openShown(w, project));
    QVERIFY(test::menuAction(w, "&File", "Para&View series..."));
    QVERIFY(w.exportParaViewTo(dir.filePath("none")) == "nothing to export: run the project first");
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), test::kSlowMs);
    QVERIFY(w.results());
    const std::string why = w.exportParaViewTo(dir.filePath("series"));
    QVERIFY2(why.empty(), why.c_str());
    const auto entries = readPvd(dir.filePath("series/arm.pvd"));
    const std::vector<double> t = w.results()->column("t");
    QCOMPARE(entries.size(), t.size());
    QCOMPARE(t.size(), std::size_t{81});  // 4 s at 20 Hz
    for (std::size_t k = 0; k < t.size(); ++k) {
      QCOMPARE(entries[k].first, t[k]);
      QVERIFY(QFile::exists(dir.filePath("series/" + entries[k].second)));
    }
    // The beam's 41 centreline points and the hub, in VTK's XML poly data format.
    QFile first(dir.filePath("series/" + entries.front().second));
    QVERIFY(first.open(QIODevice::ReadOnly));
    const QByteArray head = first.read(2000);
    QVERIFY2(head.contains("<VTKFile type=\"PolyData\""), head.constData());
    QVERIFY2(head.contains("NumberOfPoints=\"42\""), head.constData());
  }

  // File > Export > ParaView series... into a folder that does not exist yet, typed in its dialog:
  // the folder is made (Qt's folder chooser had refused it: "Directory not found").
  void theMenuExportMakesTheFolderItIsGiven() {
    QTemporaryDir dir;
    MainWindow w;
    const QString project = test::savedExample(dir, "spin-up-beam.flexarm.json", {"simulation.t_end=1"}, "beam.flexarm.json");
    QVERIFY(test::openShown(w, project));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), test::kSlowMs);
    const QString target = dir.filePath("new/nested/series");
    bool seen = false;
    QTimer::singleShot(0, [&] {
      auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      auto* folder = d ? d->findChild<QLineEdit*>("export.folder") : nullptr;
      if (!folder) return;
      seen = true;
      folder->setText(target);
      const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
      if (!shots.isEmpty()) d->grab().save(shots + "/export-folder.png");
      d->accept();
    });
    QAction* action = test::menuAction(w, "&File", "Para&View series...");
    QVERIFY(action);
    action->trigger();
    QVERIFY(seen);
    QCOMPARE(readPvd(target + "/arm.pvd").size(), std::size_t{21});  // 1 s at 20 Hz
  }

  void aLongExportShowsProgressAndCancels() {
    QTemporaryDir dir;
    MainWindow w;
    const QString project = test::copyOfExample(dir, "spin-up-beam.flexarm.json");  // 30 s at 20 Hz: 601 files
    QVERIFY(test::openShown(w, project));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), test::kSlowMs);
    // Once the progress dialog is up and has moved, take the screenshot and press Cancel.
    int seen = 0;
    QTimer poll;
    poll.setInterval(5);
    connect(&poll, &QTimer::timeout, this, [&] {
      for (QProgressDialog* d : w.findChildren<QProgressDialog*>())
        if (d->isVisible() && d->value() > 20 && !d->wasCanceled()) {
          seen = d->value();
          const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
          if (!shots.isEmpty()) d->grab().save(shots + "/paraview-progress.png");
          d->cancel();
        }
    });
    poll.start();
    bool cancelled = false;
    const std::string why = w.exportParaViewTo(dir.filePath("long"), &cancelled);
    poll.stop();
    QVERIFY2(why.empty(), why.c_str());
    QVERIFY(cancelled);
    QVERIFY(seen > 20);
    QVERIFY(!QFile::exists(dir.filePath("long/arm.pvd")));
    const int written = QDir(dir.filePath("long")).entryList({"*.vtp"}).size();
    QVERIFY2(written >= seen && written < 601, qPrintable(QString::number(written)));
  }

  void compareWindowWritesASeriesPerVariant() {
    QTemporaryDir dir;
    MainWindow w;
    const QString project = test::savedExample(dir, "spin-up-beam.flexarm.json", {"simulation.t_end=2"}, "beam.flexarm.json");
    QVERIFY(test::openShown(w, project));
    CompareWindow* c = w.compareZeroVsHigh();
    QVERIFY(c);
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), test::kSlowMs);
    const std::string why = c->exportParaViewTo(dir.filePath("cmp"));
    QVERIFY2(why.empty(), why.c_str());
    const QStringList variants = QDir(dir.filePath("cmp")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(variants.size(), 2);
    for (const QString& v : variants) QCOMPARE(readPvd(dir.filePath("cmp/" + v + "/arm.pvd")).size(), std::size_t{41});
    c->close();
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<ParaViewExportTest>(argc, argv); }

#include "test_paraview_export.moc"
