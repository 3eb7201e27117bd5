#include "ui/plots/PlotFigure.hpp"
#include "model/Names.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <limits>
#include <set>

namespace flexarm {

QColor seriesColour(std::size_t i) {
  static const QColor colours[] = {QColor(31, 119, 180),  QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                                   QColor(148, 103, 189), QColor(140, 86, 75), QColor(23, 190, 207)};
  return colours[i % (sizeof colours / sizeof colours[0])];
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

void markEarlyEnds(Figure& figure, const std::vector<NamedRun>& runs, bool difference) {
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const Results& r = *runs[k].results;
    if (r.status != RunStatus::Diverged && r.status != RunStatus::Failed) continue;
    figure.markers.push_back(
        {r.end_time,
         QString("%1 %2 at t = %3 s")
             .arg(QString::fromStdString(runs[k].name), r.status == RunStatus::Diverged ? "diverged" : "failed")
             .arg(r.end_time, 0, 'g', 4),
         difference ? (k == 0 ? 0 : k - 1) : k});
  }
}

void drawFigure(QCustomPlot* plot, const Figure& figure) {
  plot->clearGraphs();
  plot->clearItems();
  plot->xAxis->setLabel("t [s]");
  plot->yAxis->setLabel(figure.y_label);
  plot->legend->setVisible(!figure.series.empty());
  double t0 = std::numeric_limits<double>::infinity(), t1 = -t0;
  for (std::size_t i = 0; i < figure.series.size(); ++i) {
    QCPGraph* g = plot->addGraph();
    g->setName(figure.series[i].name);
    g->setPen(QPen(seriesColour(i), 1.5));
    g->setData(figure.series[i].t, figure.series[i].v, true);
    for (double t : figure.series[i].t) {
      t0 = std::min(t0, t);
      t1 = std::max(t1, t);
    }
  }
  if (!figure.series.empty()) {
    plot->rescaleAxes();
    if (t1 > t0) plot->xAxis->setRange(t0, t1);
  }
  for (const PlotMarker& m : figure.markers) {
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(m.t, 0);
    line->point2->setCoords(m.t, 1);
    line->setPen(QPen(seriesColour(m.series), 1, Qt::DashLine));
    auto* text = new QCPItemText(plot);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(m.t, 0.04 + 0.06 * static_cast<double>(&m - figure.markers.data()));
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    text->setText(m.label + " ");
    text->setColor(seriesColour(m.series));
  }
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
