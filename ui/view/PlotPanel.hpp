#pragma once
// Live plots of chosen result channels (QCustomPlot). Curves grow by appending the new rows only;
// a vertical cursor marks the timeline's time; hovering reads the values off.
#include <QStringList>
#include <QWidget>
#include <vector>

#include "results/Results.hpp"
#include "ui/plots/PlotFigure.hpp"  // defaultPlotChannels

class QCustomPlot;
class QCPItemStraightLine;
class QListWidget;
class QLabel;

namespace flexarm {

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotPanel(QWidget* parent = nullptr);

  // New run: the channels it records; `selected` are plotted (others can be ticked by the user). The
  // rows and the read-out of the run before go.
  void setChannels(const std::vector<Channel>& channels, const std::vector<std::string>& selected);
  void appendRows(const std::vector<double>& rows, std::size_t count);  // row-major, all channels
  void setTimeCursor(double t);
  void clear();  // the rows go, the channels stay (and the markers go)
  // Where the run ended early (diverged, failed): dashed lines with their labels, kept in the axes.
  void setMarkers(const std::vector<PlotMarker>& markers);
  const std::vector<PlotMarker>& markers() const { return markers_; }

  int graphCount() const;
  int pointCount() const;            // points in the first plotted graph
  QStringList channelNames() const;  // those offered, plotted or not
  QString readout() const;           // the values read off at the cursor or the pointer
  void checkAllChannels();           // plots every channel offered
  QCustomPlot* plot() { return plot_; }

 private:
  void rebuildGraphs();
  void refreshAxes();
  void showReadout(double t);
  void setReadout(const QString& text);
  void resizeEvent(QResizeEvent* e) override;
  void resetView();
  QCustomPlot* plot_;
  QListWidget* list_;
  QLabel* readout_;
  QString readout_text_;  // the whole read-out; readout_ shows it cut to its width
  QCPItemStraightLine* cursor_ = nullptr;
  std::vector<Channel> channels_;
  std::vector<int> plotted_;  // channel index per graph
  std::vector<double> data_;  // all rows so far (row-major), to rebuild on selection change
  std::vector<PlotMarker> markers_;
  std::size_t rows_ = 0;
};

}  // namespace flexarm
