#pragma once
// The model tree of the editor: project, links, joints, payloads, constraints, simulation settings,
// variants and the study, with buttons for the structure edits (in rows that wrap) (add, insert, duplicate, delete, move
// a link with its joint; add a payload, a constraint, a variant; duplicate and delete a variant). Selecting an item shows it in
// the property editor. The tree follows the document: refresh() after every change keeps the selection where it can.
#include <QList>
#include <QWidget>

#include "ui/document/ProjectDocument.hpp"

class QAction;
class QTreeWidget;
class QTreeWidgetItem;

namespace flexarm {

class FlowLayout;

class ModelTree : public QWidget {
  Q_OBJECT
 public:
  explicit ModelTree(ProjectDocument* doc, QWidget* parent = nullptr);

  void refresh();
  ModelItem current() const;
  void select(const ModelItem& item);
  QTreeWidget* tree() const { return tree_; }
  // The structure actions, by name: addLink, insertLink, duplicate, remove, moveUp, moveDown, addPayload,
  // addLoad, addConstraint, addVariant.
  QAction* action(const QString& name) const;
  QList<QAction*> actions() const;

 signals:
  void currentChanged(const ModelItem& item);
  void refused(const QString& message);

 private:
  QAction* addAction(const QString& name, const QString& text, const QString& tip, void (ModelTree::*slot)());
  void updateActions();
  QTreeWidgetItem* findItem(const ModelItem& item) const;
  void report(bool ok, const QString& error, const ModelItem& then);
  int selectedLink() const;  // index of the selected link or joint; -1 when neither

  void onAddLink();
  void onInsertLink();
  void onAddBranch();
  void onDuplicate();
  void onRemove();
  void onMoveUp();
  void onMoveDown();
  void onAddPayload();
  void onAddLoad();
  void onAddConstraint();
  void onAddVariant();

  ProjectDocument* doc_;
  QWidget* buttons_;  // a button per action, in rows that wrap (FlowLayout)
  FlowLayout* flow_;
  QList<QAction*> actions_;
  QTreeWidget* tree_;
  bool filling_ = false;
};

}  // namespace flexarm
