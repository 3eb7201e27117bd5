#pragma once
// The Bode plot of one input-output pair of a linear model (analysis/FrequencyResponse): magnitude
// [dB] above phase [deg], both against frequency [Hz] on a log axis that the two panels share, drawn
// in one QCustomPlot so that it exports like every plot (PlotExport.hpp).
#include <QString>

#include "analysis/FrequencyResponse.hpp"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;

namespace flexarm {

// Replaces the plot's content by the Bode plot of r (title above, when not empty). The magnitude
// axis reads "|G| [dB re 1 m/(N m)]" after the pair's units; a marker line shows each natural
// frequency given in modes_hz.
void drawBode(QCustomPlot* plot, const FrequencyResponse& r, const QString& title, const std::vector<double>& modes_hz = {});

// The panels and curves drawBode made (nullptr before): 0 magnitude, 1 phase.
QCPAxisRect* bodePanel(QCustomPlot* plot, int panel);
QCPGraph* bodeCurve(QCustomPlot* plot, int panel);

}  // namespace flexarm
