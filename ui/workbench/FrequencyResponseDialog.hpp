#pragma once
// Natural modes dock > Frequency response...: the Bode plot from a chosen joint effort to a chosen
// output of the arm's linear model (analysis/StateSpace, FrequencyResponse). The model (every joint
// effort in; every flexible link's tip deflection and every joint angle out) is linearized on a worker
// thread with a copy of the project, about the initial configuration or the dock's steady spin; the
// joints are never clamped here (a held joint's effort moves nothing). Choosing the pair or the
// frequency range redraws at once. The plot exports as PNG, PDF or SVG, the model as .mat or .csv.
#include <QDialog>
#include <QFutureWatcher>
#include <memory>
#include <optional>
#include <string>

#include "analysis/FrequencyResponse.hpp"
#include "analysis/StateSpace.hpp"
#include "model/Project.hpp"
#include "ui/plots/PlotExport.hpp"

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace flexarm {

class FrequencyResponseDialog : public QDialog {
  Q_OBJECT
 public:
  // spin: joint 1 turning steadily at this rate [rad/s] (the modes dock's option), or none.
  FrequencyResponseDialog(const Project& project, std::optional<double> spin, QWidget* parent = nullptr);
  ~FrequencyResponseDialog() override;

  bool isComputing() const;
  const StateSpaceModel* model() const { return model_.get(); }          // after computed()
  const FrequencyResponse* response() const { return response_.get(); }  // the pair drawn, if any
  QString statusText() const;
  QCustomPlot* plot() const { return plot_; }

  // The pair and the range, as the controls set them; false when the name is not in the model.
  bool setInput(const QString& name);
  bool setOutput(const QString& name);
  void setFrequencyRange(double lo_hz, double hi_hz, int points);

  // Exports without asking (tests, scripts): "" or the reason.
  std::string exportPlotTo(const QString& file, const ExportSize& size);
  std::string exportModelTo(const QString& file);

 signals:
  void computed();  // the model is ready (or failed: statusText() says why)

 private:
  struct Outcome {
    std::string error;
    std::shared_ptr<StateSpaceModel> model;
    std::string description;
  };
  void onComputed();
  void redraw();
  void setStatus(const QString& text, bool error);
  void clearPlot();

  QComboBox *input_, *output_;
  QDoubleSpinBox *f_lo_, *f_hi_;
  QSpinBox* points_;
  QLabel *operating_point_, *status_;
  QProgressBar* busy_;
  QCustomPlot* plot_;
  QPushButton *export_plot_, *export_model_;
  // Until the result is taken (the worker may have finished before its signal is delivered).
  bool computing_ = true;
  QFutureWatcher<Outcome>* watcher_;
  std::shared_ptr<const StateSpaceModel> model_;
  std::unique_ptr<FrequencyResponse> response_;
  std::string description_;
  QString project_name_;
};

}  // namespace flexarm
