#pragma once
// The plots of compare mode: the chosen channels of every variant overlaid on one time axis (a
// legend names each variant), or, one click away, each later variant minus the first. The curves
// are made by compareRuns, the same table `flexarm-cli compare` writes to compare.csv, and drawn as
// a Figure, so the screen, the exported plots and the CSV agree.
#include <QWidget>
#include <string>
#include <vector>

#include "results/Comparison.hpp"
#include "results/Results.hpp"

class QCustomPlot;
class QCPItemStraightLine;
class QListWidget;
class QToolButton;

namespace flexarm {

class ComparePlot : public QWidget {
  Q_OBJECT
 public:
  explicit ComparePlot(QWidget* parent = nullptr);

  // The runs to show (results may still be growing); redraws. The channel list is the channels
  // every run has; the first call ticks the default plot channels.
  void setRuns(const std::vector<NamedRun>& runs);
  void setDifference(bool on);  // B - A instead of the overlay
  bool isDifference() const;
  void setCheckedChannels(const std::vector<std::string>& channels);
  std::vector<std::string> checkedChannels() const;
  void setTimeCursor(double t);

  // The table on screen: compareRuns of the runs and the checked channels.
  const Results& table() const { return table_; }
  QCustomPlot* plot() const { return plot_; }
  QToolButton* differenceButton() const { return difference_; }

 signals:
  void exportRequested();

 private:
  void redraw();
  QCustomPlot* plot_;
  QListWidget* list_;
  QToolButton* difference_;
  std::vector<NamedRun> runs_;
  Results table_;
  QCPItemStraightLine* cursor_ = nullptr;
};

}  // namespace flexarm
