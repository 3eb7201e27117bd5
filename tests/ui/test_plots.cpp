// Plots show all the data (issue 20, item 5), under xvfb-run: after a run of the spin-up beam at 8 rad/s
// with zero-order coupling (it diverges near t = 6.5 s) the axes of the main window's plot, the compare
// window's plot and their exported files hold every point of every curve inside the frame, the legend
// sits beside the curves (never over them), and the divergence is marked by a dashed vertical line
// with its label, inside the plot, on screen and in the exports.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/compare/ComparePlot.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/view/PlotPanel.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {

// Every finite point of every curve strictly inside the axes' ranges; false with the first one outside.
bool everyPointInside(QCustomPlot* plot, QString* why) {
  int points = 0;
  for (int g = 0; g < plot->graphCount(); ++g)
    for (const QCPGraphData& d : *plot->graph(g)->data()) {
      if (!std::isfinite(d.value)) continue;
      ++points;
      const QCPRange x = plot->xAxis->range(), y = plot->yAxis->range();
      if (d.key < x.lower || d.key > x.upper || !(d.value > y.lower && d.value < y.upper)) {
        *why = QString("%1: (%2, %3) outside t %4..%5, y %6..%7")
                   .arg(plot->graph(g)->name())
                   .arg(d.key)
                   .arg(d.value)
                   .arg(x.lower)
                   .arg(x.upper)
                   .arg(y.lower)
                   .arg(y.upper);
        return false;
      }
    }
  if (points == 0) *why = "no points";
  return points > 0;
}

// The legend shown, and outside the rectangle where the curves are drawn.
bool legendBeside(QCustomPlot* plot) {
  plot->replot();
  return plot->legend->visible() && !plot->legend->outerRect().intersects(plot->axisRect()->rect());
}

// The marker's label (text containing `label`) and its dashed line inside the curves' rectangle, the
// label over no point of a curve; false when either is missing or outside.
bool markerShown(QCustomPlot* plot, const QString& label, double t) {
  plot->replot();
  const QRect area = plot->axisRect()->rect();
  bool text = false, line = false;
  for (int i = 0; i < plot->itemCount(); ++i) {
    if (auto* tx = qobject_cast<QCPItemText*>(plot->item(i)); tx && tx->text().contains(label)) {
      const QRectF box(tx->topLeft->pixelPosition(), tx->bottomRight->pixelPosition());
      text = area.contains(box.toAlignedRect()) && tx->color().alpha() == 255 && tx->font().pointSizeF() >= 7;
      for (int g = 0; g < plot->graphCount(); ++g)  // and it covers no curve
        for (const QCPGraphData& d : *plot->graph(g)->data())
          if (std::isfinite(d.value) && box.contains(plot->xAxis->coordToPixel(d.key), plot->yAxis->coordToPixel(d.value))) {
            qWarning("the label \"%s\" covers %s at t = %g", qPrintable(tx->text()), qPrintable(plot->graph(g)->name()), d.key);
            text = false;
          }
    }
    if (auto* l = qobject_cast<QCPItemStraightLine*>(plot->item(i)); l && std::abs(l->point1->coords().x() - t) < 1e-9) {
      const double px = l->point1->pixelPosition().x();
      line = l->pen().style() == Qt::DashLine && px > area.left() + 2 && px < area.right() - 2;
    }
  }
  return text && line;
}

QString fileText(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
}  // namespace

class PlotsTest : public QObject {
  Q_OBJECT
 private slots:
  // The main window: the zero-order run diverges; its curves, legend and marker, on screen and exported.
  void mainWindowShowsEveryPointAndTheDivergence() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(flexarm::test::spinUpAtEight(dir, "zero")));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 300000);
    const Results* r = w.results();
    QVERIFY(r);
    QCOMPARE(r->status, RunStatus::Diverged);
    QCustomPlot* plot = w.plots()->plot();
    QVERIFY(plot->graphCount() > 0);
    QString why;
    QVERIFY2(everyPointInside(plot, &why), qPrintable(why));
    QVERIFY(legendBeside(plot));
    QCOMPARE(w.plots()->markers().size(), std::size_t{1});
    QCOMPARE(w.plots()->markers()[0].t, r->end_time);
    const QString label = QString("diverged at t = %1 s").arg(r->end_time, 0, 'g', 4);
    QCOMPARE(w.plots()->markers()[0].label, label);
    QVERIFY(markerShown(plot, label, r->end_time));
    // The curves end where the run did: the last point is the state that diverged, at the marker.
    double last_key = -1.0;
    for (int g = 0; g < plot->graphCount(); ++g)
      if (!plot->graph(g)->data()->isEmpty()) last_key = std::max(last_key, (plot->graph(g)->data()->constEnd() - 1)->key);
    QCOMPARE(last_key, r->end_time);
    flexarm::test::saveScreenshot(w, "plots-main-diverged");

    // The exported plot and the report bundle's plots carry the marker.
    QCOMPARE(w.exportPlotTo(dir.filePath("plot.svg"), {900, 500, 96}), std::string());
    QVERIFY(fileText(dir.filePath("plot.svg")).contains(label));
    const BundleOutcome b = w.exportBundleTo(dir.filePath("bundle"));
    QCOMPARE(b.error, std::string());
    QVERIFY(fileText(dir.filePath("bundle/plots/tip.beam.v.svg")).contains(label));
  }

  // The compare window: the overlay of two channels and the difference, each with the marker.
  void compareWindowShowsEveryPointAndTheDivergence() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(flexarm::test::spinUpAtEight(dir, "high")));
    CompareWindow* c = w.compareZeroVsHigh();
    QVERIFY(c);
    QVERIFY(QTest::qWaitForWindowExposed(c));
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), 300000);
    const Results* zero = c->variantResults(0);
    QVERIFY(zero);
    QCOMPARE(zero->status, RunStatus::Diverged);
    const QString label = QString("coupling=zero diverged at t = %1 s").arg(zero->end_time, 0, 'g', 4);
    ComparePlot* cp = c->plot();
    QCustomPlot* plot = cp->plot();
    for (const std::vector<std::string>& channels :
         {std::vector<std::string>{"tip.beam.v"}, std::vector<std::string>{"tip.beam.v", "q.hub"}}) {
      cp->setCheckedChannels(channels);
      for (bool difference : {false, true}) {
        cp->setDifference(difference);
        QString why;
        QVERIFY2(everyPointInside(plot, &why), qPrintable(why));
        QVERIFY(legendBeside(plot));
        QVERIFY2(markerShown(plot, label, zero->end_time), qPrintable(label));
      }
    }
    cp->setDifference(false);
    cp->setCheckedChannels({"tip.beam.v"});
    QCOMPARE(c->exportPlotFile(dir.filePath("compare.svg"), {900, 500, 96}), std::string());
    QVERIFY(fileText(dir.filePath("compare.svg")).contains(label));
    const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      QTest::qWait(300);
      grabWithViews(c, {c->view(0), c->view(1)}).save(shots + "/plots-compare-diverged.png");
    }
    c->close();
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<PlotsTest>(argc, argv); }
#include "test_plots.moc"
