#include "ui/view/PlotPanel.hpp"

#include "ui/plots/PlotFigure.hpp"
#include "model/Names.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace flexarm {

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  useCNumbers(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  plot_->xAxis->setLabel("t [s]");
  plot_->legend->setVisible(false);  // shown with the first curve
  plot_->legend->setFont(QFont(font().family(), 8));
  placeLegendBeside(plot_);
  plot_->setMinimumSize(320, 200);
  // Lines as segments rather than one stroked path: QPainter strokes a wide (1.5 px) antialiased path
  // point by point, and during a run its replot grew to 20 ms at 2 600 points per curve and held the
  // event loop; segments take a quarter of that. Vector exports (PDF, SVG) are unaffected.
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  // The time cursor lives on its own buffered layer: moving it (timeline playback) redraws that
  // layer only, not the curves.
  plot_->addLayer("cursor", plot_->layer("main"), QCustomPlot::limAbove);
  plot_->layer("cursor")->setMode(QCPLayer::lmBuffered);
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setLayer("cursor");
  cursor_->setPen(QPen(QColor(200, 30, 30), 1, Qt::DashLine));
  cursor_->point1->setCoords(0, 0);
  cursor_->point2->setCoords(0, 1);
  list_ = new QListWidget(this);
  list_->setMaximumWidth(200);
  list_->setToolTip("Tick the channels to plot");
  readout_ = new QLabel(this);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // However many channels are read off, the read-out is one line cut to the width it has (the whole in
  // its tooltip): its text never widens the panel, nor the window past the screen.
  readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  auto* right = new QVBoxLayout;
  right->addWidget(plot_, 1);
  right->addWidget(readout_);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(list_);
  layout->addLayout(right, 1);
  connect(list_, &QListWidget::itemChanged, this, [this] { rebuildGraphs(); });
  connect(plot_, &QCustomPlot::mouseMove, this,
          [this](QMouseEvent* e) { showReadout(plot_->xAxis->pixelToCoord(e->position().x())); });
}

void PlotPanel::clear() {
  data_.clear();
  rows_ = 0;
  for (int g = 0; g < plot_->graphCount(); ++g) plot_->graph(g)->data()->clear();
  resetView();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Nothing of the rows before: no read-out, the cursor at t = 0, the axes at their initial ranges.
void PlotPanel::resetView() {
  setMarkers({});
  setReadout({});
  cursor_->point1->setCoords(0, 0);
  cursor_->point2->setCoords(0, 1);
  plot_->xAxis->setRange(0, 1);
  plot_->yAxis->setRange(0, 1);
}

void PlotPanel::setChannels(const std::vector<Channel>& channels, const std::vector<std::string>& selected) {
  channels_ = channels;
  data_.clear();
  rows_ = 0;
  resetView();
  const std::set<std::string> chosen(selected.begin(), selected.end());
  QSignalBlocker block(list_);
  list_->clear();
  for (const Channel& c : channels_) {
    if (c.name == "t" || names::isElasticChannel(c.name)) continue;
    auto* item = new QListWidgetItem(QString::fromStdString(c.name + " [" + c.unit + "]"), list_);
    item->setData(Qt::UserRole, QString::fromStdString(c.name));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(chosen.count(c.name) ? Qt::Checked : Qt::Unchecked);
  }
  rebuildGraphs();
}

void PlotPanel::rebuildGraphs() {
  plot_->clearGraphs();
  plotted_.clear();
  for (int i = 0; i < list_->count(); ++i) {
    QListWidgetItem* item = list_->item(i);
    if (item->checkState() != Qt::Checked) continue;
    const std::string name = item->data(Qt::UserRole).toString().toStdString();
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      if (channels_[c].name != name) continue;
      QCPGraph* g = plot_->addGraph();
      g->setName(item->text());
      g->setPen(QPen(seriesColour(plotted_.size()), 1.5));
      plotted_.push_back(static_cast<int>(c));
    }
  }
  plot_->legend->setVisible(!plotted_.empty());  // no empty legend box
  const std::size_t n = channels_.size();
  for (std::size_t g = 0; g < plotted_.size(); ++g) {
    QVector<double> t(static_cast<int>(rows_)), v(static_cast<int>(rows_));
    for (std::size_t r = 0; r < rows_; ++r) {
      t[static_cast<int>(r)] = data_[r * n];
      v[static_cast<int>(r)] = data_[r * n + static_cast<std::size_t>(plotted_[g])];
    }
    plot_->graph(static_cast<int>(g))->setData(t, v, true);
  }
  refreshAxes();
}

