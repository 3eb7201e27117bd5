#pragma once
// The property editor: a form for the selected model item (ModelItem), built from PropertyForms,
// with a unit beside every numeric field. A value is committed when the user presses Return or
// leaves a changed field (combo boxes: at once). Text that is not a finite number is rejected here;
// a number the loader refuses (a negative length, E = 0, ...) is rejected by ProjectDocument. Either
// way the field is marked, the message (naming the JSON path) is shown under it, and the project
// is unchanged. Drives with a time law get a preview plot of the law over the simulated time.
#include <QWidget>
#include <functional>
#include <vector>

#include "ui/editor/PropertyForms.hpp"

class QLabel;
class QScrollArea;
class QCustomPlot;

namespace flexarm {

class MultibodySystem;

class PropertyEditor : public QWidget {
  Q_OBJECT
 public:
  explicit PropertyEditor(ProjectDocument* doc, QWidget* parent = nullptr);

  void showItem(const ModelItem& item);
  const ModelItem& item() const { return item_; }
  // After the document changed: the same fields get the new values; other fields are rebuilt.
  void refresh(const MultibodySystem* system);

  // The editor widget of a value (a QLineEdit, a QComboBox, or a FormPanel such as the override table
  // of a variant, "variants[0].set"), named by the path; nullptr if absent.
  QWidget* field(const QString& path) const;
  QString fieldError(const QString& path) const;  // the message under the field; empty when valid
  QStringList paths() const;
  // The path of the field that holds widget `w` (its editor or a part of it): what F1 looks up; "" when none.
  QString pathOf(const QWidget* w) const;
  // The drive-law preview: samples plotted (0 when hidden) and the value at the last sample.
  int previewPoints() const;
  double previewLastValue() const;
  // Asks for the file of a File field (default: an open-file dialog in the project's directory);
  // "" is cancel. Tests answer instead of the dialog.
  void setFileChooser(std::function<QString(const QString& title)> chooser);
  // A field is as wide as its value; a free text (a description) at least this many characters, and
  // longer ones scroll in their field.
  static constexpr int kFreeTextChars = 24;

 signals:
  void refused(const QString& message);

 private:
  struct Row {
    FieldSpec spec;
    QWidget* editor = nullptr;
    QLabel* error = nullptr;
  };
  void rebuild();
  void fill();
  void fillRow(Row& row);
  void commit(std::size_t row);
  void commitValue(std::size_t row, const Json& value);
  void setError(Row& row, const QString& message);
  static void fitToValue(QWidget* editor, bool free_text);
  void updatePreview();

  ProjectDocument* doc_;
  const MultibodySystem* system_ = nullptr;
  ModelItem item_;
  QLabel* title_;
  QScrollArea* scroll_;
  QCustomPlot* preview_;
  std::vector<Row> rows_;
  QStringList signature_;
  std::function<QString(const QString&)> choose_file_;
  unsigned generation_ = 0;  // increases with every rebuild: late signals of old widgets are ignored
};

}  // namespace flexarm
