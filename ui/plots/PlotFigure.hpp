#pragma once
// A plot as data: named curves of result channels against time, with a title and a y label that
// carries the units. The same figure is drawn in the workbench (live plots, compare mode) and by
// `flexarm-cli plot` / report bundles, so a plot on screen and its exported file agree.
#include <QColor>
#include <QString>
#include <QVector>
#include <optional>
#include <string>
#include <vector>

#include "results/Comparison.hpp"
#include "results/Results.hpp"

class QCustomPlot;
class QCPLayoutGrid;

namespace flexarm {

struct PlotSeries {
  QString name;          // legend entry, e.g. "tip.beam.v [m]" or "tip.beam.v[high-order]"
  QVector<double> t, v;  // NaN values (a run that had ended) are gaps
};

// A vertical line with a label, e.g. where a run diverged.
struct PlotMarker {
  double t;
  QString label;
  std::size_t series;  // its colour is this curve's
};

struct Figure {
  QString title;
  QString y_label;
  std::vector<PlotSeries> series;
  std::vector<PlotMarker> markers;
};

// The columns that `names` select in r: an exact channel name, or a channel name that compare.csv
// holds per variant ("tip.beam.v" selects "tip.beam.v[A]", "tip.beam.v[B]", not the differences).
// Empty and a reason naming the first unknown channel.
std::vector<std::string> selectChannels(const Results& r, const std::vector<std::string>& names, std::string& error);

// The figure of the given columns of r (names as selectChannels takes them).
std::optional<Figure> figureOf(const Results& r, const std::vector<std::string>& names, std::string& error);

// Markers where runs ended early: "<run> diverged at t = 6.53 s" ("diverged at t = 6.53 s" for a run
// without a name) in the run's colour (the runs in the order of the figure's curves). In a difference
// figure the curves are run k minus run 0 for k >= 1: run k's marker takes curve k - 1's colour, and
// run 0's (which ends every difference) the first curve's.
std::vector<PlotMarker> earlyEndMarkers(const std::vector<NamedRun>& runs, bool difference = false);
void markEarlyEnds(Figure& figure, const std::vector<NamedRun>& runs, bool difference = false);

// Replaces the plot's graphs by the figure's curves (legend, labels, axes fitted to the data; the
// time axis spans every curve's times, gaps included, so plots of one comparison line up).
void drawFigure(QCustomPlot* plot, const Figure& figure);

// The legend in a column of its own right of the curves (never over them); once per plot.
void placeLegendBeside(QCustomPlot* plot);
// The same into the cell (row, column) of `grid`, a column kept as narrow as the legend (plots
// with more than one axis rect; see CampbellPlot).
void placeLegendAt(QCustomPlot* plot, QCPLayoutGrid* grid, int row, int column);

// Fits the axes to every finite point of the plot's graphs with a margin (no curve touches or leaves
// the frame) and to the markers: the time axis from the first time to the last time or marker, a
// marker at the end kept clear of the frame so that its dashed line shows; above the curves, a band
// for the markers' labels, so that no label covers a curve.
void fitAxes(QCustomPlot* plot, const std::vector<PlotMarker>& markers);

// Draws a marker: a dashed vertical line in its curve's colour, its label beside it near the top, on
// the side with more room (the `slot`-th marker's label a line lower than the one before, so that
// labels do not overlap). Fit the axes first.
void drawMarker(QCustomPlot* plot, const PlotMarker& marker, int slot);

// The colour of the i-th curve (a qualitative palette shared by every plot).
QColor seriesColour(std::size_t i);

// Tick labels with '.' as the decimal point and no group separator, as the program writes every
// number (CSV, JSON, messages): QCustomPlot takes them from its widget's locale, by default
// QLocale's default, which is the user's (de_DE: "0,5"). Called on every plot when it is made.
void useCNumbers(QCustomPlot* plot);

// The channels worth plotting by default: tip deflections, joint torsions, else joint angles.
std::vector<std::string> defaultPlotChannels(const std::vector<Channel>& channels);

// The y label for a set of units: "value [m]", "value [m, rad]".
QString unitsLabel(const std::vector<std::string>& units);

}  // namespace flexarm