void PlotPanel::appendRows(const std::vector<double>& rows, std::size_t count) {
  const std::size_t n = channels_.size();
  if (n == 0 || count == 0) return;
  data_.insert(data_.end(), rows.begin(), rows.begin() + static_cast<long>(count * n));
  for (std::size_t g = 0; g < plotted_.size(); ++g) {
    QVector<double> t(static_cast<int>(count)), v(static_cast<int>(count));
    for (std::size_t r = 0; r < count; ++r) {
      t[static_cast<int>(r)] = rows[r * n];
      v[static_cast<int>(r)] = rows[r * n + static_cast<std::size_t>(plotted_[g])];
    }
    plot_->graph(static_cast<int>(g))->addData(t, v, true);  // only the new points
  }
  rows_ += count;
  refreshAxes();
}

void PlotPanel::setMarkers(const std::vector<PlotMarker>& markers) {
  for (int i = plot_->itemCount() - 1; i >= 0; --i)
    if (plot_->item(i) != cursor_) plot_->removeItem(i);
  markers_ = markers;
  for (std::size_t k = 0; k < markers_.size(); ++k) drawMarker(plot_, markers_[k], static_cast<int>(k));
  refreshAxes();
}

void PlotPanel::refreshAxes() {
  std::vector<std::string> units;
  for (int c : plotted_) units.push_back(channels_[static_cast<std::size_t>(c)].unit);
  plot_->yAxis->setLabel(units.empty() ? QString() : unitsLabel(units));
  if (rows_ > 0) fitAxes(plot_, markers_);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::setTimeCursor(double t) {
  cursor_->point1->setCoords(t, 0);
  cursor_->point2->setCoords(t, 1);
  showReadout(t);
  cursor_->layer()->replot();
}

void PlotPanel::showReadout(double t) {
  if (rows_ == 0 || plotted_.empty()) {
    setReadout({});
    return;
  }
  const std::size_t n = channels_.size();
  std::size_t r = 0;
  while (r + 1 < rows_ && data_[(r + 1) * n] <= t) ++r;
  QString text = QString("t = %1 s").arg(data_[r * n], 0, 'g', 6);
  for (int c : plotted_)
    text += QString("   %1 = %2 %3")
                .arg(QString::fromStdString(channels_[static_cast<std::size_t>(c)].name))
                .arg(data_[r * n + static_cast<std::size_t>(c)], 0, 'g', 5)
                .arg(QString::fromStdString(channels_[static_cast<std::size_t>(c)].unit));
  setReadout(text);
}

void PlotPanel::checkAllChannels() {
  {
    const QSignalBlocker block(list_);
    for (int i = 0; i < list_->count(); ++i) list_->item(i)->setCheckState(Qt::Checked);
  }
  rebuildGraphs();
}

int PlotPanel::graphCount() const { return plot_->graphCount(); }

QStringList PlotPanel::channelNames() const {
  QStringList names;
  for (int i = 0; i < list_->count(); ++i) names << list_->item(i)->data(Qt::UserRole).toString();
  return names;
}

QString PlotPanel::readout() const { return readout_text_; }

void PlotPanel::setReadout(const QString& text) {
  readout_text_ = text;
  readout_->setToolTip(text);
  readout_->setText(readout_->fontMetrics().elidedText(text, Qt::ElideRight, std::max(readout_->width(), 40)));
}

void PlotPanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  setReadout(readout_text_);  // cut again to the new width
}

int PlotPanel::pointCount() const { return plot_->graphCount() > 0 ? plot_->graph(0)->dataCount() : 0; }

}  // namespace flexarm
