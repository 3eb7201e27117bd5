#pragma once
// One time source for the 3D view and every plot: play / pause / step / scrub / speed / loop over
// the rows of the results.
#include <QWidget>
#include <vector>

class QSlider;
class QToolButton;
class QComboBox;
class QCheckBox;
class QLabel;
class QTimer;

namespace flexarm {

class Timeline : public QWidget {
  Q_OBJECT
 public:
  explicit Timeline(QWidget* parent = nullptr);
  void setTimes(std::vector<double> times);  // output times of the current results
  std::size_t size() const { return times_.size(); }
  QString timeText() const;  // the time shown beside the slider ("t = 1.250 s")
  void appendTimes(const std::vector<double>& times);
  int row() const;
  double time() const;
  void setRow(int row);
  bool isPlaying() const;
  void setPlaying(bool on);

 signals:
  void rowChanged(int row, double t);

 private:
  void tick();
  QSlider* slider_;
  QToolButton *play_, *first_, *prev_, *next_, *last_;
  QComboBox* speed_;
  QCheckBox* loop_;
  QLabel* label_;
  QTimer* timer_;
  std::vector<double> times_;
  double play_time_ = 0.0;
};

}  // namespace flexarm
