#pragma once
// The Campbell diagram as a plot: frequency [Hz] against the spin rate of joint 1 [rad/s], one curve
// per followed mode (core/analysis/Campbell.hpp), for each coupling order side by side (one axis rect
// each, the same axes) or overlaid (one axis rect; the order in the line style). Unstable points are
// crosses, and where a curve turns unstable (instabilityOnset) a dashed line in its colour says so.
// Drawn on one QCustomPlot, so PlotExport writes it like every other plot.
#include <QString>
#include <vector>

#include "analysis/Campbell.hpp"
#include "model/Project.hpp"

class QCustomPlot;

namespace flexarm {

struct CampbellSet {
  CouplingOrder order = CouplingOrder::High;
  CampbellResult result;
};

enum class CampbellLayout { SideBySide, Overlaid };

// An instability drawn: which order and curve, and its onset.
struct CampbellMark {
  CouplingOrder order = CouplingOrder::High;
  std::size_t curve = 0;
  CampbellOnset onset;
  QString label;  // e.g. "zero-order: curve 1 unstable from 2.911 rad/s"
};

// Draws on a plot with QCustomPlot's default layout (a new plot). Each curve's graph has the
// properties "coupling" (the order's name), "curve" (its index) and "unstable" (false; the graph of
// the unstable points of an order has true). Returns the instabilities marked.
std::vector<CampbellMark> drawCampbell(QCustomPlot* plot, const std::vector<CampbellSet>& sets, CampbellLayout layout,
                                       const QString& title);

}  // namespace flexarm
