#include "ui/workbench/HelpDialogs.hpp"

#include <QAction>
#include <QDialog>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSplitter>
#include <QAbstractTextDocumentLayout>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <vector>

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

namespace {
// One page of the guide: its contents (the headings, to jump to) beside the text, and a search field
// above it (Return finds the next match, from the top again after the last).
struct GuidePage {
  QString title;
  QString file;  // the compiled-in Markdown, under :/guide
};

QWidget* makeGuidePage(const GuidePage& page, QTabWidget* tabs, const std::vector<GuidePage>& pages) {
  auto* text = new QTextBrowser;
  text->setObjectName("guide.text");
  text->setOpenLinks(false);
  const QString dir = QFileInfo(page.file).path();
  text->setSearchPaths({dir});  // the page's pictures, compiled in beside it as in docs/
  QFile f(page.file);
  text->setMarkdown(f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : "Not found in this build: " + page.file);
  fitImages(text, 760);

  // A link to another page of the guide opens its tab; to a page of the documentation site, the site as
  // built or installed beside the program, in the browser; to the web, the browser.
  QObject::connect(text, &QTextBrowser::anchorClicked, text, [text, tabs, pages, dir](const QUrl& url) {
    if (!url.scheme().isEmpty()) {
      QDesktopServices::openUrl(url);
      return;
    }
    if (url.path().isEmpty()) {
      text->scrollToAnchor(url.fragment());
      return;
    }
    const QString target = QDir::cleanPath(dir + "/" + url.path());
    for (std::size_t i = 0; i < pages.size(); ++i)
      if (pages[i].file == target) {
        tabs->setCurrentIndex(static_cast<int>(i));
        return;
      }
    QString relative = target.mid(QString(":/guide/docs/").size());
    relative.replace(QRegularExpression("\\.(md|rst)$"), ".html");
    const QString bin = QCoreApplication::applicationDirPath();
    for (const QString& site : {bin + "/../share/doc/flexarm/html", bin + "/../docs/html"})
      if (QFileInfo::exists(site + "/" + relative)) {
        QUrl local = QUrl::fromLocalFile(QDir::cleanPath(site + "/" + relative));
        local.setFragment(url.fragment());
        QDesktopServices::openUrl(local);
        return;
      }
  });

  auto* contents = new QListWidget;
  contents->setObjectName("guide.contents");
  for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next()) {
    const int level = b.blockFormat().headingLevel();
    if (level < 1 || level > 4 || b.text().trimmed().isEmpty()) continue;
    auto* item = new QListWidgetItem(QString(2 * (level - 1), ' ') + b.text().trimmed(), contents);
    item->setData(Qt::UserRole, b.position());
  }
  QObject::connect(contents, &QListWidget::itemActivated, text, [text](QListWidgetItem* item) {
    QTextCursor c(text->document());
    c.setPosition(item->data(Qt::UserRole).toInt());
    text->setTextCursor(c);
    // The heading at the top of the view, not merely somewhere in it.
    text->verticalScrollBar()->setValue(static_cast<int>(text->document()->documentLayout()->blockBoundingRect(c.block()).top()));
  });
  QObject::connect(contents, &QListWidget::itemClicked, contents, &QListWidget::itemActivated);

  auto* search = new QLineEdit;
  search->setObjectName("guide.search");
  search->setPlaceholderText("Find in this page (Return: next match)");
  search->setClearButtonEnabled(true);
  QObject::connect(search, &QLineEdit::returnPressed, text, [text, search] {
    const QString term = search->text();
    if (term.isEmpty()) return;
    if (!text->find(term)) {  // from the top again
      text->moveCursor(QTextCursor::Start);
      if (!text->find(term)) search->setToolTip("\"" + term + "\" is not on this page");
    }
  });

  auto* split = new QSplitter;
  split->addWidget(contents);
  split->addWidget(text);
  split->setStretchFactor(1, 1);
  split->setSizes({220, 780});
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(search);
  layout->addWidget(split, 1);
  return box;
}
}  // namespace

