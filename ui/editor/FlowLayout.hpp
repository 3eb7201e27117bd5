#pragma once
// A layout that places its items left to right and wraps them onto the next row when the width runs
// out (after Qt's Flow Layout example): the model tree's buttons stay visible in a narrow dock instead
// of hiding behind a toolbar's overflow arrow.
#include <QLayout>
#include <QList>

namespace flexarm {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr, int spacing = 2);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int index) const override { return items_.value(index); }
  QLayoutItem* takeAt(int index) override;
  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
  QSize minimumSize() const override;
  QSize sizeHint() const override { return minimumSize(); }
  void setGeometry(const QRect& rect) override;

 private:
  // Places the items in `rect` (when `apply`); returns the height they take.
  int arrange(const QRect& rect, bool apply) const;

  QList<QLayoutItem*> items_;
  int gap_;
};

}  // namespace flexarm
