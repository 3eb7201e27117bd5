#pragma once
// Choosing the variants to compare: the project as it is, each variant the project defines, the
// coupling orders, and any overrides typed as 'path=value;path=value'. Two or more are needed.
#include <QDialog>
#include <vector>

#include "model/Project.hpp"
#include "solvers/Study.hpp"

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace flexarm {

class CompareDialog : public QDialog {
  Q_OBJECT
 public:
  // Relative table files of the project resolve against base_dir (a typed variant is checked at once).
  CompareDialog(const Project& project, const QString& base_dir, QWidget* parent = nullptr);

  // Adds a typed variant (overrides joined by ';') and ticks it; "" or the reason it is refused.
  QString addSpec(const QString& spec);
  void setChecked(const QString& name, bool on);
  std::vector<StudyCase> cases() const;  // the ticked variants, in list order

 private:
  void update();
  const Project& project_;
  QString base_dir_;
  QListWidget* list_;
  QLineEdit* spec_;
  QLabel* message_;
  QDialogButtonBox* buttons_;
  std::vector<StudyCase> all_;  // one per list row
};

}  // namespace flexarm
