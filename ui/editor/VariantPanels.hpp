#pragma once
// The panels of the variant and study forms (VariantEdits does the edits):
// - PathTable: rows of (path, value text) with an empty row at the end for a new one: a variant's
//   overrides, or the study grid (path, values). A row is committed as soon as it has a path and a
//   value; a refused row shows the loader's message under the table and the document is unchanged
//   (a new row keeps what was typed, so it can be corrected). Optionally a box of "path=value"
//   lines added in one edit, for overrides that only make sense together.
// - StudyVariantList: the variants as a checkable list; the checked ones, in the list's order, are
//   the study.
#include <QString>
#include <functional>
#include <utility>
#include <vector>

#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/FormPanel.hpp"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace flexarm {

class PathTable : public FormPanel {
  Q_OBJECT
 public:
  using Rows = std::vector<std::pair<QString, QString>>;
  struct Hooks {
    std::function<Rows(const ProjectDocument&)> rows;
    // row -1: a new row at the end.
    std::function<bool(ProjectDocument&, int row, const QString& path, const QString& text, QString* error)> set;
    std::function<bool(ProjectDocument&, int row, QString* error)> remove;
    std::function<bool(ProjectDocument&, const QString& lines, QString* error)> addLines;  // optional
  };
  PathTable(ProjectDocument* doc, const QString& value_header, Hooks hooks, QWidget* parent = nullptr);

  void refresh() override;
  QString error() const override { return error_; }
  QTableWidget* table() const { return table_; }
  QPushButton* removeButton() const { return remove_; }
  QPlainTextEdit* linesBox() const { return lines_; }  // null without addLines
  QPushButton* addLinesButton() const { return add_lines_; }

 private:
  void onItemChanged(QTableWidgetItem* item);
  void onRemove();
  void onAddLines();
  void report(bool ok, const QString& error);

  ProjectDocument* doc_;
  Hooks hooks_;
  QTableWidget* table_;
  QPushButton* remove_;
  QPlainTextEdit* lines_ = nullptr;
  QPushButton* add_lines_ = nullptr;
  QLabel* message_;
  QString error_;
  QString pending_path_, pending_text_;  // the new row as typed, until it is accepted
  bool filling_ = false;
};

class StudyVariantList : public FormPanel {
  Q_OBJECT
 public:
  explicit StudyVariantList(ProjectDocument* doc, QWidget* parent = nullptr);
  void refresh() override;
  QString error() const override { return error_; }
  QListWidget* list() const { return list_; }

 private:
  void onChanged();

  ProjectDocument* doc_;
  QListWidget* list_;
  QLabel* message_;
  QString error_;
  bool filling_ = false;
};

}  // namespace flexarm
