#pragma once
// Scrolling never edits. Over a combo box, a spin box or a slider that the user has not clicked into,
// the mouse wheel scrolls the form around it (the event goes on to the scroll area) instead of changing
// the value; a field with the keyboard focus still takes the wheel, which is deliberate editing. Those
// fields also take the focus only by click or Tab (Qt::StrongFocus), never by the wheel passing over them.
// One filter for the whole application: every form and dialog, including those built later.
#include <QObject>

class QWidget;

namespace flexarm {

class WheelGuard : public QObject {
  Q_OBJECT
 public:
  // Installs the application's guard once (later calls find it); it lives as long as the application.
  static WheelGuard* install();
  static bool guards(const QWidget* widget);  // a combo box, a spin box or a slider

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  using QObject::QObject;
};

}  // namespace flexarm
