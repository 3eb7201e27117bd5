// File > Import URDF... (issue 18, item 1) as a user drives it under xvfb-run: the dialog offers the
// end of the chain and the leaves as tips, lists the links a joint moves, imports again at every
// change (a bad flexible spec is named and Import disabled), imports a branched tree whole or the chain
// to a tip chosen, and the imported robot opens untitled in the editor, where it stays editable.
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/UrdfImportDialog.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
QString urdf(const char* name) { return QString(FLEXARM_TEST_DATA_DIR) + "/urdf/" + name; }

bool importEnabled(const UrdfImportDialog& d) { return d.findChild<QPushButton*>("urdf.import")->isEnabled(); }

void saveDialogScreenshot(QWidget& dialog, const QString& name) {
  const QString dir = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QTest::qWait(200);
  if (dialog.grab().save(dir + "/" + name + ".png")) qInfo("screenshot %s/%s.png", qPrintable(dir), qPrintable(name));
}
}  // namespace

class UrdfImportTest : public QObject {
  Q_OBJECT
 private slots:
  void choosesTheTipAndTheFlexibleLinks() {
    UrdfImportDialog d(urdf("industrial-6dof.urdf"));
    d.show();
    QVERIFY(d.robotRead());
    QCOMPARE(d.tips().front(), QString());  // the end of the chain, as without --tip
    QVERIFY(d.tips().contains("tool0"));
    QCOMPARE(d.chainLinks(), QStringList({"link_1", "link_2", "link_3", "link_4", "link_5", "link_6"}));
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QVERIFY(importEnabled(d));
    QVERIFY(d.messages().contains("link \"link_1\": visual and collision geometry is ignored"));
    QVERIFY(d.specOf("link_2").startsWith("length=0.72,"));  // to the next joint

    QVERIFY(d.setFlexible("link_2", "section=tube:0.2:0.18,material=wood"));
    QVERIFY(!d.document());
    QVERIFY(!importEnabled(d));
    QVERIFY2(d.messages().contains("link \"link_2\": flexible link spec: material: unknown preset \"wood\""),
             qPrintable(d.messages()));
    QVERIFY(d.setFlexible("link_2", "length=0.72,section=tube:0.2:0.18,material=aluminium,basis=modes:2"));
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QCOMPARE((*d.document())["links"][1]["flex"]["material"]["preset"], Json("aluminium"));
    QVERIFY(d.commandLine().contains("--flexible link_2=length=0.72,section=tube:0.2:0.18,material=aluminium,basis=modes:2"));

    // Another tip keeps what was ticked: the chain to tool0 has the same links.
    QVERIFY(d.chooseTip("tool0"));
    QCOMPARE(d.chainLinks().size(), 6);
    QVERIFY(d.document());
    QCOMPARE((*d.document())["links"][1]["flex"]["basis"], Json("modes"));
    QVERIFY(d.commandLine().contains("--tip tool0"));
    QVERIFY(d.setFlexible("link_2", ""));
    QVERIFY(!(*d.document())["links"][1].contains("flex"));
  }

  void aBranchedTreeImportsWholeOrToOneTip() {
    QTemporaryDir dir;
    const QString file = dir.filePath("two-arms.urdf");
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const char* inertial =
        R"(<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)";
    f.write(QString(R"(<robot name="two_arms"><link name="torso"/>
      <joint name="left" type="continuous"><parent link="torso"/><child link="left_arm"/><axis xyz="0 0 1"/></joint>
      <link name="left_arm">%1</link>
      <joint name="right" type="continuous"><parent link="torso"/><child link="right_arm"/><axis xyz="0 0 1"/></joint>
      <link name="right_arm">%1</link></robot>)")
                .arg(inertial)
                .toUtf8());
    f.close();
    UrdfImportDialog d(file);
    // The whole tree first (no "end of the chain": it branches), then the leaves.
    QCOMPARE(d.tips(), QStringList({"", "left_arm", "right_arm"}));
    QCOMPARE(d.chainLinks(), QStringList({"left_arm", "right_arm"}));
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QCOMPARE((*d.document())["joints"][1]["parent"], Json("world"));  // both arms stand on the fixed torso
    QVERIFY(d.chooseTip("right_arm"));
    QCOMPARE(d.chainLinks(), QStringList({"right_arm"}));
    QVERIFY2(d.messages().contains("joint \"left\": is not on the chain to the tip: left out"), qPrintable(d.messages()));
  }

