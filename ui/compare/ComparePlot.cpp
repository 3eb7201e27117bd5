#include "ui/compare/ComparePlot.hpp"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QListWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/plots/PlotFigure.hpp"
#include "model/Names.hpp"

namespace flexarm {

ComparePlot::ComparePlot(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  useCNumbers(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->legend->setFont(QFont(font().family(), 8));
  plot_->setMinimumSize(320, 200);
  list_ = new QListWidget(this);
  list_->setMaximumWidth(220);
  list_->setToolTip("Tick the channels to compare");
  difference_ = new QToolButton(this);
  difference_->setText(QString::fromUtf8("Difference (B \u2212 A)"));
  difference_->setToolTip("Plot each variant minus the first instead of the variants overlaid");
  difference_->setCheckable(true);
  auto* export_button = new QToolButton(this);
  export_button->setText("Export plot...");
  auto* left = new QVBoxLayout;
  left->addWidget(list_, 1);
  left->addWidget(difference_);
  left->addWidget(export_button);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(left);
  layout->addWidget(plot_, 1);
  connect(list_, &QListWidget::itemChanged, this, [this] { redraw(); });
  connect(difference_, &QToolButton::toggled, this, [this] { redraw(); });
  connect(export_button, &QToolButton::clicked, this, &ComparePlot::exportRequested);
}

void ComparePlot::setRuns(const std::vector<NamedRun>& runs) {
  runs_ = runs;
  if (list_->count() == 0) {
    const std::vector<std::string> common = commonChannels(runs_);
    std::vector<Channel> channels;
    for (const std::string& c : common) channels.push_back({c, ""});
    const std::vector<std::string> chosen = defaultPlotChannels(channels);
    QSignalBlocker block(list_);
    for (const std::string& c : common) {
      if (names::isElasticChannel(c)) continue;  // elastic coordinates and rates: many, rarely wanted
      auto* item = new QListWidgetItem(QString::fromStdString(c), list_);
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(std::find(chosen.begin(), chosen.end(), c) != chosen.end() ? Qt::Checked : Qt::Unchecked);
    }
  }
  redraw();
}

void ComparePlot::setDifference(bool on) { difference_->setChecked(on); }
bool ComparePlot::isDifference() const { return difference_->isChecked(); }

void ComparePlot::setCheckedChannels(const std::vector<std::string>& channels) {
  {
    QSignalBlocker block(list_);
    for (int i = 0; i < list_->count(); ++i) {
      QListWidgetItem* item = list_->item(i);
      const bool on = std::find(channels.begin(), channels.end(), item->text().toStdString()) != channels.end();
      item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
  }
  redraw();
}

std::vector<std::string> ComparePlot::checkedChannels() const {
  std::vector<std::string> out;
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->checkState() == Qt::Checked) out.push_back(list_->item(i)->text().toStdString());
  return out;
}

void ComparePlot::setTimeCursor(double t) {
  if (!cursor_) return;
  cursor_->point1->setCoords(t, 0);
  cursor_->point2->setCoords(t, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ComparePlot::redraw() {
  const std::vector<std::string> channels = checkedChannels();
  difference_->setEnabled(runs_.size() > 1);
  bool ready = !runs_.empty() && !channels.empty();
  for (const NamedRun& r : runs_) ready = ready && r.results && r.results->rows() > 0;
  Figure figure;
  if (ready) {
    table_ = compareRuns(runs_, channels);
    std::vector<std::string> columns;
    for (const std::string& ch : channels) {
      if (!isDifference())
        columns.push_back(ch);  // every variant's curve
      else
        for (std::size_t k = 1; k < runs_.size(); ++k) columns.push_back(ch + "[" + runs_[k].name + " - " + runs_[0].name + "]");
    }
    std::string why;
    if (std::optional<Figure> f = figureOf(table_, columns, why)) figure = std::move(*f);
    figure.title.clear();
    markEarlyEnds(figure, runs_, isDifference());
  } else {
    table_ = Results{};
  }
  drawFigure(plot_, figure);
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
  cursor_->point1->setCoords(0, 0);
  cursor_->point2->setCoords(0, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace flexarm
