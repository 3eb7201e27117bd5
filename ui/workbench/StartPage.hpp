#pragma once
// What the workbench shows before any project is open: New (the wizard), Open (a file), each shipped
// example with its one-line description (its name; the full description in the tooltip), and the
// recent projects. Clicking one asks the window to do it; the page itself opens nothing.
#include <QStringList>
#include <QWidget>

class QListWidget;
class QPushButton;

namespace flexarm {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(const QString& examples_dir, QWidget* parent = nullptr);

  void setRecent(const QStringList& paths);  // most recent first; missing files are left out
  QListWidget* examples() const { return examples_; }
  QListWidget* recent() const { return recent_; }
  QPushButton* newButton() const { return new_; }
  QPushButton* openButton() const { return open_; }

 signals:
  void newRequested();
  void openRequested();                // a file dialog
  void openPath(const QString& path);  // an example or a recent project

 private:
  QListWidget* examples_;
  QListWidget* recent_;
  QPushButton *new_, *open_;
};

}  // namespace flexarm
