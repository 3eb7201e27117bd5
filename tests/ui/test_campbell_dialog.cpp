// Analysis > Campbell diagram as a user drives it (Qt Test, under xvfb-run): on the spin-up beam, the
// sweep runs on a worker thread (the progress moves while the window answers, and Cancel stops it),
// every plotted curve is the core's Campbell result for its coupling order (computed here again), the
// zero-order in-plane mode is marked unstable from its first bending frequency, 2.911 rad/s, the high
// order never; the plot overlays or sits side by side and exports as PNG and SVG; wrong input is
// refused with a message. Writes campbell.png for the user guide with FLEXARM_SCREENSHOT_DIR set.
#include <qcustomplot.h>

#include <QAction>
#include <QFileInfo>
#include <QImage>
#include <QMenuBar>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "analysis/Campbell.hpp"
#include "io/ProjectFile.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/analysis/CampbellDialog.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {

std::vector<double> sweep(double from, double to, double step) {
  std::vector<double> s;
  for (int k = 0; from + k * step <= to * (1 + 1e-12); ++k) s.push_back(from + k * step);
  return s;
}

}  // namespace

class CampbellTest : public QObject {
  Q_OBJECT
 private slots:
  void spinUpBeamCurvesAndInstability() {
    QTemporaryDir dir;
    MainWindow w;
    const QString path = test::copyOfExample(dir, "spin-up-beam.flexarm.json");
    QVERIFY(test::openShown(w, path));
    QAction* open = test::menuAction(w, "&Analysis", "&Campbell diagram...");
    QVERIFY(open);
    open->trigger();
    auto* d = w.findChild<CampbellDialog*>();
    QVERIFY(d);
    QTRY_VERIFY(d->isVisible());

    // Refusals, with the reason in the status line.
    d->setOrders({});
    QVERIFY(!d->compute());
    QVERIFY(d->statusText().contains("at least one coupling order"));
    d->setOrders({CouplingOrder::Zero, CouplingOrder::High});
    d->setSweep(4, 2, 0.25);
    QVERIFY(!d->compute());
    QVERIFY(d->statusText().contains("must not be below"));
    QVERIFY(!d->exportPlotTo(dir.filePath("early.png"), ExportSize{}).empty());  // nothing computed yet

    // A long sweep on the worker thread: the progress bar moves while this (the GUI) thread runs its
    // event loop, and Cancel stops it.
    d->setSweep(0, 12, 0.01);
    QVERIFY(d->compute());
    auto* bar = d->findChild<QProgressBar*>();
    QVERIFY(bar);
    QTRY_VERIFY_WITH_TIMEOUT(bar->value() >= 3, test::kSlowMs);
    QVERIFY(d->isComputing());
    d->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!d->isComputing(), 10000);
    QVERIFY2(d->statusText().startsWith("Cancelled"), qPrintable(d->statusText()));
    QVERIFY(d->sets().empty());

    // The diagram: 0 to 6 rad/s, three modes, zero and high order side by side.
    d->setSweep(0, 6, 0.25);
    d->setModeCount(3);
    QVERIFY(d->compute());
    QTRY_VERIFY_WITH_TIMEOUT(!d->isComputing(), test::kSlowMs);
    QCOMPARE(d->sets().size(), std::size_t{2});
    const std::vector<double> spins = sweep(0, 6, 0.25);
    const Project project = *loadProjectFile(path.toStdString()).project;
    QCustomPlot* plot = d->plot();
    QCOMPARE(plot->axisRects().size(), 2);  // side by side
    int curves = 0;
    for (CouplingOrder order : {CouplingOrder::Zero, CouplingOrder::High}) {
      Project p = project;
      p.coupling = order;
      const Result<CampbellResult> core = campbellDiagram(p, spins, 3);
      QVERIFY(core);
      for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph* graph = plot->graph(g);
        if (graph->property("coupling").toString() != couplingName(order) || graph->property("unstable").toBool()) continue;
        const CampbellCurve& curve = core.value().curves.at(static_cast<std::size_t>(graph->property("curve").toInt()));
        QCOMPARE(graph->data()->size(), static_cast<int>(spins.size()));
        for (int k = 0; k < graph->data()->size(); ++k) {
          QCOMPARE(graph->data()->at(k)->key, curve.points[static_cast<std::size_t>(k)].spin);
          QCOMPARE(graph->data()->at(k)->value, curve.points[static_cast<std::size_t>(k)].frequency_hz);
        }
        ++curves;
      }
    }
    QCOMPARE(curves, 6);
    // One instability: the zero-order first (in-plane bending) curve, from the first bending frequency
    // of the beam at rest, 0.4633 Hz = 2.911 rad/s, though the sweep steps by 0.25 rad/s.
    QCOMPARE(d->marks().size(), std::size_t{1});
    const CampbellMark mark = d->marks().front();  // a copy: a redraw replaces the marks
    QCOMPARE(mark.order, CouplingOrder::Zero);
    QCOMPARE(mark.curve, std::size_t{0});
    QVERIFY2(std::abs(mark.onset.spin - 2.911) < 0.003, qPrintable(QString::number(mark.onset.spin, 'g', 8)));
    QCOMPARE(mark.onset.index, 12);  // the first unstable rate of the sweep: 3 rad/s
    QVERIFY2(mark.label.contains("zero-order: curve 1 unstable from 2.91"), qPrintable(mark.label));
    // The mark is drawn: a dashed line at the onset; the unstable points are their own graph.
    int lines = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
      if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) {
        QCOMPARE(line->point1->coords().x(), mark.onset.spin);
        ++lines;
      }
    QCOMPARE(lines, 1);
    int unstable_points = 0;
    for (int g = 0; g < plot->graphCount(); ++g)
      if (plot->graph(g)->property("unstable").toBool()) {
        QCOMPARE(plot->graph(g)->property("coupling").toString(), QString("zero"));
        unstable_points += plot->graph(g)->data()->size();
      }
    QVERIFY(unstable_points >= 13);  // 3 to 6 rad/s of curve 1
    QVERIFY(d->statusText().contains("zero-order: curve 1 unstable from"));
    const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
    if (!shots.isEmpty()) d->grab().save(shots + "/campbell.png");

    // Exported like every plot.
    QVERIFY(d->exportPlotTo(dir.filePath("campbell.png"), ExportSize{1000, 500, 100}).empty());
    QCOMPARE(QImage(dir.filePath("campbell.png")).size(), QSize(1000, 500));
    QVERIFY(d->exportPlotTo(dir.filePath("campbell.svg"), ExportSize{}).empty());
    QVERIFY(QFileInfo(dir.filePath("campbell.svg")).size() > 1000);

    // Overlaid: one frame, the same curves and the same mark.
    d->setPlotLayout(CampbellLayout::Overlaid);
    QCOMPARE(d->plot()->axisRects().size(), 1);
    QCOMPARE(d->plot()->graphCount(), 7);  // 2 x 3 curves and the unstable points
    QCOMPARE(d->marks().size(), std::size_t{1});
    QCOMPARE(d->marks().front().onset.spin, mark.onset.spin);
    d->close();
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<CampbellTest>(argc, argv); }

#include "test_campbell_dialog.moc"