  // Issue 43.1: UR5's forearm runs along its frame's z. The dialog offers the distance to the wrist as
  // the beam's length (it offered 0.5 m), and a length that disagrees is shown with the numbers.
  void aFlexibleForearmRunsToTheWristAndALengthThatDisagreesIsShown() {
    UrdfImportDialog d(QString(FLEXARM_PROJECTS_DIR) + "/robots/ur5-like.urdf");
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QVERIFY2(d.specOf("forearm_link").startsWith("length=0.39225,"), qPrintable(d.specOf("forearm_link")));
    QVERIFY(d.setFlexible("forearm_link", d.specOf("forearm_link")));
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QCOMPARE((*d.document())["links"][2]["length"], Json(0.39225));
    QVERIFY2(!d.messages().contains("long as given"), qPrintable(d.messages()));
    QVERIFY(d.setFlexible("forearm_link", "length=0.5,section=tube:0.063:0.055,material=aluminium,basis=modes:2"));
    QVERIFY2(d.document(), qPrintable(d.messages()));
    QVERIFY2(d.messages().contains("warning: link \"forearm_link\": the beam is 0.5 m long as given, but joint "
                                   "\"wrist_1_joint\" is 0.39225 m away"),
             qPrintable(d.messages()));
    QVERIFY(d.findChild<QLabel*>("urdf.messages")->text().contains("0.5 m long as given"));
  }

  // Issue 45 F1: a file nested 40 000 deep crashed the workbench; now the dialog names the line.
  void aFileNestedTooDeepIsRefusedNamingTheLine() {
    QTemporaryDir dir;
    QFile f(dir.filePath("deep.urdf"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<robot name=\"r\">\n");
    for (int k = 0; k < 40000; ++k) f.write("<a>");
    for (int k = 0; k < 40000; ++k) f.write("</a>");
    f.write("</robot>\n");
    f.close();
    UrdfImportDialog d(f.fileName());
    QVERIFY(!d.robotRead());
    QVERIFY(!importEnabled(d));
    QVERIFY2(d.messages().contains("line 2: not read as a URDF: elements nested more than 200 levels deep"),
             qPrintable(d.messages()));
  }

  void anUnreadableFileIsNamed() {
    QTemporaryDir dir;
    QFile f(dir.filePath("broken.urdf"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<robot name=\"r\">\n<link name=\"a\">\n</robot>\n");
    f.close();
    UrdfImportDialog d(f.fileName());
    QVERIFY(!d.robotRead());
    QVERIFY(!d.document());
    QVERIFY(!importEnabled(d));
    QVERIFY2(d.messages().contains("not well-formed XML"), qPrintable(d.messages()));
  }

  void theImportedRobotOpensUntitledAndEditable() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    bool seen = false;
    QTimer::singleShot(0, [&] {
      auto* d = qobject_cast<UrdfImportDialog*>(QApplication::activeModalWidget());
      if (!d) return;
      seen = true;
      d->setFlexible("link_2", "length=0.72,section=tube:0.2:0.18,material=aluminium,basis=modes:2");
      saveDialogScreenshot(*d, "urdf-import");
      d->findChild<QPushButton*>("urdf.import")->click();
    });
    QVERIFY(w.importUrdf(urdf("industrial-6dof.urdf")));
    QVERIFY(seen);
    ProjectDocument& doc = *w.document();
    QVERIFY(doc.path().isEmpty());  // untitled: the first Save asks where
    QCOMPARE(doc.project()->model.links.size(), std::size_t(6));
    QVERIFY(doc.project()->model.links[1].flex.has_value());
    QCOMPARE(*doc.project()->model.joints[1].limits.lower, -3.316);
    // Everything stays editable: a drive, a limit, the beam's section; and undo.
    QVERIFY(doc.setValue("joints[0].drive", Json({{"type", "effort"}, {"law", "constant"}, {"value", 50.0}})));
    QVERIFY(doc.setValue("joints[1].limits.upper", 0.5));
    QCOMPARE(*doc.project()->model.joints[1].limits.upper, 0.5);
    QString error;
    QVERIFY(!doc.setValue("joints[1].limits.upper", -4.0, &error));  // below lower: refused with the loader's message
    QVERIFY2(error.contains("joints[1].limits.upper: must be >= lower"), qPrintable(error));
    QVERIFY(doc.setValue("links[1].flex.section.outer_diameter", 0.22));
    QVERIFY(doc.isDirty());
    doc.undo();
    QCOMPARE(doc.json()["links"][1]["flex"]["section"]["outer_diameter"], Json(0.2));
    test::saveScreenshot(w, "urdf-imported");
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<UrdfImportTest>(argc, argv); }
#include "test_urdf_import_dialog.moc"
