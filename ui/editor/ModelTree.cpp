#include "ui/editor/ModelTree.hpp"

#include <QAction>
#include <QHeaderView>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/document/ConstraintEdits.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/document/VariantEdits.hpp"
#include "ui/editor/FlowLayout.hpp"

namespace flexarm {
namespace {

constexpr int kKindRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;

QString num(double x) { return QString::number(x, 'g', 4); }

QTreeWidgetItem* makeItem(QTreeWidgetItem* parent, const QString& text, const ModelItem& item) {
  auto* it = new QTreeWidgetItem(parent, QStringList{text});
  it->setData(0, kKindRole, static_cast<int>(item.kind));
  it->setData(0, kIndexRole, item.index);
  return it;
}

ModelItem itemOf(const QTreeWidgetItem* it) {
  if (!it) return {};
  return {static_cast<ModelItem::Kind>(it->data(0, kKindRole).toInt()), it->data(0, kIndexRole).toInt()};
}

QString linkSummary(const Link& l) {
  if (!l.flex) return QString("rigid, %1 m, %2 kg").arg(num(l.length), num(l.mass));
  const LinkDiscretization& d = l.flex->discretization;
  const QString basis = d.kind == LinkDiscretization::Kind::AssumedModes
                            ? QString("%1 modes").arg(d.axial + d.bending_y + d.bending_z + d.torsion)
                            : QString("%1 %2 elements")
                                  .arg(d.nodes.empty() ? d.elements : static_cast<int>(d.nodes.size()) + 1)
                                  .arg(d.planar ? "planar" : "spatial");
  return QString("flexible, %1 m, %2").arg(num(l.length), basis);
}

// "revolute, flexible, pd"; a tree's joint off the chain also says where it sits: "revolute, on torso, pd".
QString jointSummary(const Model& m, int i) {
  const Joint& j = m.joints[static_cast<std::size_t>(i)];
  const int parent = m.parentOf(i);
  const QString on = parent == i - 1 ? QString()
                     : parent < 0    ? QString(", on the world")
                                     : ", on " + QString::fromStdString(m.links[static_cast<std::size_t>(parent)].name);
  return QString("%1%2%3, %4").arg(jointTypeName(j.type), j.flex ? ", flexible" : "", on, driveKindName(j.drive.kind));
}

std::string nameAt(const Json& doc, const char* array, std::size_t i) {
  const Json& e = doc[array][i];
  return e.is_object() && e.contains("name") && e["name"].is_string()
             ? e["name"].get<std::string>()
             : std::string(array).substr(0, std::string(array).size() - 1) + std::to_string(i + 1);
}
}  // namespace

ModelTree::ModelTree(ProjectDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  // The buttons wrap onto more rows in a narrow dock: none hides behind an overflow arrow.
  buttons_ = new QWidget(this);
  buttons_->setObjectName("modelTree.buttons");
  flow_ = new FlowLayout(buttons_);
  addAction("addLink", "+ Link", "Add a link with its joint at the end of the chain", &ModelTree::onAddLink);
  addAction("insertLink", "Insert", "Insert a link with its joint before the selected one", &ModelTree::onInsertLink);
  addAction("addBranch", "+ Branch",
            "Add a link with its joint on the selected link: a branch of a tree (two arms on a torso, the fingers "
            "of a gripper); set the joint's placement on that link in the properties",
            &ModelTree::onAddBranch);
  addAction("duplicate", "Duplicate", "Copy the selected link with its joint, or the selected variant, after it",
            &ModelTree::onDuplicate);
  addAction("remove", "Delete", "Delete the selected link with its joint, or the selected payload, load, constraint or variant",
            &ModelTree::onRemove);
  addAction("moveUp", "Up", "Move the selected link with its joint towards the base", &ModelTree::onMoveUp);
  addAction("moveDown", "Down", "Move the selected link with its joint towards the tip", &ModelTree::onMoveDown);
  addAction("addPayload", "+ Payload", "Add a payload at the tip of the selected link (or the last link)",
            &ModelTree::onAddPayload);
  addAction("addLoad", "+ Load",
            "Add a force and torque at the tip of the selected link (or the last link): a tool force, a thrust, a "
            "hanging weight; choose its point, axes and time law in the properties",
            &ModelTree::onAddLoad);
  addAction("addConstraint", "+ Constraint",
            "Add a constraint (it holds the last joint where it starts; choose its type in the properties). "
            "Constraints need a method with Lagrange multipliers (auto, galpha, ida or newmark): bdf and the others are switched "
            "to auto",
            &ModelTree::onAddConstraint);
  addAction("addVariant", "+ Variant", "Add a variant: a named set of overrides of the project, for studies and compare mode",
            &ModelTree::onAddVariant);
  tree_ = new QTreeWidget(this);
  tree_->setHeaderLabel("Model");
  tree_->setObjectName("modelTree");
  layout->addWidget(buttons_);
  layout->addWidget(tree_, 1);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) {
    updateActions();
    if (!filling_) emit currentChanged(itemOf(it));
  });
  refresh();
}

