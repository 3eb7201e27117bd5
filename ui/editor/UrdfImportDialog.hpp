#pragma once
// File > Import URDF...: a robot described in URDF as a new project (core/io/UrdfImport). The dialog
// shows the robot, lets the user choose the tip link of the chain (the leaves, and the end of the
// chain when the tree does not branch) and, link by link, which links are flexible with the same spec
// `flexarm-cli import-urdf --flexible` reads (length, section, material, basis). Every change imports
// again at once: the errors and warnings (ignored meshes, merged fixed joints) show below, and Import
// stays disabled until the import succeeds. The result is a project document, untitled, that the
// workbench opens in the editor.
#include <QDialog>
#include <optional>

#include "io/JsonReader.hpp"
#include "io/UrdfImport.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace flexarm {

class UrdfImportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit UrdfImportDialog(const QString& urdf_file, QWidget* parent = nullptr);

  bool robotRead() const { return robot_.has_value(); }  // false: the file could not be read (messages() says why)
  QStringList tips() const;                              // offered, the default first
  bool chooseTip(const QString& link);                   // false when not offered
  QStringList chainLinks() const;                        // the table's rows: links that a joint moves
  // Makes the row's link flexible with `spec` (without "LINK="), or rigid when spec is empty.
  bool setFlexible(const QString& link, const QString& spec);
  QString specOf(const QString& link) const;  // the row's spec text (its default until edited)

  std::optional<Json> document() const { return document_; }  // nullopt while there are errors
  QString messages() const;                                   // errors and warnings, one per line
  QString commandLine() const;                                // the flexarm-cli call that does the same

 private:
  void fillChain();
  void importAgain();

  QString file_;
  std::optional<UrdfRobot> robot_;
  QComboBox* tip_;
  QLineEdit* name_;
  QTableWidget* links_;
  QLabel* messages_;
  QLabel* command_;
  QPushButton* import_;
  Diagnostics diagnostics_;
  std::optional<Json> document_;
};

}  // namespace flexarm
