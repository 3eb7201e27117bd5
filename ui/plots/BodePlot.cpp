#include "ui/plots/BodePlot.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "ui/plots/PlotFigure.hpp"

namespace flexarm {

namespace {

const char* const kPanelProperty = "flexarm.bode";

// The gain's unit, "m/(N m)"; "rad/(N m)"; "-" when both are the same.
QString gainUnit(const FrequencyResponse& r) {
  if (r.output_unit == r.input_unit) return "-";
  const QString in = QString::fromStdString(r.input_unit);
  return QString::fromStdString(r.output_unit) + "/" + (in.contains(' ') ? "(" + in + ")" : in);
}

void fitY(QCPAxis* axis, const QVector<double>& v, double min_span) {
  double lo = 1e300, hi = -1e300;
  for (double x : v)
    if (std::isfinite(x)) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  if (lo > hi) return;
  const double pad = std::max(0.05 * (hi - lo), 0.5 * min_span);
  axis->setRange(lo - pad, hi + pad);
}

}  // namespace

QCPAxisRect* bodePanel(QCustomPlot* plot, int panel) {
  for (QCPAxisRect* rect : plot->axisRects())
    if (rect->property(kPanelProperty).isValid() && rect->property(kPanelProperty).toInt() == panel) return rect;
  return nullptr;
}

QCPGraph* bodeCurve(QCustomPlot* plot, int panel) {
  QCPAxisRect* rect = bodePanel(plot, panel);
  if (!rect) return nullptr;
  const QList<QCPGraph*> graphs = rect->graphs();
  return graphs.isEmpty() ? nullptr : graphs.front();
}

void drawBode(QCustomPlot* plot, const FrequencyResponse& r, const QString& title, const std::vector<double>& modes_hz) {
  plot->clearItems();
  plot->clearGraphs();
  plot->plotLayout()->clear();  // the default axis rect too: the layout is built afresh
  plot->plotLayout()->simplify();
  int row = 0;
  if (!title.isEmpty()) {
    plot->plotLayout()->insertRow(row);
    plot->plotLayout()->addElement(row++, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold)));
  }
  auto* group = new QCPMarginGroup(plot);
  QCPAxisRect* panels[2];
  for (int p = 0; p < 2; ++p) {
    panels[p] = new QCPAxisRect(plot);
    panels[p]->setProperty(kPanelProperty, p);
    panels[p]->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    plot->plotLayout()->addElement(row++, 0, panels[p]);
    QCPAxis* x = panels[p]->axis(QCPAxis::atBottom);
    x->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
    ticker->setSubTickCount(8);
    x->setTicker(ticker);
    x->setNumberFormat("gb");
    x->setNumberPrecision(3);
    x->grid()->setSubGridVisible(true);
    x->setLabel(p == 1 ? "frequency [Hz]" : "");
  }
  panels[0]->axis(QCPAxis::atLeft)->setLabel("|G| [dB re 1 " + gainUnit(r) + "]");
  panels[1]->axis(QCPAxis::atLeft)->setLabel("phase [deg]");
  auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
  ticker->setTickStep(90.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  panels[1]->axis(QCPAxis::atLeft)->setTicker(ticker);

  QVector<double> f(r.frequency_hz.begin(), r.frequency_hz.end());
  QVector<double> mag(r.magnitude_db.begin(), r.magnitude_db.end()), phase(r.phase_deg.begin(), r.phase_deg.end());
  for (double& m : mag)
    if (!std::isfinite(m)) m = qQNaN();  // a zero of the response: a gap
  const QString name = QString::fromStdString(r.input + " -> " + r.output);
  for (int p = 0; p < 2; ++p) {
    QCPGraph* g = plot->addGraph(panels[p]->axis(QCPAxis::atBottom), panels[p]->axis(QCPAxis::atLeft));
    g->setName(name);
    g->setPen(QPen(seriesColour(0), 1.6));
    g->setData(f, p == 0 ? mag : phase, true);
    if (!f.isEmpty()) panels[p]->axis(QCPAxis::atBottom)->setRange(f.front(), f.back());
  }
  // The model's resolution floor (FrequencyResponse::floor_db): below it a gain is numerical noise.
  if (!r.floor_db.empty()) {
    QVector<double> floor(r.floor_db.begin(), r.floor_db.end());
    for (double& m : floor)
      if (!std::isfinite(m)) m = qQNaN();
    QCPGraph* g = plot->addGraph(panels[0]->axis(QCPAxis::atBottom), panels[0]->axis(QCPAxis::atLeft));
    g->setName("resolution floor (below it: numerical noise)");
    g->setPen(QPen(QColor(140, 140, 140), 1.0, Qt::DashLine));
    g->setData(f, floor, true);
  }
  fitY(panels[0]->axis(QCPAxis::atLeft), mag, 10.0);
  fitY(panels[1]->axis(QCPAxis::atLeft), phase, 90.0);
  QObject::connect(panels[0]->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
                   panels[1]->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
  QObject::connect(panels[1]->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
                   panels[0]->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
  // The natural frequencies inside the range, dotted, in both panels.
  for (double fm : modes_hz) {
    if (f.isEmpty() || fm < f.front() || fm > f.back()) continue;
    for (QCPAxisRect* rect : panels) {
      auto* line = new QCPItemStraightLine(plot);
      line->setClipAxisRect(rect);
      for (QCPItemPosition* pos : {line->point1, line->point2}) {
        pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        pos->setAxisRect(rect);
      }
      line->point1->setCoords(fm, 0.0);
      line->point2->setCoords(fm, 1.0);
      line->setPen(QPen(QColor(120, 120, 120), 1.0, Qt::DotLine));
    }
  }
  plot->replot();
}

}  // namespace flexarm
