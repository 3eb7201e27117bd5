// The Help menu (issue 20, item 8), under xvfb-run: About names the version and the dependencies with
// their licences; the user guide shows the documentation's getting-started tutorial, its guide to the
// workbench and docs/project-format.md compiled into the program, with their pictures, each page with its
// headings to jump to and a search field; the shortcuts list every key of the menus and the 3D view's
// mouse; every menu shows its items' tooltips.
#include <QAction>
#include <QLineEdit>
#include <QListWidget>
#include <QDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QtTest>

#include "Version.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/workbench/HelpDialogs.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
// The row of the shortcuts table whose action is `what`: its keys ("" when absent).
QString keysOf(QTableWidget* table, const QString& what) {
  for (int r = 0; r < table->rowCount(); ++r)
    if (table->item(r, 0)->text() == what) return table->item(r, 1)->text();
  return {};
}

void saveShot(QWidget* w, const QString& name) {
  const QString dir = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QTest::qWait(200);
  w->grab().save(dir + "/" + name + ".png");
}
}  // namespace

class HelpTest : public QObject {
  Q_OBJECT
 private slots:
  void helpMenuOffersAboutGuideAndShortcuts() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMenu* help = nullptr;
    for (QAction* a : w.menuBar()->actions())
      if (a->text() == "&Help") help = a->menu();
    QVERIFY(help);
    QStringList names;
    for (QAction* a : help->actions()) {
      names << a->objectName();
      QVERIFY2(!a->toolTip().isEmpty() && a->toolTip() != QString(a->text()).remove('&'), qPrintable(a->text()));
    }
    QCOMPARE(names, QStringList({"help.guide", "help.shortcuts", "help.about"}));
    // Every menu of the menu bar, and every submenu, shows its items' tooltips.
    QList<QMenu*> menus;
    for (QAction* a : w.menuBar()->actions())
      if (a->menu()) menus << a->menu();
    for (int i = 0; i < menus.size(); ++i)
      for (QAction* a : menus[i]->actions())
        if (a->menu()) menus << a->menu();
    QVERIFY(menus.size() >= 9);  // File (Open Example, Open Recent, Export), Edit, Simulation, Compare, Analysis, View, Help
    for (QMenu* m : menus) QVERIFY2(m->toolTipsVisible(), qPrintable(m->title()));

    // About: the version, the dependencies and their licences.
    w.findChild<QAction*>("help.about")->trigger();
    auto* about = w.findChild<QMessageBox*>("help.aboutBox");
    QVERIFY(about && about->isVisible());
    for (const QString& s :
         {QString(kVersion), QString("VTK"), QString("SUNDIALS"), QString("QCustomPlot"), QString("Eigen"),
          QString("BSD-3-Clause"), QString("GPL-3.0"), QString("LGPL-3.0"), QString("MPL-2.0"), QString("urdfdom"),
          QString("console_bridge"), QString("TinyXML"), QString("zlib"), QString("matio")})
      QVERIFY2(about->text().contains(s), qPrintable(s));
    saveShot(about, "help-about");
    about->close();

