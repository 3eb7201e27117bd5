#include "ui/view/Timeline.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>

namespace flexarm {

Timeline::Timeline(QWidget* parent) : QWidget(parent) {
  auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    return b;
  };
  first_ = button(QStyle::SP_MediaSkipBackward, "First frame");
  prev_ = button(QStyle::SP_MediaSeekBackward, "Previous frame");
  play_ = button(QStyle::SP_MediaPlay, "Play / pause");
  next_ = button(QStyle::SP_MediaSeekForward, "Next frame");
  last_ = button(QStyle::SP_MediaSkipForward, "Last frame");
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  speed_ = new QComboBox(this);
  for (const char* s : {"0.1x", "0.25x", "0.5x", "1x", "2x", "5x", "10x"}) speed_->addItem(s);
  speed_->setCurrentText("1x");
  speed_->setToolTip("Playback speed (simulated time per wall time)");
  loop_ = new QCheckBox("loop", this);
  label_ = new QLabel("t = 0 s", this);
  label_->setMinimumWidth(110);
  timer_ = new QTimer(this);
  timer_->setInterval(33);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  for (QWidget* w : std::initializer_list<QWidget*>{first_, prev_, play_, next_, last_}) layout->addWidget(w);
  layout->addWidget(slider_, 1);
  layout->addWidget(label_);
  layout->addWidget(speed_);
  layout->addWidget(loop_);
  connect(slider_, &QSlider::valueChanged, this, [this](int r) {
    const double t = r >= 0 && r < static_cast<int>(times_.size()) ? times_[static_cast<std::size_t>(r)] : 0.0;
    label_->setText(QString("t = %1 s").arg(t, 0, 'f', 3));
    if (!timer_->isActive()) play_time_ = t;
    emit rowChanged(r, t);
  });
  connect(play_, &QToolButton::clicked, this, [this] { setPlaying(!isPlaying()); });
  connect(first_, &QToolButton::clicked, this, [this] { setRow(0); });
  connect(last_, &QToolButton::clicked, this, [this] { setRow(slider_->maximum()); });
  connect(prev_, &QToolButton::clicked, this, [this] { setRow(row() - 1); });
  connect(next_, &QToolButton::clicked, this, [this] { setRow(row() + 1); });
  connect(timer_, &QTimer::timeout, this, [this] { tick(); });
}

void Timeline::setTimes(std::vector<double> times) {
  times_ = std::move(times);
  if (times_.empty()) setPlaying(false);
  slider_->setRange(0, std::max(0, static_cast<int>(times_.size()) - 1));
  label_->setText(QString("t = %1 s").arg(time(), 0, 'f', 3));  // also when the row stays
}

void Timeline::appendTimes(const std::vector<double>& times) {
  times_.insert(times_.end(), times.begin(), times.end());
  const bool at_end = slider_->value() == slider_->maximum();
  slider_->setRange(0, std::max(0, static_cast<int>(times_.size()) - 1));
  if (at_end && !timer_->isActive()) slider_->setValue(slider_->maximum());  // follow a running simulation
}

int Timeline::row() const { return slider_->value(); }
double Timeline::time() const { return times_.empty() ? 0.0 : times_[static_cast<std::size_t>(row())]; }
void Timeline::setRow(int r) { slider_->setValue(std::clamp(r, 0, slider_->maximum())); }
bool Timeline::isPlaying() const { return timer_->isActive(); }
QString Timeline::timeText() const { return label_->text(); }

void Timeline::setPlaying(bool on) {
  if (on && !times_.empty()) {
    if (row() >= slider_->maximum()) setRow(0);
    play_time_ = time();
    timer_->start();
  } else {
    timer_->stop();
  }
  play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void Timeline::tick() {
  if (times_.empty()) return;
  const double speed = speed_->currentText().chopped(1).toDouble();
  play_time_ += speed * timer_->interval() * 1e-3;
  if (play_time_ > times_.back()) {
    if (!loop_->isChecked()) {
      setRow(slider_->maximum());
      setPlaying(false);
      return;
    }
    play_time_ = times_.front();
  }
  const auto it = std::upper_bound(times_.begin(), times_.end(), play_time_);
  setRow(std::max(0, static_cast<int>(it - times_.begin()) - 1));
}

}  // namespace flexarm
