#include "ui/editor/WheelGuard.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QSlider>

namespace flexarm {
namespace {
constexpr const char* kName = "flexarm.WheelGuard";

// The wheel may not give these fields the focus: click or Tab only.
void refuseWheelFocus(QWidget* w) {
  if (WheelGuard::guards(w) && (w->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
}
}  // namespace

WheelGuard* WheelGuard::install() {
  QCoreApplication* app = QCoreApplication::instance();
  if (!app) return nullptr;
  if (auto* existing = app->findChild<WheelGuard*>(kName, Qt::FindDirectChildrenOnly)) return existing;
  auto* guard = new WheelGuard(app);
  guard->setObjectName(kName);
  app->installEventFilter(guard);
  for (QWidget* w : QApplication::allWidgets()) refuseWheelFocus(w);  // those made before the guard
  return guard;
}

bool WheelGuard::guards(const QWidget* widget) {
  return qobject_cast<const QComboBox*>(widget) || qobject_cast<const QAbstractSpinBox*>(widget) ||
         qobject_cast<const QSlider*>(widget);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();  // every event of the application passes here: cheap tests first
  if ((type != QEvent::Polish && type != QEvent::Wheel) || !watched->isWidgetType()) return false;
  auto* w = static_cast<QWidget*>(watched);
  if (type == QEvent::Polish) {
    refuseWheelFocus(w);
  } else if (guards(w) && !w->hasFocus()) {
    // Not handled here: Qt passes an ignored wheel event on to the parent, up to the scroll area.
    event->ignore();
    return true;
  }
  return false;
}

}  // namespace flexarm
