#pragma once
// The colour bar of the 3D view: a Qt widget beside the scene (never over the arm), with its title
// above the scale and its labels in the widget's font, so that they read at any window size. The
// colours are the scene's lookup table: blue (0) to red (the range's upper end) through the hues.
#include <QColor>
#include <QRect>
#include <QString>
#include <QVector>
#include <QWidget>

namespace flexarm {

class ColourBar : public QWidget {
  Q_OBJECT
 public:
  explicit ColourBar(QWidget* parent = nullptr);

  // The scale from 0 to `upper`, titled `title` (with its unit); labels in scientific notation when
  // `scientific` (strain), else with three significant digits.
  void setScale(const QString& title, double upper, bool scientific);
  double upper() const { return upper_; }
  QString title() const { return title_; }

  // Where the title and each label are drawn (widget coordinates), and the labels' texts, top to
  // bottom: for tests and for the layout itself.
  QRect titleRect() const;
  QVector<QRect> labelRects() const;
  QStringList labels() const;

  // The colour of value v on a scale of 0..upper (the scene's lookup table: hue 0.667 to 0).
  static QColor colourAt(double v, double upper);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  QRect barRect() const;
  static constexpr int kLabels = 5;
  QString title_;
  double upper_ = 1.0;
  bool scientific_ = false;
};

}  // namespace flexarm
