#pragma once
// Analysis > Campbell diagram: the natural frequencies of the open project linearized about a steady
// spin of joint 1 over a sweep of rates (core/analysis/Campbell.hpp, as `flexarm-cli campbell`), for
// the coupling orders chosen, computed on a worker thread with a copy of the project (cancellable,
// with progress), and plotted side by side or overlaid with the instabilities marked
// (ui/plots/CampbellPlot.hpp). The plot exports like every plot (PNG, PDF, SVG).
#include <QDialog>
#include <QFutureWatcher>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/Project.hpp"
#include "ui/plots/CampbellPlot.hpp"
#include "ui/plots/PlotExport.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QVBoxLayout;

namespace flexarm {

class CampbellDialog : public QDialog {
  Q_OBJECT
 public:
  // `project` gives the open project when Compute is pressed (null: none, or an empty chain).
  CampbellDialog(std::function<const Project*()> project, QWidget* parent = nullptr);
  ~CampbellDialog() override;  // a sweep still running is cancelled and waited for

  // The controls, for scripts and tests.
  void setSweep(double from, double to, double step);  // [rad/s]
  void setModeCount(int count);
  void setOrders(const std::vector<CouplingOrder>& orders);
  void setPlotLayout(CampbellLayout layout);  // redraws what was computed

  bool compute();  // starts the sweep on a worker thread; false (with the reason in the status) when refused
  void cancel();   // stops the sweep before its next rate
  bool isComputing() const;
  QString statusText() const;
  QCustomPlot* plot() const { return plot_; }
  const std::vector<CampbellSet>& sets() const { return sets_; }
  const std::vector<CampbellMark>& marks() const { return marks_; }
  std::string exportPlotTo(const QString& file, const ExportSize& size);  // "" or the reason

 signals:
  void finished();  // a sweep ended: computed, failed or cancelled

 private:
  struct Sweep;  // what the worker shares with the dialog: progress and the cancel flag
  struct Outcome {
    std::vector<CampbellSet> sets;
    std::string error;
    bool cancelled = false;
  };
  void onFinished();
  void redraw();
  void showProgress();
  void setStatus(const QString& text, bool error);
  void updateControls();

  std::function<const Project*()> project_;
  QDoubleSpinBox *from_, *to_, *step_;
  QSpinBox* count_;
  QCheckBox *zero_, *geometric_, *high_;
  QComboBox* layout_;
  QPushButton *compute_, *cancel_, *export_;
  QProgressBar* progress_;
  QLabel* status_;
  QVBoxLayout* plot_box_;
  QCustomPlot* plot_ = nullptr;
  QTimer* timer_;
  QFutureWatcher<std::shared_ptr<Outcome>>* watcher_;
  bool computing_ = false;
  std::shared_ptr<Sweep> sweep_;
  std::vector<CampbellSet> sets_;
  std::vector<CampbellMark> marks_;
  QString title_;
};

}  // namespace flexarm
