#include "ui/workbench/HelpDialogs.hpp"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QKeySequence>
#include <QSet>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QUrl>
#include <QVBoxLayout>

#include "Version.hpp"

// The guide's resources live in a static library: registered before their first use.
static void registerUserGuide() { Q_INIT_RESOURCE(user_guide); }

namespace flexarm {
namespace {
// Scales the document's images down to at most `width` px wide (screenshots are larger than the guide).
void fitImages(QTextBrowser* text, int width) {
  QTextCursor cursor(text->document());
  for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next())
    for (QTextBlock::iterator it = b.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      QTextImageFormat image = fragment.charFormat().toImageFormat();
      if (!image.isValid()) continue;
      const QImage picture = qvariant_cast<QImage>(text->document()->resource(QTextDocument::ImageResource, QUrl(image.name())));
      if (picture.isNull() || picture.width() <= width) continue;
      image.setWidth(width);
      image.setHeight(picture.height() * width / picture.width());
      cursor.setPosition(fragment.position());
      cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
      cursor.setCharFormat(image);
    }
}

QDialog* dialog(QWidget* parent, const QString& title, QWidget* body, const QSize& size) {
  auto* d = new QDialog(parent);
  d->setWindowTitle(title);
  d->setAttribute(Qt::WA_DeleteOnClose);
  body->setParent(d);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
  QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
  auto* layout = new QVBoxLayout(d);
  layout->addWidget(body, 1);
  layout->addWidget(buttons);
  d->resize(size);
  return d;
}
}  // namespace

QString aboutText() {
  return QString(
             "<h3>FlexArm %1</h3>"
             "<p>A workbench for the dynamics of flexible robot arms: flexible links and joints, zero-, "
             "geometric- and high-order rigid-flexible coupling, constraints, studies and comparisons.</p>"
             "<p>Built on these libraries (Debian packages), each under its own licence:</p>"
             "<table cellspacing='4'>"
             "<tr><td>Qt %2</td><td>LGPL-3.0 (GPL-3.0 for some modules)</td></tr>"
             "<tr><td>VTK 9</td><td>BSD-3-Clause</td></tr>"
             "<tr><td>QCustomPlot 2</td><td>GPL-3.0</td></tr>"
             "<tr><td>SUNDIALS 6 (CVODE, IDA, ARKODE)</td><td>BSD-3-Clause</td></tr>"
             "<tr><td>Eigen 3</td><td>MPL-2.0</td></tr>"
             "<tr><td>nlohmann/json 3</td><td>MIT</td></tr>"
             "<tr><td>CLI11 (flexarm-cli)</td><td>BSD-3-Clause</td></tr>"
             "<tr><td>urdfdom and console_bridge (URDF import)</td><td>BSD-3-Clause</td></tr>"
             "<tr><td>TinyXML 2.6 (URDF import)</td><td>zlib</td></tr>"
             "<tr><td>matio (MATLAB files)</td><td>BSD-2-Clause</td></tr>"
             "<tr><td>HDF5 (under matio)</td><td>BSD-3-Clause (HDF5 licence)</td></tr>"
             "</table>"
             "<p>QCustomPlot's GPL-3.0 applies to the program as distributed with it.</p>")
      .arg(kVersion, qVersion());
}

QDialog* makeUserGuide(QWidget* parent) {
  registerUserGuide();
  auto* tabs = new QTabWidget;
  tabs->setObjectName("guide.tabs");
  for (const auto& [title, file] : {std::pair<QString, QString>{"User guide (README)", ":/guide/README.md"},
                                    std::pair<QString, QString>{"Project file format", ":/guide/docs/project-format.md"}}) {
    auto* text = new QTextBrowser;
    text->setOpenExternalLinks(true);
    text->setSearchPaths({":/guide"});  // the README's screenshots, compiled in beside it
    QFile f(file);
    text->setMarkdown(f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : "Not found in this build: " + file);
    fitImages(text, 760);
    tabs->addTab(text, title);
  }
  QDialog* d = dialog(parent, "FlexArm user guide", tabs, {900, 700});
  d->setObjectName("help.guide");
  return d;
}

QDialog* makeShortcutsDialog(QWidget* window) {
  auto* table = new QTableWidget(0, 2);
  table->setObjectName("help.shortcutTable");
  table->setHorizontalHeaderLabels({"Action", "Keys or mouse"});
  table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  table->verticalHeader()->setVisible(false);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto add = [table](const QString& what, const QString& keys) {
    const int row = table->rowCount();
    table->insertRow(row);
    table->setItem(row, 0, new QTableWidgetItem(what));
    table->setItem(row, 1, new QTableWidgetItem(keys));
  };
  QSet<QString> seen;
  for (QAction* a : window->findChildren<QAction*>()) {
    if (a->shortcut().isEmpty()) continue;
    const QString what = QString(a->text()).remove('&').remove("...");
    const QString keys = a->shortcut().toString(QKeySequence::NativeText);
    if (seen.contains(what + keys)) continue;
    seen.insert(what + keys);
    add(what, keys);
  }
  add("3D view: orbit", "left drag");
  add("3D view: pan", "middle drag, or Shift + left drag");
  add("3D view: zoom", "wheel, or right drag");
  QDialog* d = dialog(window, "Keyboard shortcuts", table, {520, 560});
  d->setObjectName("help.shortcuts");
  return d;
}

}  // namespace flexarm
