#include "ui/editor/UrdfImportDialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <map>

#include "base/NumberFormat.hpp"

namespace flexarm {

namespace {

enum Column { LinkColumn, JointColumn, FlexibleColumn, SpecColumn };

// A flexible link's first spec: a beam to the next joint (or 0.5 m) of an aluminium tube, two
// bending modes each way; every value stays editable in the dialog and afterwards in the editor.
QString defaultSpec(double next_distance) {
  return QString("length=%1,section=tube:0.08:0.072,material=aluminium,basis=modes:2")
      .arg(QString::fromStdString(formatNumber(next_distance > 0.0 ? next_distance : 0.5)));
}

QString shellQuoted(const QString& s) {
  static const QRegularExpression plain("^[A-Za-z0-9_./:=,+-]+$");
  if (plain.match(s).hasMatch()) return s;
  QString q = s;
  return "'" + q.replace("'", "'\\''") + "'";
}

}  // namespace

UrdfImportDialog::UrdfImportDialog(const QString& urdf_file, QWidget* parent) : QDialog(parent), file_(urdf_file) {
  setObjectName("UrdfImportDialog");
  setWindowTitle("Import URDF - " + QFileInfo(urdf_file).fileName());
  robot_ = UrdfRobot::read(urdf_file.toStdString(), diagnostics_);

  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  auto* robot = new QLabel(
      robot_ ? QString("%1 (root link %2)").arg(QString::fromStdString(robot_->name()), QString::fromStdString(robot_->root()))
             : QString("cannot be read"));
  form->addRow("robot:", robot);
  name_ = new QLineEdit(robot_ ? QString::fromStdString(robot_->name()) : QString());
  name_->setObjectName("urdf.name");
  form->addRow("project name:", name_);
  tip_ = new QComboBox;
  tip_->setObjectName("urdf.tip");
  tip_->setToolTip("The last link of the chain imported from the root link (flexarm-cli import-urdf --tip)");
  form->addRow("tip link:", tip_);
  layout->addLayout(form);

  auto* hint = new QLabel(
      "Tick a link to make it a flexible beam from its joint to the next joint. Its spec: length=L [m], "
      "section=rectangle:W:H, "
      "tube:D:d, ibeam:B:H:TF:TW or A:Iy:Iz:J, material=steel, aluminium, cfrp or E:G:RHO, "
      "basis=modes:N, modes:A:BY:BZ:T, fem:N or fem:N:planar.");
  hint->setWordWrap(true);
  layout->addWidget(hint);
  links_ = new QTableWidget(0, 4);
  links_->setObjectName("urdf.links");
  links_->setHorizontalHeaderLabels({"link", "joint", "flexible", "flexible link spec"});
  links_->horizontalHeader()->setSectionResizeMode(SpecColumn, QHeaderView::Stretch);
  links_->verticalHeader()->hide();
  layout->addWidget(links_, 1);

  messages_ = new QLabel;
  messages_->setObjectName("urdf.messages");
  messages_->setWordWrap(true);
  messages_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(messages_);
  command_ = new QLabel;
  command_->setObjectName("urdf.command");
  command_->setWordWrap(true);
  command_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(command_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  import_ = buttons->addButton("Import", QDialogButtonBox::AcceptRole);
  import_->setObjectName("urdf.import");
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(820, 560);

  if (robot_) {
    const std::string branching = robot_->branchingLink();
    if (branching.empty()) {
      Diagnostics ignored;
      if (const auto chain = robot_->chain("", ignored); chain && !chain->empty())
        tip_->addItem(QString("end of the chain (%1)").arg(QString::fromStdString(chain->back().link)), QString());
    } else {  // the whole tree, or the chain to one leaf
      tip_->addItem(QString("the whole tree (it branches at %1)").arg(QString::fromStdString(branching)), QString());
    }
    for (const std::string& leaf : robot_->leaves()) tip_->addItem(QString::fromStdString(leaf), QString::fromStdString(leaf));
    connect(tip_, &QComboBox::currentIndexChanged, this, [this] { fillChain(); });
    connect(name_, &QLineEdit::textChanged, this, [this] { importAgain(); });
    connect(links_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
      if (item->column() == FlexibleColumn || item->column() == SpecColumn) importAgain();
    });
    fillChain();
  } else {
    tip_->setEnabled(false);
    name_->setEnabled(false);
    importAgain();
  }
}

QStringList UrdfImportDialog::tips() const {
  QStringList out;
  for (int i = 0; i < tip_->count(); ++i) out << tip_->itemData(i).toString();
  return out;
}

bool UrdfImportDialog::chooseTip(const QString& link) {
  const int i = tip_->findData(link);
  if (i < 0) return false;
  tip_->setCurrentIndex(i);
  return true;
}

QStringList UrdfImportDialog::chainLinks() const {
  QStringList out;
  for (int r = 0; r < links_->rowCount(); ++r) out << links_->item(r, LinkColumn)->text();
  return out;
}

bool UrdfImportDialog::setFlexible(const QString& link, const QString& spec) {
  const int r = chainLinks().indexOf(link);
  if (r < 0) return false;
  const QSignalBlocker block(links_);
  if (!spec.isEmpty()) links_->item(r, SpecColumn)->setText(spec);
  links_->item(r, FlexibleColumn)->setCheckState(spec.isEmpty() ? Qt::Unchecked : Qt::Checked);
  importAgain();
  return true;
}

QString UrdfImportDialog::specOf(const QString& link) const {
  const int r = chainLinks().indexOf(link);
  return r < 0 ? QString() : links_->item(r, SpecColumn)->text();
}

void UrdfImportDialog::fillChain() {
  // What was ticked and typed stays with its link when the tip changes.
  std::map<QString, std::pair<bool, QString>> kept;
  for (int r = 0; r < links_->rowCount(); ++r)
    kept[links_->item(r, LinkColumn)->text()] = {links_->item(r, FlexibleColumn)->checkState() == Qt::Checked,
                                                 links_->item(r, SpecColumn)->text()};
  const QSignalBlocker block(links_);
  links_->setRowCount(0);
  Diagnostics ignored;
  const auto chain = robot_->chain(tip_->currentData().toString().toStdString(), ignored);
  for (const UrdfChainLink& c : chain.value_or(std::vector<UrdfChainLink>{})) {
    const int r = links_->rowCount();
    links_->insertRow(r);
    const QString link = QString::fromStdString(c.link);
    auto* name = new QTableWidgetItem(link);
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    links_->setItem(r, LinkColumn, name);
    auto* joint = new QTableWidgetItem(QString::fromStdString(c.joint));
    joint->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    links_->setItem(r, JointColumn, joint);
    const auto k = kept.find(link);
    auto* flexible = new QTableWidgetItem;
    flexible->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    flexible->setCheckState(k != kept.end() && k->second.first ? Qt::Checked : Qt::Unchecked);
    links_->setItem(r, FlexibleColumn, flexible);
    links_->setItem(r, SpecColumn, new QTableWidgetItem(k != kept.end() ? k->second.second : defaultSpec(c.next_distance)));
  }
  links_->resizeColumnsToContents();
  links_->horizontalHeader()->setSectionResizeMode(SpecColumn, QHeaderView::Stretch);
  importAgain();
}

void UrdfImportDialog::importAgain() {
  document_.reset();
  if (robot_) {
    diagnostics_ = Diagnostics();
    UrdfImportOptions options;
    options.tip = tip_->currentData().toString().toStdString();
    options.name = name_->text().trimmed().toStdString();
    for (int r = 0; r < links_->rowCount(); ++r) {
      if (links_->item(r, FlexibleColumn)->checkState() != Qt::Checked) continue;
      const QString link = links_->item(r, LinkColumn)->text();
      Result<FlexibleLinkSpec> spec = parseFlexibleLinkSpec((link + "=" + links_->item(r, SpecColumn)->text()).toStdString());
      if (spec)
        options.flexible.push_back(std::move(spec.value()));
      else
        diagnostics_.error("link \"" + link.toStdString() + "\"", "flexible link spec: " + spec.error().text());
    }
    if (!diagnostics_.hasErrors()) document_ = robot_->toProject(options, diagnostics_);
  }
  QStringList errors, warnings;
  for (const Diagnostic& d : diagnostics_.all())
    (d.severity == Diagnostic::Severity::Error ? errors : warnings) << QString::fromStdString(d.text()).toHtmlEscaped();
  QString html;
  if (!errors.isEmpty()) html += "<span style='color:#b00020'>" + errors.join("<br>") + "</span>";
  if (!warnings.isEmpty()) html += (html.isEmpty() ? "" : "<br>") + warnings.join("<br>");
  if (document_)
    html = QString("<b>%1 links</b> will be imported; drives, payloads and run settings are yours to add.%2")
               .arg((*document_)["links"].size())
               .arg(html.isEmpty() ? QString() : "<br>" + html);
  messages_->setText(html);
  import_->setEnabled(document_.has_value());
  command_->setText("<small>Same as: <tt>" + commandLine().toHtmlEscaped() + "</tt></small>");
}

QString UrdfImportDialog::messages() const {
  QStringList out;
  for (const Diagnostic& d : diagnostics_.all()) out << QString::fromStdString(d.text());
  return out.join("\n");
}

QString UrdfImportDialog::commandLine() const {
  QString cmd = "flexarm-cli import-urdf " + shellQuoted(file_) + " --out " +
                shellQuoted(QFileInfo(file_).completeBaseName() + ".flexarm.json");
  const QString tip = tip_->currentData().toString();
  if (!tip.isEmpty()) cmd += " --tip " + shellQuoted(tip);
  for (int r = 0; r < links_->rowCount(); ++r)
    if (links_->item(r, FlexibleColumn)->checkState() == Qt::Checked)
      cmd += " --flexible " + shellQuoted(links_->item(r, LinkColumn)->text() + "=" + links_->item(r, SpecColumn)->text());
  if (robot_ && name_->text().trimmed() != QString::fromStdString(robot_->name()))
    cmd += " --name " + shellQuoted(name_->text().trimmed());
  return cmd;
}

}  // namespace flexarm