    // The user guide: the tutorial, the workbench's guide and the project format, as shipped with this build.
    w.findChild<QAction*>("help.guide")->trigger();
    auto* guide = w.findChild<QDialog*>("help.guide");
    QVERIFY(guide && guide->isVisible());
    auto* tabs = guide->findChild<QTabWidget*>("guide.tabs");
    QCOMPARE(tabs->count(), 3);
    auto page = [tabs](int i) { return tabs->widget(i)->findChild<QTextBrowser*>("guide.text"); };
    const QString tutorial = page(0)->toPlainText(), workbench = page(1)->toPlainText(), format = page(2)->toPlainText();
    QVERIFY(tutorial.contains("Make the upper arm rigid") && tutorial.contains("Zero- against high-order coupling"));
    QVERIFY(workbench.contains("The window at a glance") && workbench.contains("Editing a model"));
    QVERIFY(format.contains("FlexArm project file format") && format.contains("solver.max_order"));
    for (const QString& text : {tutorial, workbench, format})  // plain Markdown: no comment or directive shown as text
      QVERIFY(!text.contains("<!--") && !text.contains("```{"));
    // Each page's pictures are shipped too, scaled to the guide's width.
    for (const auto& [i, at_least] : {std::pair<int, int>{0, 5}, {1, 4}}) {
      int images = 0;
      for (QTextBlock b = page(i)->document()->begin(); b.isValid(); b = b.next())
        for (QTextBlock::iterator it = b.begin(); !it.atEnd(); ++it) {
          const QTextImageFormat image = it.fragment().charFormat().toImageFormat();
          if (!image.isValid()) continue;
          const QImage picture =
              qvariant_cast<QImage>(page(i)->document()->resource(QTextDocument::ImageResource, QUrl(image.name())));
          QVERIFY2(!picture.isNull(), qPrintable(image.name()));
          QVERIFY(picture.width() <= 760 || (image.width() > 0 && image.width() <= 760));
          ++images;
        }
      QVERIFY2(images >= at_least, qPrintable(tabs->tabText(i)));
    }
    // The contents: the page's headings; choosing one puts the text there.
    auto* contents = tabs->widget(0)->findChild<QListWidget*>("guide.contents");
    QVERIFY(contents->count() >= 8);
    QList<QListWidgetItem*> step4 = contents->findItems("4. Zero- against high-order coupling", Qt::MatchContains);
    QCOMPARE(step4.size(), 1);
    emit contents->itemActivated(step4[0]);
    QCOMPARE(page(0)->textCursor().block().text(), QString("4. Zero- against high-order coupling"));
    // The search: Return finds the next match, and from the top again after the last.
    tabs->setCurrentIndex(1);
    auto* search = tabs->widget(1)->findChild<QLineEdit*>("guide.search");
    search->setText("Verify error estimate");
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(page(1)->textCursor().selectedText(), QString("Verify error estimate"));
    const int first = page(1)->textCursor().position();
    QTest::keyClick(search, Qt::Key_Return);
    QVERIFY(page(1)->textCursor().position() != first);
    for (int k = 0; k < 20 && page(1)->textCursor().position() != first; ++k) QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(page(1)->textCursor().position(), first);  // round again
    QVERIFY(guide->isVisible());                        // Return searched; it did not close the guide
    // A link to another page of the guide opens its tab.
    emit page(0)->anchorClicked(QUrl("guide/workbench.md"));
    QCOMPARE(tabs->currentIndex(), 1);
    saveShot(guide, "help-guide");
    guide->close();

    // The shortcuts: the menus' keys and the 3D view's mouse.
    w.findChild<QAction*>("help.shortcuts")->trigger();
    auto* shortcuts = w.findChild<QDialog*>("help.shortcuts");
    QVERIFY(shortcuts && shortcuts->isVisible());
    auto* table = shortcuts->findChild<QTableWidget*>("help.shortcutTable");
    QCOMPARE(keysOf(table, "Run"), QString("F5"));
    QCOMPARE(keysOf(table, "Pause"), QString("F6"));
    QCOMPARE(keysOf(table, "Stop"), QString("Shift+F5"));
    QCOMPARE(keysOf(table, "Open"), QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));
    QCOMPARE(keysOf(table, "Save"), QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
    QVERIFY(keysOf(table, "3D view: orbit").contains("drag"));
    saveShot(shortcuts, "help-shortcuts");
    shortcuts->close();
  }

  // F1 on a field of the Properties dock opens the guide on the project format's section about that field.
  void f1OnAFormFieldOpensItsSectionOfTheFormat() {
    QCOMPARE(formatSectionFor("links[1].flex.rayleigh"), QString("3.7"));
    QCOMPARE(formatSectionFor("links[0].flex.section.width"), QString("3.4"));
    QCOMPARE(formatSectionFor("links[0].flex.modes.bending_y"), QString("3.6.1"));
    QCOMPARE(formatSectionFor("joints[2].drive.setpoint.after"), QString("6"));
    QCOMPARE(formatSectionFor("joints[2].drive.kp"), QString("5"));
    QCOMPARE(formatSectionFor("simulation.solver.rho_inf"), QString("8"));
    QCOMPARE(formatSectionFor("name"), QString("1"));
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.openProject(QString(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json"));
    w.modelTree()->select({ModelItem::Kind::Link, 0});
    QWidget* rayleigh = w.propertyEditor()->field("links[0].flex.rayleigh");
    QVERIFY(rayleigh);
    rayleigh->setFocus();
    QTRY_VERIFY(rayleigh->hasFocus());
    QTest::keyClick(rayleigh, Qt::Key_F1);
    QDialog* guide = nullptr;
    QTRY_VERIFY((guide = w.findChild<QDialog*>("help.guide")) && guide->isVisible());
    auto* tabs = guide->findChild<QTabWidget*>("guide.tabs");
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QString("Project file format"));
    auto* text = tabs->currentWidget()->findChild<QTextBrowser*>("guide.text");
    QTRY_COMPARE(text->textCursor().block().text(), QString("3.7 Damping and initial deformation"));
    saveShot(guide, "help-guide-f1");
    guide->close();
    // F1 elsewhere (the 3D view) opens the guide as the menu does, on its first page.
    w.armView()->setFocus();
    QTest::keyClick(&w, Qt::Key_F1);
    QTRY_VERIFY(w.findChildren<QDialog*>("help.guide").size() >= 1);
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<HelpTest>(argc, argv); }
#include "test_help.moc"