QAction* ModelTree::addAction(const QString& name, const QString& text, const QString& tip, void (ModelTree::*slot)()) {
  QAction* a = new QAction(text, this);
  connect(a, &QAction::triggered, this, slot);
  a->setObjectName("action." + name);
  a->setToolTip(tip);
  auto* button = new QToolButton(buttons_);
  button->setDefaultAction(a);
  button->setAutoRaise(true);
  flow_->addWidget(button);
  actions_.append(a);
  return a;
}

QAction* ModelTree::action(const QString& name) const {
  for (QAction* a : actions_)
    if (a->objectName() == "action." + name) return a;
  return nullptr;
}

QList<QAction*> ModelTree::actions() const { return actions_; }

void ModelTree::refresh() {
  const ModelItem keep = current();
  filling_ = true;
  tree_->clear();
  const Json& doc = doc_->json();
  const Project* p = doc_->project();
  makeItem(tree_->invisibleRootItem(), "Project: " + doc_->displayName(), {ModelItem::Kind::Project, -1});
  struct Group {
    const char* array;
    const char* title;
    ModelItem::Kind kind;
  };
  for (const Group& g : {Group{"links", "Links", ModelItem::Kind::Link}, Group{"joints", "Joints", ModelItem::Kind::Joint},
                         Group{"payloads", "Payloads", ModelItem::Kind::Payload}, Group{"loads", "Loads", ModelItem::Kind::Load},
                         Group{"constraints", "Constraints", ModelItem::Kind::Constraint}}) {
    const std::size_t n = doc.contains(g.array) && doc[g.array].is_array() ? doc[g.array].size() : 0;
    if (n == 0 && (g.kind == ModelItem::Kind::Constraint || g.kind == ModelItem::Kind::Load)) continue;
    auto* group = makeItem(tree_->invisibleRootItem(), g.title, {});
    for (std::size_t i = 0; i < n; ++i) {
      QString text = QString::fromStdString(nameAt(doc, g.array, i));
      if (p && g.kind == ModelItem::Kind::Link) text += "  (" + linkSummary(p->model.links[i]) + ")";
      if (p && g.kind == ModelItem::Kind::Joint) text += "  (" + jointSummary(p->model, static_cast<int>(i)) + ")";
      if (g.kind == ModelItem::Kind::Constraint && doc[g.array][i].is_object()) {
        const Json& c = doc[g.array][i];
        const std::string type = c.value("type", std::string("?"));
        text += "  (" + QString::fromStdString(type) +
                (c.contains("link") && c["link"].is_string() ? " on " + QString::fromStdString(c["link"].get<std::string>())
                                                             : QString()) +
                ")";
      }
      if (p && g.kind == ModelItem::Kind::Payload)
        text += QString("  (%1 kg on %2)")
                    .arg(num(p->model.payloads[i].mass),
                         QString::fromStdString(p->model.links[static_cast<std::size_t>(p->model.payloads[i].link)].name));
      if (p && g.kind == ModelItem::Kind::Load && i < p->model.loads.size()) {
        const Load& load = p->model.loads[i];
        text += QString("  (%1 N, %2 N m on %3)")
                    .arg(num(load.force.norm()), num(load.torque.norm()),
                         QString::fromStdString(p->model.links[static_cast<std::size_t>(load.link)].name));
      }
      makeItem(group, text, {g.kind, static_cast<int>(i)});
    }
    if (n == 0 && g.kind == ModelItem::Kind::Link) group->setText(0, "Links (empty: add one with + Link)");
  }
  makeItem(tree_->invisibleRootItem(), "Simulation", {ModelItem::Kind::Simulation, -1});
  const std::size_t variants = doc.contains("variants") && doc["variants"].is_array() ? doc["variants"].size() : 0;
  auto* group = makeItem(tree_->invisibleRootItem(), variants ? "Variants" : "Variants (none: add one with + Variant)", {});
  for (std::size_t i = 0; i < variants; ++i) {
    const Json* set = doc_->value(QString("variants[%1].set").arg(i));
    const std::size_t n = set && set->is_object() ? set->size() : 0;
    QString text = QString::fromStdString(nameAt(doc, "variants", i)) +
                   (n == 0 ? QString("  (baseline)") : QString("  (%1 override%2)").arg(n).arg(n == 1 ? "" : "s"));
    if (!edits::variantProblem(*doc_, static_cast<int>(i)).isEmpty()) text += "  invalid";
    makeItem(group, text, {ModelItem::Kind::Variant, static_cast<int>(i)});
  }
  const QString kind = edits::studyKind(*doc_);
  const int cases = kind == "none" ? 0 : static_cast<int>(edits::studyCaseNames(*doc_).size());
  makeItem(tree_->invisibleRootItem(),
           kind == "none" ? QString("Study (none)") : QString("Study (%1, %2 cases)").arg(kind).arg(cases),
           {ModelItem::Kind::Study, -1});
  tree_->expandAll();
  QTreeWidgetItem* again = findItem(keep);
  if (!again &&
      (keep.kind == ModelItem::Kind::Link || keep.kind == ModelItem::Kind::Joint || keep.kind == ModelItem::Kind::Payload ||
       keep.kind == ModelItem::Kind::Load || keep.kind == ModelItem::Kind::Constraint || keep.kind == ModelItem::Kind::Variant))
    again = findItem({keep.kind, keep.index - 1});
  tree_->setCurrentItem(again ? again : tree_->topLevelItem(0));
  filling_ = false;
  updateActions();
  if (!(current() == keep)) emit currentChanged(current());
}

