#include "ui/plots/PlotFigure.hpp"
#include "model/Names.hpp"

#include <qcustomplot.h>

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace flexarm {
namespace {
// The height of a marker's label row as a fraction of the curves' area (as laid out now; at least a
// twelfth of it).
double markerRow(QCustomPlot* plot) {
  const double rows = QFontMetrics(plot->font()).height() + 6;
  return std::clamp(rows / std::max(plot->axisRect()->height(), 60), 1.0 / 12, 0.25);
}
}  // namespace

QColor seriesColour(std::size_t i) {
  static const QColor colours[] = {QColor(31, 119, 180),  QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                                   QColor(148, 103, 189), QColor(140, 86, 75), QColor(23, 190, 207)};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

void useCNumbers(QCustomPlot* plot) {
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::OmitGroupSeparator);
  plot->setLocale(c);
}

std::vector<std::string> defaultPlotChannels(const std::vector<Channel>& channels) {
  std::vector<std::string> out;
  for (const Channel& c : channels) {
    const std::string& n = c.name;
    if (names::isTipDeflection(n) || n.rfind(names::kTorsionPrefix, 0) == 0) out.push_back(n);
  }
  if (out.empty())
    for (const Channel& c : channels)
      if (c.name.rfind(names::kJointPrefix, 0) == 0) out.push_back(c.name);
  return out;
}

QString unitsLabel(const std::vector<std::string>& units) {
  std::set<std::string> distinct(units.begin(), units.end());
  distinct.erase("");
  QString label;
  for (const std::string& u : distinct) label += (label.isEmpty() ? "" : ", ") + QString::fromStdString(u);
  return label.isEmpty() ? QString("value") : "value [" + label + "]";
}

std::vector<std::string> selectChannels(const Results& r, const std::vector<std::string>& names, std::string& error) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (name == "t") continue;
    if (r.channelIndex(name) >= 0) {
      out.push_back(name);
      continue;
    }
    const std::size_t before = out.size();
    for (const Channel& c : r.channels())
      if (c.name.size() > name.size() + 2 && c.name.compare(0, name.size() + 1, name + "[") == 0 && c.name.back() == ']' &&
          c.name.find(" - ", name.size()) == std::string::npos)
        out.push_back(c.name);
    if (out.size() == before) {
      error = "no channel \"" + name + "\" in the results";
      return {};
    }
  }
  if (out.empty()) error = "no channels to plot";
  return out;
}

std::optional<Figure> figureOf(const Results& r, const std::vector<std::string>& names, std::string& error) {
  const std::vector<std::string> columns = selectChannels(r, names, error);
  if (columns.empty()) return std::nullopt;
  const int t_col = r.channelIndex("t");
  if (t_col < 0) {
    error = "the results have no time channel \"t\"";
    return std::nullopt;
  }
  Figure f;
  f.title = QString::fromStdString(r.project_name);
  std::vector<std::string> units;
  const int rows = static_cast<int>(r.rows());
  for (const std::string& name : columns) {
    const std::size_t c = static_cast<std::size_t>(r.channelIndex(name));
    const std::string& unit = r.channels()[c].unit;
    units.push_back(unit);
    PlotSeries s;
    s.name = QString::fromStdString(name + (unit.empty() ? "" : " [" + unit + "]"));
    s.t.resize(rows);
    s.v.resize(rows);
    for (int k = 0; k < rows; ++k) {
      s.t[k] = r.value(static_cast<std::size_t>(k), static_cast<std::size_t>(t_col));
      s.v[k] = r.value(static_cast<std::size_t>(k), c);
    }
    f.series.push_back(std::move(s));
  }
  f.y_label = unitsLabel(units);
  return f;
}

std::vector<PlotMarker> earlyEndMarkers(const std::vector<NamedRun>& runs, bool difference) {
  std::vector<PlotMarker> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Results& r = *runs[k].results;
    if (r.status != RunStatus::Diverged && r.status != RunStatus::Failed) continue;
    const QString what =
        QString("%1 at t = %2 s").arg(r.status == RunStatus::Diverged ? "diverged" : "failed").arg(r.end_time, 0, 'g', 4);
    out.push_back({r.end_time, runs[k].name.empty() ? what : QString::fromStdString(runs[k].name) + " " + what,
                   difference ? (k == 0 ? 0 : k - 1) : k});
  }
  return out;
}

void markEarlyEnds(Figure& figure, const std::vector<NamedRun>& runs, bool difference) {
  for (PlotMarker& m : earlyEndMarkers(runs, difference)) figure.markers.push_back(std::move(m));
}