QString formatSectionFor(const QString& path) {
  static const std::vector<std::pair<QString, QString>> sections = {
      {"coupling", "3.8"},
      {"links[]", "3"},
      {"links[].shape", "3.1"},
      {"links[].com", "3.2"},
      {"links[].inertia", "3.2"},
      {"links[].flex", "3.3"},
      {"links[].flex.section", "3.4"},
      {"links[].flex.material", "3.5"},
      {"links[].flex.basis", "3.6"},
      {"links[].flex.modes", "3.6.1"},
      {"links[].flex.elements", "3.6.2"},
      {"links[].flex.layout", "3.6.2"},
      {"links[].flex.nodes", "3.6.2"},
      {"links[].flex.reduce_to", "3.6.2"},
      {"links[].flex.root", "3.6.2"},
      {"links[].flex.rayleigh", "3.7"},
      {"links[].flex.modal_damping", "3.7"},
      {"links[].flex.e0", "3.7"},
      {"links[].flex.ed0", "3.7"},
      {"links[].flex.initial_load", "3.7"},
      {"joints[]", "4"},
      {"joints[].flex", "4.1"},
      {"joints[].limits", "4.2"},
      {"joints[].drive", "5"},
      {"joints[].drive.setpoint", "6"},
      {"payloads[]", "7"},
      {"constraints[]", "7.1"},
      {"loads[]", "7.2"},
      {"loads[].law", "6"},
      {"simulation", "8"},
      {"simulation.divergence_ratio", "8.1"},
      {"variants", "8.2"},
      {"study", "8.2"},
      {"simulation.accuracy", "8.3"},
      {"simulation.solver.method", "8.3"},
  };
  QString key = path;
  key.replace(QRegularExpression("\\[\\d+\\]"), "[]");
  QString best = "1", best_prefix;
  for (const auto& [prefix, section] : sections) {
    const bool under = key == prefix || key.startsWith(prefix + ".") || key.startsWith(prefix + "[");
    if (under && prefix.size() > best_prefix.size()) {
      best = section;
      best_prefix = prefix;
    }
  }
  return best;
}

QDialog* makeUserGuide(QWidget* parent, const QString& field_path) {
  registerUserGuide();
  auto* tabs = new QTabWidget;
  tabs->setObjectName("guide.tabs");
  const std::vector<GuidePage> pages = {{"Getting started", ":/guide/docs/getting-started.md"},
                                        {"The workbench", ":/guide/docs/guide/workbench.md"},
                                        {"Project file format", ":/guide/docs/project-format.md"}};
  for (const GuidePage& page : pages) tabs->addTab(makeGuidePage(page, tabs, pages), page.title);
  QDialog* d = dialog(parent, "FlexArm user guide", tabs, {1100, 760});
  d->setObjectName("help.guide");
  // F1 on a form field: the format's section about it, once the dialog is laid out.
  if (!field_path.isEmpty()) {
    const int format = static_cast<int>(pages.size()) - 1;
    tabs->setCurrentIndex(format);
    auto* contents = tabs->widget(format)->findChild<QListWidget*>("guide.contents");
    const QString number = formatSectionFor(field_path) + (formatSectionFor(field_path).contains('.') ? " " : ". ");
    for (int i = 0; i < contents->count(); ++i)
      if (contents->item(i)->text().trimmed().startsWith(number)) {
        QListWidgetItem* item = contents->item(i);
        contents->setCurrentItem(item);
        QTimer::singleShot(0, contents, [contents, item] { emit contents->itemActivated(item); });
        break;
      }
  }
  // Return in a search field finds the next match; it must not press Close, the dialog's default button.
  for (QPushButton* b : d->findChildren<QPushButton*>()) {
    b->setAutoDefault(false);
    b->setDefault(false);
  }
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
