// Plot tick labels under a German locale (issue 45, F18), under xvfb-run. QCustomPlot writes its tick
// labels in its widget's locale, which follows QLocale::setDefault: under de_DE they read "0,5". Every
// plot of the workbench (the live plot, compare mode, the drive-law preview, the Campbell diagram, the
// frequency response) and the figures that `flexarm-cli plot` and the exports write use '.', as the
// program writes every other number.
#include <QFile>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "io/ProjectFile.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/analysis/CampbellDialog.hpp"
#include "ui/compare/ComparePlot.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/plots/PlotExport.hpp"
#include "ui/view/PlotPanel.hpp"
#include "ui/workbench/FrequencyResponseDialog.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {

// Results of t in [0, 1.2] s: fractional ticks on both axes.
Results sineResults() {
  Results r;
  r.setChannels({{"t", "s"}, {"q.shoulder", "rad"}, {"tip.beam.v", "m"}});
  for (int k = 0; k <= 120; ++k) {
    const double t = 0.01 * k;
    const double row[3] = {t, 0.6 * std::sin(4 * t), 0.002 * std::cos(3 * t)};
    r.appendRow(row);
  }
  r.status = RunStatus::Completed;
  r.end_time = 1.2;
  return r;
}

// Every tick label of every visible axis, drawn as the plot is now (or over `range` when given).
QStringList tickLabels(QCustomPlot* plot, const QCPRange* range = nullptr) {
  if (range)
    for (QCPAxisRect* rect : plot->axisRects())
      for (QCPAxis* axis : rect->axes()) axis->setRange(*range);
  plot->replot();
  QStringList labels;
  for (QCPAxisRect* rect : plot->axisRects())
    for (QCPAxis* axis : rect->axes())
      if (axis->visible() && axis->tickLabels())
        for (const QString& label : axis->tickVectorLabels()) labels << label;
  return labels;
}

// The labels have decimal points and no decimal comma; false with the labels.
bool pointsNotCommas(const QStringList& labels, QString* why) {
  *why = labels.join(" | ");
  const bool comma = std::any_of(labels.begin(), labels.end(), [](const QString& l) { return l.contains(','); });
  const bool point = std::any_of(labels.begin(), labels.end(), [](const QString& l) { return l.contains('.'); });
  return point && !comma;
}

#define VERIFY_POINTS(labels)                      \
  do {                                             \
    QString why;                                   \
    const bool ok = pointsNotCommas(labels, &why); \
    QVERIFY2(ok, qPrintable(why));                 \
  } while (0)

const QCPRange kFractional(0.2, 1.4);  // positive: a logarithmic axis takes it too

QString project(const char* name) { return QDir(QString(FLEXARM_PROJECTS_DIR)).absoluteFilePath(name); }

}  // namespace

class PlotNumbersTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(QLocale().decimalPoint(), QString(","));
  }

  // The test sees the fault: a plot left in the default locale writes decimal commas.
  void aPlotInTheDefaultLocaleWritesCommas() {
    QCustomPlot plain;
    const QStringList labels = tickLabels(&plain, &kFractional);
    QVERIFY2(std::any_of(labels.begin(), labels.end(), [](const QString& l) { return l.contains(','); }),
             qPrintable(labels.join(" | ")));
  }

  void livePlotAndComparePlotWritePoints() {
    const Results r = sineResults();
    PlotPanel panel;
    panel.resize(800, 500);
    panel.setChannels(r.channels(), {"q.shoulder", "tip.beam.v"});
    std::vector<double> rows;
    for (std::size_t i = 0; i < r.rows(); ++i)
      for (std::size_t c = 0; c < r.channels().size(); ++c) rows.push_back(r.value(i, c));
    panel.appendRows(rows, r.rows());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    VERIFY_POINTS(tickLabels(panel.plot()));

    ComparePlot compare;
    compare.resize(800, 500);
    Results b = r;
    compare.setRuns({{"A", &r}, {"B", &b}});
    compare.show();
    QVERIFY(QTest::qWaitForWindowExposed(&compare));
    VERIFY_POINTS(tickLabels(compare.plot()));
  }

  void workbenchPlotsAndTheLawPreviewWritePoints() {
    MainWindow w;
    QVERIFY(test::openShown(w, project("spin-up-beam.flexarm.json")));
    w.modelTree()->select({ModelItem::Kind::Joint, 0});  // the preview of its spin-up law
    QVERIFY(w.propertyEditor()->previewPoints() > 0);
    const QList<QCustomPlot*> plots = w.findChildren<QCustomPlot*>();
    QVERIFY(plots.size() >= 2);  // the live plot and the preview
    for (QCustomPlot* plot : plots) VERIFY_POINTS(tickLabels(plot, &kFractional));
  }

  void campbellAndFrequencyResponseWritePoints() {
    const LoadedProject beam = loadProjectFile(project("spin-up-beam.flexarm.json").toStdString());
    QVERIFY(beam.project);
    CampbellDialog campbell([&beam] { return &*beam.project; });
    VERIFY_POINTS(tickLabels(campbell.plot(), &kFractional));
    FrequencyResponseDialog response(*beam.project, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(!response.isComputing(), test::kSlowMs);  // its Bode plot drawn
    VERIFY_POINTS(tickLabels(response.plot(), &kFractional));
  }

  // The figure `flexarm-cli plot` and File > Export > Plot write: its SVG's tick labels.
  void exportedFigureWritesPoints() {
    QTemporaryDir dir;
    std::string error;
    const std::optional<Figure> figure = figureOf(sineResults(), {"q.shoulder"}, error);
    QVERIFY2(figure, error.c_str());
    const QString svg = dir.filePath("plot.svg");
    QCOMPARE(exportFigure(*figure, svg, ExportSize{}), std::string());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    const QRegularExpression number(">\\s*(-?[0-9]+[.,][0-9]+)\\s*<");
    QStringList labels;
    for (auto m = number.globalMatch(text); m.hasNext();) labels << m.next().captured(1);
    VERIFY_POINTS(labels);
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<PlotNumbersTest>(argc, argv); }
#include "test_plot_numbers.moc"