QTreeWidgetItem* ModelTree::findItem(const ModelItem& item) const {
  if (item.kind == ModelItem::Kind::None) return nullptr;
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (itemOf(*it) == item) return *it;
  return nullptr;
}

ModelItem ModelTree::current() const { return itemOf(tree_->currentItem()); }

void ModelTree::select(const ModelItem& item) {
  if (QTreeWidgetItem* it = findItem(item)) tree_->setCurrentItem(it);
}

int ModelTree::selectedLink() const {
  const ModelItem c = current();
  return c.kind == ModelItem::Kind::Link || c.kind == ModelItem::Kind::Joint ? c.index : -1;
}

void ModelTree::updateActions() {
  const int link = selectedLink();
  const int links = doc_->json().contains("links") ? static_cast<int>(doc_->json()["links"].size()) : 0;
  const ModelItem::Kind kind = current().kind;
  action("insertLink")->setEnabled(link >= 0);
  action("addBranch")->setEnabled(link >= 0);
  action("duplicate")->setEnabled(link >= 0 || kind == ModelItem::Kind::Variant);
  action("remove")->setEnabled(link >= 0 || kind == ModelItem::Kind::Payload || kind == ModelItem::Kind::Load ||
                               kind == ModelItem::Kind::Constraint || kind == ModelItem::Kind::Variant);
  action("moveUp")->setEnabled(link > 0);
  action("moveDown")->setEnabled(link >= 0 && link + 1 < links);
  action("addPayload")->setEnabled(links > 0);
  action("addLoad")->setEnabled(links > 0);
  action("addConstraint")->setEnabled(links > 0);
}

