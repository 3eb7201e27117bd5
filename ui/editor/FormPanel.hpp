#pragma once
// A part of a property form that is more than one value (a table of overrides, a checkable list):
// the property editor places it under the form's fields, refreshes it after every change of the
// document, and forwards its refusals. A panel commits its own edits through ModelEdits-style
// operations and shows the loader's message when one is refused.
#include <QWidget>

namespace flexarm {

class FormPanel : public QWidget {
  Q_OBJECT
 public:
  using QWidget::QWidget;
  // Show the document's values again (after an edit, undo or redo).
  virtual void refresh() = 0;
  // The message of the last refused edit; empty after an accepted one.
  virtual QString error() const = 0;

 signals:
  void refused(const QString& message);
};

}  // namespace flexarm