void placeLegendBeside(QCustomPlot* plot) {
  QCPLayoutGrid* grid = plot->plotLayout();
  if (plot->legend->layout() != plot->axisRect()->insetLayout()) return;  // already beside
  int row = 0, column = 0;
  for (int i = 0; i < grid->elementCount(); ++i)
    if (grid->elementAt(i) == plot->axisRect()) grid->indexToRowCol(i, row, column);
  placeLegendAt(plot, grid, row, column + 1);
}

void placeLegendAt(QCustomPlot* plot, QCPLayoutGrid* grid, int row, int column) {
  if (plot->legend->layout() == plot->axisRect()->insetLayout()) plot->axisRect()->insetLayout()->take(plot->legend);
  // The legend at the top of its column; an empty element below takes the rest of the height.
  auto* side = new QCPLayoutGrid;
  grid->addElement(row, column, side);
  grid->setColumnStretchFactor(column, 0.001);
  side->addElement(0, 0, plot->legend);
  side->addElement(1, 0, new QCPLayoutElement(plot));
  side->setRowStretchFactor(0, 0.001);
  plot->legend->setMargins(QMargins(0, 0, 0, 0));
  side->setMargins(QMargins(0, 10, 6, 10));
  side->setAutoMargins(QCP::msNone);
}

void fitAxes(QCustomPlot* plot, const std::vector<PlotMarker>& markers) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double t0 = inf, t1 = -inf, v0 = inf, v1 = -inf;
  for (int g = 0; g < plot->graphCount(); ++g)
    for (const QCPGraphData& d : *plot->graph(g)->data()) {
      t0 = std::min(t0, d.key);
      t1 = std::max(t1, d.key);
      if (std::isfinite(d.value)) {
        v0 = std::min(v0, d.value);
        v1 = std::max(v1, d.value);
      }
    }
  if (t0 > t1) return;  // no points
  const double span = std::max(t1 - t0, 1e-9);
  for (const PlotMarker& m : markers) {
    t0 = std::min(t0, m.t);
    t1 = std::max(t1, m.t + 0.02 * span);
  }
  plot->xAxis->setRange(t0, std::max(t1, t0 + 1e-9));
  if (v0 > v1) return;  // only gaps
  const double margin = v1 > v0 ? 0.05 * (v1 - v0) : std::max(0.1 * std::abs(v0), 1e-9);
  // The markers' labels get a band of their own above the curves (a row each).
  const double band = std::min(0.5, markerRow(plot) * static_cast<double>(markers.size()));
  const double lower = v0 - margin, curves = v1 + margin - lower;
  plot->yAxis->setRange(lower, lower + curves / (1.0 - band));
}

void drawMarker(QCustomPlot* plot, const PlotMarker& m, int slot) {
  auto* line = new QCPItemStraightLine(plot);
  line->point1->setCoords(m.t, 0);
  line->point2->setCoords(m.t, 1);
  line->setPen(QPen(seriesColour(m.series), 1.5, Qt::DashLine));
  auto* text = new QCPItemText(plot);
  text->position->setTypeX(QCPItemPosition::ptPlotCoords);
  text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  text->position->setCoords(m.t, 0.01 + markerRow(plot) * slot);
  // Beside the line on the side with more room (the axes are fitted first).
  const QCPRange x = plot->xAxis->range();
  text->setPositionAlignment((m.t < x.lower + 0.3 * x.size() ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
  text->setText(m.label);
  text->setColor(seriesColour(m.series));
  text->setPadding(QMargins(3, 1, 5, 1));
}

void drawFigure(QCustomPlot* plot, const Figure& figure) {
  plot->clearGraphs();
  plot->clearItems();
  placeLegendBeside(plot);
  plot->xAxis->setLabel("t [s]");
  plot->yAxis->setLabel(figure.y_label);
  plot->legend->setVisible(!figure.series.empty());
  for (std::size_t i = 0; i < figure.series.size(); ++i) {
    QCPGraph* g = plot->addGraph();
    g->setName(figure.series[i].name);
    g->setPen(QPen(seriesColour(i), 1.5));
    g->setData(figure.series[i].t, figure.series[i].v, true);
  }
  fitAxes(plot, figure.markers);
  for (std::size_t k = 0; k < figure.markers.size(); ++k) drawMarker(plot, figure.markers[k], static_cast<int>(k));
  // The title row is kept on the plot only when there is a title, so live plots stay compact.
  QCPTextElement* title = nullptr;
  for (int e = 0; e < plot->plotLayout()->elementCount(); ++e)
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(e))) title = t;
  if (!figure.title.isEmpty()) {
    if (!title) {
      plot->plotLayout()->insertRow(0);
      title = new QCPTextElement(plot, figure.title, QFont(plot->font().family(), 10, QFont::Bold));
      plot->plotLayout()->addElement(0, 0, title);
    }
    title->setText(figure.title);
  }
}

}  // namespace flexarm