void ModelTree::report(bool ok, const QString& error, const ModelItem& then) {
  if (!ok) {
    emit refused(error);
    return;
  }
  select(then);
}

void ModelTree::onAddLink() {
  QString error;
  const int n = doc_->json().contains("links") ? static_cast<int>(doc_->json()["links"].size()) : 0;
  report(edits::addLink(*doc_, -1, &error), error, {ModelItem::Kind::Link, n});
}

void ModelTree::onInsertLink() {
  QString error;
  const int at = std::max(selectedLink(), 0);
  report(edits::addLink(*doc_, at, &error), error, {ModelItem::Kind::Link, at});
}

void ModelTree::onAddBranch() {
  QString error;
  const int n = doc_->json().contains("links") ? static_cast<int>(doc_->json()["links"].size()) : 0;
  report(edits::addBranchLink(*doc_, selectedLink(), &error), error, {ModelItem::Kind::Joint, n});
}

void ModelTree::onDuplicate() {
  QString error;
  const ModelItem c = current();
  if (c.kind == ModelItem::Kind::Variant)
    return report(edits::duplicateVariant(*doc_, c.index, &error), error, {c.kind, c.index + 1});
  const int i = selectedLink();
  report(edits::duplicateLink(*doc_, i, &error), error, {ModelItem::Kind::Link, i + 1});
}

void ModelTree::onRemove() {
  QString error;
  const ModelItem c = current();
  if (c.kind == ModelItem::Kind::Payload)
    return report(edits::deletePayload(*doc_, c.index, &error), error, {c.kind, c.index - 1});
  if (c.kind == ModelItem::Kind::Load) return report(edits::deleteLoad(*doc_, c.index, &error), error, {c.kind, c.index - 1});
  if (c.kind == ModelItem::Kind::Constraint)
    return report(edits::deleteConstraint(*doc_, c.index, &error), error, {c.kind, std::max(c.index - 1, 0)});
  if (c.kind == ModelItem::Kind::Variant)
    return report(edits::deleteVariant(*doc_, c.index, &error), error, {c.kind, std::max(c.index - 1, 0)});
  const int link = selectedLink();
  report(edits::deleteLink(*doc_, link, &error), error, {ModelItem::Kind::Link, std::max(link - 1, 0)});
}

void ModelTree::onMoveUp() {
  QString error;
  const ModelItem c = current();
  report(edits::moveLink(*doc_, c.index, -1, &error), error, {c.kind, c.index - 1});
}

void ModelTree::onMoveDown() {
  QString error;
  const ModelItem c = current();
  report(edits::moveLink(*doc_, c.index, +1, &error), error, {c.kind, c.index + 1});
}

void ModelTree::onAddPayload() {
  QString error;
  const int links = static_cast<int>(doc_->json()["links"].size());
  const int link = selectedLink() >= 0 ? selectedLink() : links - 1;
  const int n = doc_->json().contains("payloads") ? static_cast<int>(doc_->json()["payloads"].size()) : 0;
  report(edits::addPayload(*doc_, link, &error), error, {ModelItem::Kind::Payload, n});
}

void ModelTree::onAddLoad() {
  QString error;
  const int links = static_cast<int>(doc_->json()["links"].size());
  const int link = selectedLink() >= 0 ? selectedLink() : links - 1;
  const int n = doc_->json().contains("loads") ? static_cast<int>(doc_->json()["loads"].size()) : 0;
  report(edits::addLoad(*doc_, link, &error), error, {ModelItem::Kind::Load, n});
}

void ModelTree::onAddConstraint() {
  QString error;
  const int n = doc_->json().contains("constraints") ? static_cast<int>(doc_->json()["constraints"].size()) : 0;
  report(edits::addConstraint(*doc_, &error), error, {ModelItem::Kind::Constraint, n});
}

void ModelTree::onAddVariant() {
  QString error;
  const int n = doc_->json().contains("variants") ? static_cast<int>(doc_->json()["variants"].size()) : 0;
  report(edits::addVariant(*doc_, &error), error, {ModelItem::Kind::Variant, n});
}

}  // namespace flexarm
