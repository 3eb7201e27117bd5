#include "ui/plots/CampbellPlot.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "base/NumberFormat.hpp"
#include "ui/plots/PlotFigure.hpp"

namespace flexarm {
namespace {

Qt::PenStyle orderStyle(CouplingOrder order) {
  switch (order) {
    case CouplingOrder::Zero: return Qt::DashLine;
    case CouplingOrder::Geometric: return Qt::DashDotLine;
    case CouplingOrder::High: return Qt::SolidLine;
  }
  return Qt::SolidLine;
}

QString orderTitle(CouplingOrder order) { return QString("%1-order coupling").arg(couplingName(order)); }

}  // namespace

std::vector<CampbellMark> drawCampbell(QCustomPlot* plot, const std::vector<CampbellSet>& sets, CampbellLayout layout,
                                       const QString& title) {
  std::vector<CampbellMark> marks;
  const bool overlaid = layout == CampbellLayout::Overlaid || sets.size() <= 1;
  const int rects = overlaid ? 1 : static_cast<int>(sets.size());
  // The layout: the heading above a grid of [coupling titles (side by side)] over [frames | legend].
  QCPLayoutGrid* main = plot->plotLayout();
  QCPAxisRect* first = plot->axisRect();
  main->take(first);
  main->simplify();
  auto* body = new QCPLayoutGrid;
  main->addElement(0, 0, body);
  const int frame_row = overlaid ? 0 : 1;
  body->addElement(frame_row, 0, first);
  std::vector<QCPAxisRect*> axes{first};
  for (int k = 1; k < rects; ++k) {
    auto* r = new QCPAxisRect(plot);
    body->addElement(frame_row, k, r);
    axes.push_back(r);
  }
  // One margin group: the side-by-side frames line up.
  auto* group = new QCPMarginGroup(plot);
  double spin0 = 0.0, spin1 = 1.0, top = 0.0;
  bool any = false;
  for (const CampbellSet& set : sets)
    for (const CampbellCurve& c : set.result.curves)
      for (const CampbellPoint& p : c.points) {
        spin0 = any ? std::min(spin0, p.spin) : p.spin;
        spin1 = any ? std::max(spin1, p.spin) : p.spin;
        top = std::max(top, p.frequency_hz);
        any = true;
      }
  if (!(spin1 > spin0)) spin1 = spin0 + 1.0;
  if (!(top > 0.0)) top = 1.0;
  for (int k = 0; k < rects; ++k) {
    QCPAxisRect* r = axes[static_cast<std::size_t>(k)];
    r->setMarginGroup(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom, group);
    r->axis(QCPAxis::atBottom)->setLabel("spin rate of joint 1 [rad/s]");
    r->axis(QCPAxis::atLeft)->setLabel("frequency [Hz]");
    r->axis(QCPAxis::atBottom)->setRange(spin0, spin1);
    // Room above the curves for the labels of the instability marks.
    r->axis(QCPAxis::atLeft)->setRange(0.0, top * 1.25);
  }

  int slot = 0;
  for (std::size_t s = 0; s < sets.size(); ++s) {
    const CampbellSet& set = sets[s];
    QCPAxisRect* r = axes[overlaid ? 0 : s];
    QCPAxis *x = r->axis(QCPAxis::atBottom), *y = r->axis(QCPAxis::atLeft);
    const QString prefix = overlaid && sets.size() > 1 ? QString("%1: ").arg(couplingName(set.order)) : QString();
    QVector<double> bad_x, bad_y;
    if (!overlaid) slot = 0;
    for (std::size_t c = 0; c < set.result.curves.size(); ++c) {
      const CampbellCurve& curve = set.result.curves[c];
      QVector<double> xs, ys;
      for (const CampbellPoint& p : curve.points) {
        xs << p.spin;
        ys << p.frequency_hz;
        if (p.unstable) {
          bad_x << p.spin;
          bad_y << p.frequency_hz;
        }
      }
      QCPGraph* g = plot->addGraph(x, y);
      g->setProperty("coupling", couplingName(set.order));
      g->setProperty("curve", static_cast<int>(c));
      g->setProperty("unstable", false);
      // Named by where it starts, which tells the curves apart (the dominant coordinate often does not).
      const CampbellPoint& start = curve.points.front();
      g->setName(prefix + QString("%1: %2 Hz at %3 rad/s, %4")
                              .arg(c + 1)
                              .arg(QString::fromStdString(formatShort(start.frequency_hz, 4)))
                              .arg(QString::fromStdString(formatShort(start.spin, 4)))
                              .arg(QString::fromStdString(curve.dominant)));
      g->setPen(QPen(seriesColour(c), 1.5, overlaid ? orderStyle(set.order) : Qt::SolidLine));
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
      g->setData(xs, ys, true);
      // Side by side, the legend names each curve once (the first order's); the curves of the same
      // number have the same colour in every frame.
      if (!overlaid && s > 0) g->removeFromLegend();

      const CampbellOnset onset = instabilityOnset(curve);
      if (onset.index < 0) continue;
      CampbellMark mark{set.order, c, onset,
                        QString("%1-order: curve %2 unstable from %3 rad/s")
                            .arg(couplingName(set.order))
                            .arg(c + 1)
                            .arg(QString::fromStdString(formatShort(onset.spin, 4)))};
      auto* line = new QCPItemStraightLine(plot);
      line->setClipAxisRect(r);
      line->point1->setAxes(x, y);
      line->point2->setAxes(x, y);
      line->point1->setCoords(onset.spin, 0);
      line->point2->setCoords(onset.spin, 1);
      line->setPen(QPen(seriesColour(c), 1.5, Qt::DashLine));
      line->setProperty("onset", onset.spin);
      auto* text = new QCPItemText(plot);
      text->setClipAxisRect(r);
      text->position->setAxisRect(r);
      text->position->setAxes(x, y);
      text->position->setTypeX(QCPItemPosition::ptPlotCoords);
      text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
      text->position->setCoords(onset.spin, 0.02 + 0.06 * slot++);
      // Beside the line on the side with more room; side by side the frame's title names the order.
      text->setPositionAlignment((onset.spin < 0.5 * (spin0 + spin1) ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
      // On two lines, to fit narrow frames: "[zero-order: ]curve 1 unstable\nfrom 2.911 rad/s".
      QString shown = overlaid ? mark.label : mark.label.mid(mark.label.indexOf(": ") + 2);
      shown.replace(" unstable from ", " unstable\nfrom ");
      text->setText(shown);
      text->setColor(seriesColour(c));
      text->setPadding(QMargins(4, 1, 4, 1));
      marks.push_back(mark);
    }
    if (!bad_x.isEmpty()) {
      QCPGraph* g = plot->addGraph(x, y);
      g->setProperty("coupling", couplingName(set.order));
      g->setProperty("unstable", true);
      g->setName(prefix + "unstable");
      g->setLineStyle(QCPGraph::lsNone);
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(200, 0, 0), 2), Qt::NoBrush, 9));
      g->setData(bad_x, bad_y, true);
    }
  }
  placeLegendAt(plot, body, frame_row, rects);  // right of every frame
  plot->legend->setVisible(plot->graphCount() > 0);
  if (!overlaid) {
    for (int k = 0; k < rects; ++k)
      body->addElement(0, k,
                       new QCPTextElement(plot, orderTitle(sets[static_cast<std::size_t>(k)].order),
                                          QFont(plot->font().family(), 9, QFont::Bold)));
    body->setRowStretchFactor(0, 0.001);
  }
  main->insertRow(0);
  main->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold)));
  main->setRowStretchFactor(0, 0.001);
  return marks;
}

}  // namespace flexarm
