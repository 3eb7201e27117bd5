#include "ui/view/ColourBar.hpp"

#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>

namespace flexarm {
namespace {
constexpr int kMargin = 6;     // around everything
constexpr int kBarWidth = 16;  // the colour strip
}  // namespace

ColourBar::ColourBar(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent, false);
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
  setToolTip("Colour scale of the flexible links (blue: 0, red: the upper end); it only grows during a run");
}

void ColourBar::setScale(const QString& title, double upper, bool scientific) {
  if (title == title_ && upper == upper_ && scientific == scientific_) return;
  const bool wider = title != title_ || scientific != scientific_;
  title_ = title;
  upper_ = upper;
  scientific_ = scientific;
  if (wider) updateGeometry();
  update();
}

QColor ColourBar::colourAt(double v, double upper) {
  const double f = upper > 0 ? std::clamp(v / upper, 0.0, 1.0) : 0.0;
  return QColor::fromHsvF(static_cast<float>(0.667 * (1.0 - f)), 1.0f, 1.0f);
}

QStringList ColourBar::labels() const {
  QStringList out;
  for (int k = kLabels - 1; k >= 0; --k) {
    const double v = upper_ * k / (kLabels - 1);
    out << (scientific_ ? QString::number(v, 'e', 1) : QString::number(v, 'g', 3));
  }
  return out;
}

QRect ColourBar::titleRect() const {
  const QFontMetrics fm(font());
  const int w = width() - 2 * kMargin;
  const QRect r = fm.boundingRect(QRect(kMargin, kMargin, w, 1000), Qt::AlignHCenter | Qt::TextWordWrap, title_);
  return QRect(kMargin, kMargin, w, r.height());
}

QRect ColourBar::barRect() const {
  const int h = QFontMetrics(font()).height();
  const int top = titleRect().bottom() + 1 + h / 2 + 4;  // half a label clear of the title
  const int bottom = height() - kMargin - h / 2;
  return QRect(kMargin, top, kBarWidth, std::max(bottom - top, 20));
}

QVector<QRect> ColourBar::labelRects() const {
  const QFontMetrics fm(font());
  const QRect bar = barRect();
  QVector<QRect> out;
  const QStringList texts = labels();
  for (int k = 0; k < texts.size(); ++k) {
    const int y = bar.top() + bar.height() * k / (kLabels - 1);
    out << QRect(bar.right() + 6, y - fm.height() / 2, fm.horizontalAdvance(texts[k]), fm.height());
  }
  return out;
}

QSize ColourBar::sizeHint() const {
  const QFontMetrics fm(font());
  int labels_width = 0;
  for (const QString& s : labels()) labels_width = std::max(labels_width, fm.horizontalAdvance(s));
  // The title wraps at its words; the bar is as wide as its widest word or the scale with its labels.
  int word = 0;
  for (const QString& w : title_.split(' ')) word = std::max(word, fm.horizontalAdvance(w));
  const int w = std::max(kBarWidth + 6 + labels_width, word) + 2 * kMargin;
  return {w, 240};
}

QSize ColourBar::minimumSizeHint() const { return {sizeHint().width(), 120}; }

void ColourBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  p.setPen(palette().color(QPalette::WindowText));
  p.drawText(titleRect(), Qt::AlignHCenter | Qt::TextWordWrap, title_);
  const QRect bar = barRect();
  QLinearGradient g(bar.topLeft(), bar.bottomLeft());
  for (int k = 0; k <= 10; ++k) g.setColorAt(k / 10.0, colourAt(upper_ * (10 - k) / 10.0, upper_));
  p.fillRect(bar, g);
  p.drawRect(bar.adjusted(0, 0, -1, -1));
  const QStringList texts = labels();
  const QVector<QRect> at = labelRects();
  for (int k = 0; k < texts.size(); ++k) {
    const int y = at[k].center().y();
    p.drawLine(bar.right() + 1, y, bar.right() + 4, y);
    p.drawText(at[k], Qt::AlignLeft | Qt::AlignVCenter, texts[k]);
  }
}

}  // namespace flexarm
