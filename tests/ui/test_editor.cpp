// The model editor as a user drives it (Qt Test, under xvfb-run): build the seed 004 RRR arm from an
// empty project in the editor's widgets, with its variants and study, save it and compare it with the
// shipped project, run both; undo the whole build step by step and redo it; rebuild the constraints of
// the sliding beam (seed 003) and the other constraint types; invalid inputs (values, overrides,
// constraints, study) are refused with the loader's message; undo/redo of every variant, study and
// constraint edit; structure edits keep references; dirty marker, unsaved-changes prompt, autosave
// and recovery after the process is killed.
#include <signal.h>
#include <sys/stat.h>

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <map>

#include "base/Constants.hpp"
#include "io/ProjectFile.hpp"
#include "results/Results.hpp"
#include "solvers/Simulation.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/analysis/StaticDialog.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/document/AutoSave.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/document/ModelEdits.hpp"
#include "ui/editor/ModelTree.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/editor/PropertyEditor.hpp"
#include "ui/editor/VariantPanels.hpp"

using namespace flexarm;
using flexarm::test::choose;
using flexarm::test::combo;
using flexarm::test::copyOfExample;
using flexarm::test::lineEdit;
using flexarm::test::nonBackgroundPixels;
using flexarm::test::type;
using Kind = ModelItem::Kind;

namespace {
const char* kSeed004 = "spatial-rrr-flexible-seed004.flexarm.json";
QString example(const char* name) { return QString(FLEXARM_PROJECTS_DIR) + "/" + name; }

// The project as the loader reads it, in canonical JSON: model, variants and study.
Json canonical(const Project& p) { return projectToJson(p); }

Project load(const QString& path) {
  LoadedProject l = loadProjectFile(path.toStdString());
  if (!l.project) qWarning("%s", l.diagnostics.text().c_str());
  return l.project ? *l.project : Project{};
}

// A panel of the property form (a variant's override table, the study grid or list).
PathTable* pathTable(MainWindow& w, const QString& path) { return qobject_cast<PathTable*>(w.propertyEditor()->field(path)); }

// Types text into a cell of a table as a user does: open the cell's editor, replace, Return.
bool typeCell(QTableWidget* t, int row, int col, const QString& text) {
  QTableWidgetItem* item = t->item(row, col);
  if (!item) return false;
  t->setCurrentCell(row, col);
  t->editItem(item);
  auto* e = qobject_cast<QLineEdit*>(t->indexWidget(t->model()->index(row, col)));  // the cell's open editor
  if (!e) {
    qWarning("no cell editor at %d, %d", row, col);
    return false;
  }
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
  // The delegate commits and closes the editor from the event loop (a queued call).
  const QModelIndex index = t->model()->index(row, col);
  QElapsedTimer waited;
  waited.start();
  while (t->indexWidget(index) && waited.elapsed() < 5000) QCoreApplication::processEvents();
  return !t->indexWidget(index);
}

// Adds a row (path, value) in the last (new) row of the table panel `panel`; true when accepted.
bool addRow(MainWindow& w, const QString& panel, const QString& path, const QString& value) {
  PathTable* p = pathTable(w, panel);
  if (!p) {
    qWarning("no table %s among %s", qPrintable(panel), qPrintable(w.propertyEditor()->paths().join(" ")));
    return false;
  }
  const int last = p->table()->rowCount() - 1;
  if (!typeCell(p->table(), last, 0, path) || !typeCell(pathTable(w, panel)->table(), last, 1, value)) return false;
  return w.propertyEditor()->fieldError(panel).isEmpty();
}

// Replaces the text of cell (row, col) of an existing row; true when accepted.
bool editRow(MainWindow& w, const QString& panel, int row, int col, const QString& text) {
  PathTable* p = pathTable(w, panel);
  return p && typeCell(p->table(), row, col, text) && w.propertyEditor()->fieldError(panel).isEmpty();
}

// Pastes "path=value" lines into the variant's box and presses Add lines; true when accepted.
bool addLines(MainWindow& w, const QString& panel, const QString& lines) {
  PathTable* p = pathTable(w, panel);
  if (!p || !p->linesBox()) return false;
  p->linesBox()->setPlainText(lines);
  QTest::mouseClick(p->addLinesButton(), Qt::LeftButton);
  return w.propertyEditor()->fieldError(panel).isEmpty();
}

// The rows of a table panel as "path = value" (the new row left out).
QStringList tableRows(MainWindow& w, const QString& panel) {
  QStringList out;
  PathTable* p = pathTable(w, panel);
  for (int r = 0; p && r + 1 < p->table()->rowCount(); ++r)
    out << p->table()->item(r, 0)->text() + " = " + p->table()->item(r, 1)->text();
  return out;
}

QListWidget* studyList(MainWindow& w) {
  auto* panel = qobject_cast<StudyVariantList*>(w.propertyEditor()->field("study.variants"));
  return panel ? panel->list() : nullptr;
}

// Checks or unchecks a variant in the study's list as a click on its box does.
void setChecked(QListWidget* list, const QString& name, bool on) {
  const QList<QListWidgetItem*> found = list->findItems(name, Qt::MatchExactly);
  QVERIFY2(found.size() == 1, qPrintable(name));
  found[0]->setCheckState(on ? Qt::Checked : Qt::Unchecked);
}

bool trigger(MainWindow& w, const char* action) {
  QAction* a = w.modelTree()->action(action);
  if (!a || !a->isEnabled()) return false;
  a->trigger();
  return true;
}

// Answers the window's questions with `answer` and records them.
struct Answers {
  int answer = 0;
  QStringList asked;
  void install(MainWindow& w) {
    w.setQuestionHandler([this](const QString& title, const QString& text, int) {
      asked << title + ": " + text;
      return answer;
    });
  }
};

// Undoes every command of the document's stack, checking that each brings back the state recorded
// before it (states[i]: the document at stack index i); false, with the command named, when one does not.
bool undoEverything(ProjectDocument& doc, std::map<int, Json>& states) {
  for (int i = doc.undoStack()->count() - 1; i >= 0; --i) {
    doc.undo();
    if (doc.json() != states[i]) {
      qWarning("after undoing %s the document is not what it was", qPrintable(doc.undoStack()->text(i)));
      return false;
    }
  }
  return true;
}

// Redoes the n commands undone, checking each against the state recorded after it.
bool redoEverything(ProjectDocument& doc, std::map<int, Json>& states, int n) {
  for (int i = 1; i <= n; ++i) {
    doc.redo();
    if (doc.json() != states[i]) {
      qWarning("after redoing %s the document is not what it was", qPrintable(doc.undoStack()->text(i - 1)));
      return false;
    }
  }
  return true;
}

}  // namespace

class EditorTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {  // no recovery file from an earlier test offers itself (the directory is runUiTests's)
    const QString recovery = qEnvironmentVariable("FLEXARM_RECOVERY_DIR");
    QVERIFY(!recovery.isEmpty());
    QDir(recovery).removeRecursively();
    QDir().mkpath(recovery);
  }

  void documentEditsUndoRedoAndRefusals() {
    QTemporaryDir dir;
    ProjectDocument doc;
    QString error;
    QVERIFY2(doc.open(copyOfExample(dir, kSeed004), &error), qPrintable(error));
    const Json original = doc.json();
    QVERIFY(!doc.isDirty());
    QVERIFY(doc.setValue("links[1].flex.material.E", 7e10, &error, "Pa"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Set Young's modulus E of link 'link2' to 7e+10 Pa"));
    QCOMPARE(doc.project()->model.links[1].flex->material.E, 7e10);
    QVERIFY(doc.isDirty());
    // Refused: the loader's message, with its path; nothing changes and nothing is pushed.
    const Json edited = doc.json();
    QVERIFY(!doc.setValue("links[2].flex.material.E", 0.0, &error));
    QVERIFY2(error.startsWith("links[2].flex.material.E: must be > 0"), qPrintable(error));
    QVERIFY(!doc.setValue("links[0].length", -1.0, &error));
    QVERIFY2(error.contains("links[0].length") && error.contains("-1"), qPrintable(error));
    QVERIFY(!doc.setValue("links[0].length", std::nan(""), &error));
    QVERIFY2(error.contains("links[0].length"), qPrintable(error));
    QVERIFY(!doc.setValue("joints[0].axis", Json::array({0.0, 0.0, 0.0}), &error));
    QVERIFY2(error.contains("joints[0].axis: must not be the zero vector"), qPrintable(error));
    QCOMPARE(doc.json(), edited);
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undo();
    QCOMPARE(doc.json(), original);
    QVERIFY(!doc.isDirty());
    doc.redo();
    QCOMPARE(doc.json(), edited);
    // Locked while a simulation runs.
    doc.setLocked(true);
    QVERIFY(!doc.setValue("links[0].length", 2.0, &error));
    QVERIFY(error.contains("simulation is running"));
    doc.undo();
    QCOMPARE(doc.json(), edited);
  }

  void invalidInputsAreRefusedWithAMessage() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, kSeed004)));
    w.modelTree()->select({Kind::Link, 0});
    QCOMPARE(w.propertyEditor()->item().kind, Kind::Link);
    const Json before = w.document()->json();
    const struct {
      const char* path;
      const char* text;
      const char* message;
    } cases[] = {
        {"links[0].length", "-1", "length of link 'link1': must be >= 0, got -1"},
        {"links[0].length", "abc", "length of link 'link1': \"abc\" is not a number"},
        {"links[0].length", "nan", "length of link 'link1': must be a finite number, got nan"},
        {"links[0].length", "1e999", "length of link 'link1': "},
        {"links[0].length", "", "length of link 'link1': needs a value"},
        {"links[0].flex.material.E", "0", "Young's modulus E of link 'link1': must be > 0, got 0"},
        {"links[0].flex.section.A", "-0.028", "area A of link 'link1': must be > 0, got -0.028"},
        {"links[0].flex.elements", "2.5", "elements of link 'link1': must be a whole number, got 2.5"},
        {"links[0].flex.elements", "0", "elements of link 'link1'"},
        {"links[0].name", "link 1", "name of link 'link1': \"link 1\" may contain only letters, digits"},
        {"links[0].name", "link2", "name of link 'link2': \"link2\" is used twice in links"},
    };
    for (const auto& c : cases) {
      QVERIFY2(!type(w, c.path, c.text), c.text);
      const QString shown = w.propertyEditor()->fieldError(c.path);
      QVERIFY2(shown.contains(c.message), qPrintable(QString("%1 = '%2': %3").arg(c.path, c.text, shown)));
      QVERIFY(!lineEdit(w, c.path)->styleSheet().isEmpty());  // the field is marked
      QCOMPARE(w.document()->json(), before);
      QCOMPARE(w.document()->undoStack()->count(), 0);
      QVERIFY(!w.windowTitle().contains('*'));
    }
    // A joint's vector and a combo box that the loader refuses.
    w.modelTree()->select({Kind::Joint, 1});
    QVERIFY(!type(w, "joints[1].axis", "0, 0, 0"));
    QVERIFY(w.propertyEditor()->fieldError("joints[1].axis").contains("must not be the zero vector"));
    QVERIFY(!type(w, "joints[1].axis", "1, 0"));
    QVERIFY(w.propertyEditor()->fieldError("joints[1].axis").contains("needs 3 numbers"));
    QCOMPARE(w.document()->json(), before);
    // A valid value is applied, clears the mark and redraws the arm at once.
    w.modelTree()->select({Kind::Link, 2});
    const Eigen::Vector3d tip = w.armView()->drawnTip(2);
    QVERIFY(type(w, "links[2].length", "5"));
    QCOMPARE(w.document()->project()->model.links[2].length, 5.0);
    QVERIFY(lineEdit(w, "links[2].length")->styleSheet().isEmpty());
    QVERIFY2(std::abs((w.armView()->drawnTip(2) - tip).norm() - 1.5) < 1e-9, "the view did not redraw the longer link");
    QVERIFY(w.windowTitle().contains('*'));
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Set length of link 'link3' to 5 m"));
  }

  // File > Open reads as the command line does (issue 21): a FIFO, a folder, JSON nested 100 000 deep or
  // with a key twice are refused at once with a message, and the open project stays as it was.
  void openRefusesWhatTheLoaderRefuses() {
    QTemporaryDir dir;
    ProjectDocument doc;
    QString error;
    QVERIFY2(doc.open(copyOfExample(dir, kSeed004), &error), qPrintable(error));
    const Json before = doc.json();
    const QString fifo = dir.filePath("pipe.flexarm.json");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);  // nobody writes: a read would block forever
    const QString deep = dir.filePath("deep.flexarm.json");
    {
      QFile f(deep);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray("{\"links\": ") + QByteArray(100000, '[') + QByteArray(100000, ']') + "}");
    }
    const QString twice = dir.filePath("twice.flexarm.json");
    {
      QFile f(twice);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("{\"name\": \"a\", \"name\": \"b\"}");
    }
    const struct {
      QString path;
      const char* message;
    } cases[] = {{fifo, "not a regular file"}, {dir.path(), "is a folder"}, {deep, "nest"}, {twice, "name"}};
    for (const auto& c : cases) {
      QElapsedTimer clock;
      clock.start();
      error.clear();
      QVERIFY2(!doc.open(c.path, &error), qPrintable(c.path));
      QVERIFY2(error.contains(c.message), qPrintable(c.path + ": " + error));
      QVERIFY(clock.elapsed() < 5000);
      QCOMPARE(doc.json(), before);
    }
  }

  void buildSeed004FromEmptyUndoAndRedo() {
    QTemporaryDir dir;
    // Every state of the build, by undo-stack index. Declared before the window: the undo stack
    // reports its last index change while the window is destroyed.
    std::map<int, Json> states;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.newEmptyProject());
    QVERIFY(w.document()->isEmptyChain());
    const Project shipped = load(example(kSeed004));
    QVERIFY(!shipped.model.links.empty());
    states[0] = w.document()->json();
    connect(w.document()->undoStack(), &QUndoStack::indexChanged, this, [&](int i) {
      if (!states.count(i)) states[i] = w.document()->json();
    });

    // The project: name, description, no gravity.
    w.modelTree()->select({Kind::Project, -1});
    QVERIFY(type(w, "name", QString::fromStdString(shipped.name)));
    QVERIFY(lineEdit(w, "description"));
    lineEdit(w, "description")->setText(QString::fromStdString(shipped.description));  // 1800 characters: not typed key by key
    lineEdit(w, "description")->setModified(true);
    QTest::keyClick(lineEdit(w, "description"), Qt::Key_Return);
    QVERIFY(type(w, "gravity", "0, 0, 0"));

    // Three flexible links on three flexible joints (Table 1).
    const char* length[] = {"1", "4.0", "3.5"};
    const char* area[] = {"0.028", "0.0020", "0.0008"};
    const char* inertia[] = {"8.33e-7", "6.24e-7", "5.37e-7"};
    const char* polar[] = {"1.66e-6", "1.24e-6", "1.07e-6"};
    const char* axis[] = {"1, 0, 0", "0, 1, 0", "0, 1, 0"};
    const char* rpy[] = {"0, -1.5707963267948966, 0", "0, 1.5707963267948966, 0", nullptr};
    for (int k = 0; k < 3; ++k) {
      QVERIFY(trigger(w, "addLink"));
      QCOMPARE(w.modelTree()->current().kind, Kind::Link);
      QCOMPARE(w.modelTree()->current().index, k);
      const QString l = QString("links[%1]").arg(k), j = QString("joints[%1]").arg(k);
      QVERIFY(choose(w, l + ".flex", "flexible"));
      QVERIFY(type(w, l + ".length", length[k]));
      QVERIFY(choose(w, l + ".flex.section.preset", "explicit"));
      QVERIFY(type(w, l + ".flex.section.A", area[k]));
      QVERIFY(type(w, l + ".flex.section.Iy", inertia[k]));
      QVERIFY(type(w, l + ".flex.section.Iz", inertia[k]));
      QVERIFY(type(w, l + ".flex.section.J", polar[k]));
      QVERIFY(choose(w, l + ".flex.material.preset", "explicit"));
      QVERIFY(type(w, l + ".flex.material.E", "206000e6"));
      QVERIFY(type(w, l + ".flex.material.G", "79300e6"));
      QVERIFY(type(w, l + ".flex.material.rho", "8253"));
      QCOMPARE(combo(w, l + ".flex.basis")->currentText(), QString("fem"));
      QVERIFY(type(w, l + ".flex.elements", "2"));
      QCOMPARE(combo(w, l + ".flex.layout")->currentText(), QString("spatial"));

      w.modelTree()->select({Kind::Joint, k});
      QVERIFY(type(w, j + ".axis", axis[k]));
      if (rpy[k]) QVERIFY(type(w, j + ".placement.rpy", rpy[k]));
      QVERIFY(choose(w, j + ".flex", "flexible"));
      QVERIFY(type(w, j + ".flex.stiffness", "5000"));
      QVERIFY(type(w, j + ".flex.rotor_inertia", "1"));
      QVERIFY(choose(w, j + ".drive.type", "effort"));
      QCOMPARE(combo(w, j + ".drive.law")->currentText(), QString("constant"));
      QVERIFY(type(w, j + ".drive.value", "400"));
      QCOMPARE(w.propertyEditor()->previewPoints(), 401);  // the drive law's preview over t_end
      QCOMPARE(w.propertyEditor()->previewLastValue(), 400.0);
    }
    w.modelTree()->select({Kind::Simulation, -1});
    QVERIFY(type(w, "simulation.t_end", "1.0"));
    QVERIFY(type(w, "simulation.output_rate", "200"));
    QCOMPARE(combo(w, "simulation.solver.method")->currentText(), QString("auto"));  // the default
    QVERIFY(type(w, "simulation.solver.rtol", "5e-7"));
    QVERIFY(type(w, "simulation.solver.atol", "5e-9"));
    // The generalized-alpha method and its damping; BDF and back (the shipped project's method).
    QVERIFY(choose(w, "simulation.solver.method", "galpha"));
    QVERIFY(type(w, "simulation.solver.rho_inf", "0.6"));
    QCOMPARE(w.document()->project()->simulation.method, SimulationSettings::Method::GeneralizedAlpha);
    QCOMPARE(w.document()->project()->simulation.rho_inf, 0.6);
    test::saveScreenshot(w, "editor-simulation-galpha");
    QVERIFY(!type(w, "simulation.solver.rho_inf", "1.5"));  // refused with the loader's message
    QVERIFY2(w.propertyEditor()->fieldError("simulation.solver.rho_inf").contains("must be between 0 and 1"),
             qPrintable(w.propertyEditor()->fieldError("simulation.solver.rho_inf")));
    QVERIFY(type(w, "simulation.solver.rho_inf", "0.8"));
    QVERIFY(choose(w, "simulation.solver.method", "bdf"));
    QCOMPARE(w.document()->project()->simulation.method, SimulationSettings::Method::Bdf);
    QCOMPARE(w.document()->project()->simulation.rho_inf, 0.8);
    // The ESDIRK method on the residual form and its table's order (3, 4 or 5; 0 = 4), as dirk's.
    QVERIFY(choose(w, "simulation.solver.method", "esdirk"));
    QCOMPARE(w.document()->project()->simulation.method, SimulationSettings::Method::Esdirk);
    QVERIFY(type(w, "simulation.solver.max_order", "3"));
    QCOMPARE(w.document()->project()->simulation.max_order, 3);
    test::saveScreenshot(w, "editor-simulation-esdirk");
    QVERIFY(!type(w, "simulation.solver.max_order", "2"));  // refused with the loader's message
    QVERIFY2(w.propertyEditor()->fieldError("simulation.solver.max_order").contains("has orders 3, 4 and 5"),
             qPrintable(w.propertyEditor()->fieldError("simulation.solver.max_order")));
    QVERIFY(type(w, "simulation.solver.max_order", "0"));
    QVERIFY(choose(w, "simulation.solver.method", "galpha"));
    QCOMPARE(w.document()->project()->simulation.method, SimulationSettings::Method::GeneralizedAlpha);
    // Back to auto with the tolerances from the accuracy (0), as the shipped project.
    QVERIFY(choose(w, "simulation.solver.method", "auto"));
    QVERIFY(type(w, "simulation.solver.rtol", "0"));
    QVERIFY(type(w, "simulation.solver.atol", "0"));
    QCOMPARE(w.document()->project()->simulation.method, SimulationSettings::Method::Auto);
    QCOMPARE(combo(w, "coupling")->currentText(), QString("high"));

    // The variants (rigid links and joints, flexible links on rigid joints, all flexible) and the study.
    QCOMPARE(shipped.variants.size(), std::size_t(3));
    QVERIFY(trigger(w, "addVariant"));
    QCOMPARE(w.modelTree()->current().kind, Kind::Variant);
    QCOMPARE(w.modelTree()->current().index, 0);
    QVERIFY(type(w, "variants[0].name", "rigid-links-rigid-joints"));
    // A flexible link made rigid needs its mass in the same edit: row by row, the first is refused ...
    QVERIFY(!addRow(w, "variants[0].set", "links[0].flex", "null"));
    QVERIFY2(w.propertyEditor()->fieldError("variants[0].set").startsWith("variant rigid-links-rigid-joints: links[0].mass: "),
             qPrintable(w.propertyEditor()->fieldError("variants[0].set")));
    PathTable* overrides = pathTable(w, "variants[0].set");
    overrides->table()->setCurrentCell(overrides->table()->rowCount() - 1, 0);  // forget the typed row
    QTest::mouseClick(overrides->removeButton(), Qt::LeftButton);
    QCOMPARE(overrides->table()->item(0, 0)->text(), QString());
    // ... so the overrides are pasted as --set lines and checked together.
    QStringList lines;
    for (const auto& [path, value] : shipped.variants[0].sets) lines << QString::fromStdString(path + "=" + value);
    QVERIFY(addLines(w, "variants[0].set", lines.join("\n")));
    QCOMPARE(tableRows(w, "variants[0].set").size(), 15);
    QCOMPARE(tableRows(w, "variants[0].set")[2], QString("links[0].com = [0.5,0.0,0.0]"));
    QVERIFY(trigger(w, "addVariant"));
    QVERIFY(type(w, "variants[1].name", "flexible-links-rigid-joints"));
    for (int k = 0; k < 3; ++k) QVERIFY(addRow(w, "variants[1].set", QString("joints[%1].flex").arg(k), "null"));
    QCOMPARE(tableRows(w, "variants[1].set"),
             QStringList({"joints[0].flex = null", "joints[1].flex = null", "joints[2].flex = null"}));
    QVERIFY(trigger(w, "addVariant"));
    QVERIFY(type(w, "variants[2].name", "flexible-links-flexible-joints"));
    QVERIFY(w.modelTree()->tree()->topLevelItem(5)->child(2)->text(0).contains("(baseline)"));  // Variants, after Simulation
    w.modelTree()->select({Kind::Study, -1});
    QVERIFY(choose(w, "study", "variants"));  // every variant, in their order
    QListWidget* list = studyList(w);
    QVERIFY(list);
    QCOMPARE(list->count(), 3);
    setChecked(list, "flexible-links-rigid-joints", false);
    QCOMPARE(w.document()->project()->study->variants,
             (std::vector<std::string>{"rigid-links-rigid-joints", "flexible-links-flexible-joints"}));
    setChecked(studyList(w), "flexible-links-rigid-joints", true);  // back in its place in the list
    QCOMPARE(w.document()->project()->study->variants, shipped.study->variants);

    // The view shows three links, the title is dirty, and the commands read well.
    QVERIFY(w.windowTitle().startsWith(QString::fromStdString(shipped.name) + "* - FlexArm"));
    QVERIFY(nonBackgroundPixels(w.armView()->grabFramebuffer()) > 500);
    QUndoStack* stack = w.document()->undoStack();
    QStringList texts;
    for (int i = 0; i < stack->count(); ++i) texts << stack->text(i);
    QVERIFY2(texts.contains("Add link link2 with joint joint2"), qPrintable(texts.join("\n")));
    QVERIFY(texts.contains("Make link link3 flexible"));
    QVERIFY2(texts.contains("Set section of link 'link2' to explicit A, Iy, Iz, J"), qPrintable(texts.join("\n")));
    QVERIFY2(texts.contains("Set Young's modulus E of link 'link3' to 2.06e+11 Pa"), qPrintable(texts.join("\n")));
    QVERIFY(texts.contains("Set placement roll, pitch, yaw of joint 'joint1' to [0.0,-1.5707963267948966,0.0] rad"));
    QVERIFY(texts.contains("Set value of joint 'joint3' to 400 N m"));
    QVERIFY(texts.contains("Add variant variant1"));
    QVERIFY(texts.contains("Rename variant variant2 to flexible-links-rigid-joints"));
    QVERIFY(texts.contains("In variant rigid-links-rigid-joints, set links[0].flex, links[0].mass and 13 more"));
    QVERIFY(texts.contains("In variant flexible-links-rigid-joints, set joints[2].flex = null"));
    QVERIFY(texts.contains("Set the study to the variants rigid-links-rigid-joints, flexible-links-flexible-joints"));

    // Save; the saved model is the shipped one.
    const QString saved = dir.filePath("built.flexarm.json");
    QVERIFY(w.saveProject(saved));
    QVERIFY(!w.windowTitle().contains('*'));
    const Project built = load(saved);
    QCOMPARE(QString::fromStdString(canonical(built).dump(1)), QString::fromStdString(canonical(shipped).dump(1)));

    // Both run to the same results (shortened to 0.05 s).
    Project a = shipped, b = built;
    a.simulation.t_end = b.simulation.t_end = 0.05;
    const Results ra = simulate(a), rb = simulate(b);
    QCOMPARE(ra.status, RunStatus::Completed);
    QCOMPARE(rb.status, RunStatus::Completed);
    QCOMPARE(ra.rows(), std::size_t(11));
    QCOMPARE(rb.rows(), ra.rows());
    QCOMPARE(rb.channels().size(), ra.channels().size());
    for (const Channel& c : ra.channels()) QCOMPARE(maxDifference(ra.column(c.name), rb.column(c.name)), 0.0);
    QVERIFY(peakAbs(ra.column("torsion.joint2")) > 1e-6);  // the arm moved: the comparison means something

    // Undo the whole build step by step, back to the empty project, then redo it.
    const int n = stack->count();
    QCOMPARE(static_cast<int>(states.size()), n + 1);
    for (int i = n - 1; i >= 0; --i) {
      w.document()->undo();
      QCOMPARE(stack->index(), i);
      QVERIFY2(w.document()->json() == states[i], qPrintable(QString("after undoing %1").arg(stack->text(i))));
      const int links = static_cast<int>(states[i]["links"].size());
      QCOMPARE(w.document()->project() ? static_cast<int>(w.document()->project()->model.links.size()) : 0, links);
      QCOMPARE(w.modelTree()->tree()->topLevelItem(1)->childCount(), links);  // the tree follows
    }
    QVERIFY(w.document()->isEmptyChain());
    for (int i = 1; i <= n; ++i) {
      w.document()->redo();
      QVERIFY2(w.document()->json() == states[i], qPrintable(QString("after redoing %1").arg(stack->text(i - 1))));
    }
    QCOMPARE(canonical(*w.document()->project()), canonical(shipped));
    QVERIFY(!w.document()->isDirty());  // back at the saved state
  }

  void slidingBeamConstraintsRebuiltInTheEditor() {
    QTemporaryDir dir;
    const char* name = "sliding-beam-fast-push.flexarm.json";
    const Project shipped = load(example(name));
    QCOMPARE(shipped.model.constraints.size(), std::size_t(2));
    // The shipped project without its two supports, on CVODE's bdf.
    QFile in(example(name));
    QVERIFY(in.open(QIODevice::ReadOnly));
    Json start = Json::parse(in.readAll().toStdString());
    start.erase("constraints");
    start["simulation"]["solver"]["method"] = "bdf";
    const QString path = dir.filePath("unsupported.flexarm.json");
    {
      QFile out(path);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(QByteArray::fromStdString(start.dump(2)));
    }
    std::map<int, Json> states;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(path));
    ProjectDocument& doc = *w.document();
    states[0] = doc.json();
    // The document as the receiver: the connection goes before the stack reports its last index
    // while the window is destroyed.
    connect(doc.undoStack(), &QUndoStack::indexChanged, &doc, [&](int i) {
      if (!states.count(i)) states[i] = doc.json();
    });

    // bdf has no multipliers: adding a constraint switches to auto in the same command, and says so.
    QVERIFY(trigger(w, "addConstraint"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Add constraint constraint1 holding q.slide at 0 m and switch the solver from "
                                                  "bdf to auto (constraints need Lagrange multipliers)"));
    QCOMPARE(doc.project()->simulation.method, SimulationSettings::Method::Auto);
    QCOMPARE(w.modelTree()->current().kind, Kind::Constraint);
    QCOMPARE(combo(w, "constraints[0].type")->currentText(), QString("coordinates"));
    QCOMPARE(lineEdit(w, "constraints[0].terms")->text(), QString("q.slide = 1"));
    QVERIFY(choose(w, "constraints[0].type", "sliding_support"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Set type of constraint 'constraint1' to sliding_support"));
    QCOMPARE(combo(w, "constraints[0].link")->currentText(), QString("beam"));
    QCOMPARE(lineEdit(w, "constraints[0].position")->text(), QString("0.5"));  // the middle of the beam where it starts
    QCOMPARE(combo(w, "constraints[0].clamp_slope")->currentText(), QString("false"));
    QVERIFY(type(w, "constraints[0].position", "0.725"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Set support position of constraint 'constraint1' to 0.725 m"));
    QVERIFY(type(w, "constraints[0].name", "support1"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Rename constraint constraint1 to support1"));
    QVERIFY(trigger(w, "addConstraint"));  // the solver is auto now: nothing else changes
    QCOMPARE(doc.undoStack()->undoText(), QString("Add constraint constraint2 holding q.slide at 0 m"));
    QCOMPARE(w.modelTree()->current().index, 1);
    QVERIFY(choose(w, "constraints[1].type", "sliding_support"));
    QVERIFY(type(w, "constraints[1].position", "0.975"));
    QVERIFY(type(w, "constraints[1].name", "support2"));
    QCOMPARE(w.modelTree()->tree()->topLevelItem(4)->child(1)->text(0), QString("support2  (sliding_support on beam)"));
    // A sleeve instead of a pin, then back.
    QVERIFY(choose(w, "constraints[1].clamp_slope", "true"));
    QVERIFY(doc.project()->model.constraints[1].clamp_slope);
    QVERIFY(choose(w, "constraints[1].clamp_slope", "false"));
    // Units beside every field of the three types.
    for (const auto& [field, unit] : std::map<QString, QString>{{"constraints[1].position", "m"}}) {
      bool found = false;
      for (const FieldSpec& f : formFor(doc, {Kind::Constraint, 1}, nullptr))
        if (f.path == field) found = f.unit == unit;
      QVERIFY2(found, qPrintable(field));
    }

    // The saved project is the shipped one, and both run alike (0.02 s).
    const QString saved = dir.filePath("supported.flexarm.json");
    QVERIFY(w.saveProject(saved));
    const Project built = load(saved);
    QCOMPARE(QString::fromStdString(canonical(built).dump(1)), QString::fromStdString(canonical(shipped).dump(1)));
    Project a = shipped, b = built;
    a.simulation.t_end = b.simulation.t_end = 0.02;
    const Results ra = simulate(a), rb = simulate(b);
    QCOMPARE(ra.status, RunStatus::Completed);
    QCOMPARE(rb.rows(), ra.rows());
    for (const Channel& c : ra.channels()) QCOMPARE(maxDifference(ra.column(c.name), rb.column(c.name)), 0.0);

    // Refused with the loader's message, nothing changes: CVODE with constraints, a duplicate name.
    const Json before = doc.json();
    const int count = doc.undoStack()->count();
    w.modelTree()->select({Kind::Simulation, -1});
    QVERIFY(!choose(w, "simulation.solver.method", "bdf"));
    QVERIFY2(
        w.propertyEditor()->fieldError("simulation.solver.method").startsWith("method (simulation): the model has constraints"),
        qPrintable(w.propertyEditor()->fieldError("simulation.solver.method")));
    QCOMPARE(combo(w, "simulation.solver.method")->currentText(), QString("auto"));
    w.modelTree()->select({Kind::Constraint, 1});
    QVERIFY(!type(w, "constraints[1].name", "support1"));
    QVERIFY(w.propertyEditor()->fieldError("constraints[1].name").contains("\"support1\" is used twice in constraints"));
    QVERIFY(!type(w, "constraints[1].position", "0.725"));
    QVERIFY2(w.propertyEditor()
                 ->fieldError("constraints[1].position")
                 .contains("another support of link 'beam' sits at the same position"),
             qPrintable(w.propertyEditor()->fieldError("constraints[1].position")));
    QCOMPARE(doc.json(), before);
    QCOMPARE(doc.undoStack()->count(), count);

    // Delete one; then every edit undone and redone.
    QVERIFY(trigger(w, "remove"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Delete constraint support2"));
    QCOMPARE(doc.project()->model.constraints.size(), std::size_t(1));
    const int n = doc.undoStack()->count();
    QVERIFY2(undoEverything(doc, states), "undo");
    QCOMPARE(doc.json(), start);
    QVERIFY2(redoEverything(doc, states, n), "redo");
  }

  void coordinateAndPointConstraints() {
    QTemporaryDir dir;
    std::map<int, Json> states;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, "double-pendulum.flexarm.json")));
    ProjectDocument& doc = *w.document();
    const Json original = doc.json();
    states[0] = original;
    // The document as the receiver: the connection goes before the stack reports its last index
    // while the window is destroyed.
    connect(doc.undoStack(), &QUndoStack::indexChanged, &doc, [&](int i) {
      if (!states.count(i)) states[i] = doc.json();
    });
    QVERIFY(trigger(w, "addConstraint"));
    // The project leaves the method to auto, which integrates constraints: no switch.
    QCOMPARE(doc.undoStack()->undoText(), QString("Add constraint constraint1 holding q.elbow at 0 rad"));
    // sum c_k q_k = f(t): the terms, the coordinates they may name, the law with the unit of the sum.
    QVERIFY(type(w, "constraints[0].terms", "q.shoulder = 1, q.elbow = -2"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Set terms of constraint 'constraint1' to q.shoulder = 1, q.elbow = -2"));
    const Constraint& c = doc.project()->model.constraints[0];
    QCOMPARE(c.terms.size(), std::size_t(2));
    QCOMPARE(c.terms[1].first, std::string("q.elbow"));
    QCOMPARE(c.terms[1].second, -2.0);
    QVERIFY(choose(w, "constraints[0].value.law", "sine"));
    QVERIFY(type(w, "constraints[0].value.amplitude", "0.1"));
    QVERIFY(type(w, "constraints[0].value.frequency", "0.5"));
    QCOMPARE(doc.project()->model.constraints[0].value.evaluate(0.5).value, 0.1);  // sin(2 pi 0.5 0.5) = 1
    std::map<QString, QString> units;
    for (const FieldSpec& f : formFor(doc, {Kind::Constraint, 0}, nullptr)) units[f.path] = f.unit;
    QCOMPARE(units["constraints[0].value.amplitude"], QString("rad"));
    QCOMPARE(units["constraints[0].value.frequency"], QString("Hz"));
    QCOMPARE(units["constraints[0].value.phase"], QString("rad"));
    QCOMPARE(units["constraints[0].terms"], QString("-"));
    bool listed = false;
    for (const FieldSpec& f : formFor(doc, {Kind::Constraint, 0}, nullptr))
      if (f.kind == FieldSpec::Kind::Info && f.label == "coordinates") listed = f.info == "q.shoulder, q.elbow";
    QVERIFY(listed);
    // Refused with the loader's message.
    const Json before = doc.json();
    const struct {
      const char* text;
      const char* message;
    } bad[] = {
        {"q.wrist = 1", "constraints: constraint 'constraint1': no coordinate named \"q.wrist\""},
        {"q.shoulder",
         "terms of constraint 'constraint1': expected coordinate = coefficient (e.g. q.shoulder = 1), got \"q.shoulder\""},
        {"q.shoulder = 0", "constraints: constraint 'constraint1': all coefficients are zero"},
        {"q.shoulder = 1, q.shoulder = 2", "terms of constraint 'constraint1': q.shoulder is given twice"},
        {"", "terms of constraint 'constraint1': needs at least one coordinate"},
    };
    for (const auto& b : bad) {
      QVERIFY2(!type(w, "constraints[0].terms", b.text), b.text);
      QVERIFY2(w.propertyEditor()->fieldError("constraints[0].terms").contains(b.message),
               qPrintable(w.propertyEditor()->fieldError("constraints[0].terms")));
      QCOMPARE(doc.json(), before);
    }
    // A point: the lower link's tip, held where it starts; then only in x and z.
    QVERIFY(choose(w, "constraints[0].type", "point"));
    QCOMPARE(combo(w, "constraints[0].link")->currentText(), QString("lower"));
    QCOMPARE(lineEdit(w, "constraints[0].point")->text(), QString("1, 0, 0"));
    QCOMPARE(lineEdit(w, "constraints[0].world")->text(), QString("2, 0, 0"));
    QCOMPARE(combo(w, "constraints[0].axes")->currentText(), QString("xyz"));
    QVERIFY(choose(w, "constraints[0].axes", "xz"));
    QVERIFY(type(w, "constraints[0].world", "1.9, 0, -0.3"));
    QVERIFY(type(w, "constraints[0].point", "0.9, 0, 0"));
    QVERIFY(choose(w, "constraints[0].link", "upper"));
    units.clear();
    for (const FieldSpec& f : formFor(doc, {Kind::Constraint, 0}, nullptr)) units[f.path] = f.unit;
    QCOMPARE(units["constraints[0].world"], QString("m"));
    QCOMPARE(units["constraints[0].point"], QString("m"));
    const Json expected = Json::parse(R"({"name": "constraint1", "type": "point", "link": "upper", "point": [0.9, 0.0, 0.0],
                                          "world": [1.9, 0.0, -0.3], "axes": "xz"})");
    QCOMPARE(projectToJson(*doc.project())["constraints"][0], expected);
    // A sliding support on a rigid link is refused.
    const Json point = doc.json();
    QVERIFY(!choose(w, "constraints[0].type", "sliding_support"));
    QVERIFY2(w.propertyEditor()->fieldError("constraints[0].type").contains("is rigid; a sliding support holds a flexible link"),
             qPrintable(w.propertyEditor()->fieldError("constraints[0].type")));
    QCOMPARE(doc.json(), point);
    // The held point's link made flexible: the loop closes through it (dynamics/LinkPoint.hpp), the
    // point rides on its section at x = 0.9 m; a section beyond the link's length is refused.
    w.modelTree()->select({Kind::Link, 0});
    QVERIFY(choose(w, "links[0].flex", "flexible"));
    const Json flexible = doc.json();
    w.modelTree()->select({Kind::Constraint, 0});
    QVERIFY(!type(w, "constraints[0].point", "1.5, 0, 0"));
    QVERIFY2(w.propertyEditor()
                 ->fieldError("constraints[0].point")
                 .contains("sits at a section x = point[0] between 0 and its length"),
             qPrintable(w.propertyEditor()->fieldError("constraints[0].point")));
    QCOMPARE(doc.json(), flexible);
    // Undo everything, redo everything.
    const int n = doc.undoStack()->count();
    QVERIFY2(undoEverything(doc, states), "undo");
    QCOMPARE(doc.json(), original);
    QCOMPARE(w.modelTree()->tree()->topLevelItem(4)->text(0), QString("Simulation"));  // no Constraints branch left
    QVERIFY2(redoEverything(doc, states, n), "redo");
  }

  void revolutePrismaticAndTwoLinkClosures() {
    QTemporaryDir dir;
    std::map<int, Json> states;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, "double-pendulum.flexarm.json")));
    ProjectDocument& doc = *w.document();
    states[0] = doc.json();
    connect(doc.undoStack(), &QUndoStack::indexChanged, &doc, [&](int i) {
      if (!states.count(i)) states[i] = doc.json();
    });
    QVERIFY(trigger(w, "addConstraint"));
    // A revolute closure: the lower link's tip, held where it starts, about the lower joint's axis.
    QVERIFY(choose(w, "constraints[0].type", "revolute"));
    QCOMPARE(lineEdit(w, "constraints[0].point")->text(), QString("1, 0, 0"));
    QCOMPARE(lineEdit(w, "constraints[0].axis")->text(), QString("0, 1, 0"));
    QCOMPARE(combo(w, "constraints[0].other_link")->currentText(), QString("(world)"));
    QCOMPARE(lineEdit(w, "constraints[0].world")->text(), QString("2, 0, 0"));
    QVERIFY(!lineEdit(w, "constraints[0].other_point"));
    QVERIFY(!combo(w, "constraints[0].axes"));
    // Held by the upper link instead of the world: the upper link's point is where the tip starts.
    QVERIFY(choose(w, "constraints[0].other_link", "upper"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Join constraint 'constraint1' to link upper"));
    QCOMPARE(lineEdit(w, "constraints[0].other_point")->text(), QString("2, 0, 0"));
    QVERIFY(!lineEdit(w, "constraints[0].world"));
    const Constraint& c = doc.project()->model.constraints[0];
    QCOMPARE(c.kind, Constraint::Kind::Revolute);
    QCOMPARE(c.other_link, 0);
    // Its own link is refused with the loader's message.
    const Json joined = doc.json();
    QVERIFY(!choose(w, "constraints[0].other_link", "lower"));
    QVERIFY2(w.propertyEditor()->fieldError("constraints[0].other_link").contains("to itself"),
             qPrintable(w.propertyEditor()->fieldError("constraints[0].other_link")));
    QCOMPARE(doc.json(), joined);
    // A slider along an oblique axis; back to the world.
    QVERIFY(choose(w, "constraints[0].type", "prismatic"));
    QCOMPARE(lineEdit(w, "constraints[0].axis")->text(), QString("1, 0, 0"));
    QVERIFY(type(w, "constraints[0].axis", "1, 0, 1"));
    QVERIFY(choose(w, "constraints[0].other_link", "upper"));
    QVERIFY(choose(w, "constraints[0].other_link", "(world)"));
    QCOMPARE(lineEdit(w, "constraints[0].world")->text(), QString("2, 0, 0"));
    const Json expected = Json::parse(R"({"name": "constraint1", "type": "prismatic", "link": "lower", "point": [1.0, 0.0, 0.0],
                                          "world": [2.0, 0.0, 0.0], "axis": [0.7071067811865475, 0.0, 0.7071067811865475]})");
    QCOMPARE(projectToJson(*doc.project())["constraints"][0], expected);
    // Undo everything, redo everything.
    const int n = doc.undoStack()->count();
    QVERIFY2(undoEverything(doc, states), "undo");
    QVERIFY2(redoEverything(doc, states, n), "redo");
  }

  void aJointsParentLinkMakesATree() {
    QTemporaryDir dir;
    std::map<int, Json> states;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, "dual-arm-torso.flexarm.json")));
    ProjectDocument& doc = *w.document();
    states[0] = doc.json();
    connect(doc.undoStack(), &QUndoStack::indexChanged, &doc, [&](int i) {
      if (!states.count(i)) states[i] = doc.json();
    });
    // The right shoulder sits on the torso: its parent offers the world and the links before it.
    w.modelTree()->select({Kind::Joint, 3});
    QComboBox* parent = combo(w, "joints[3].parent");
    QVERIFY(parent);
    QCOMPARE(parent->currentText(), QString("torso"));
    QStringList offered;
    for (int k = 0; k < parent->count(); ++k) offered << parent->itemText(k);
    QCOMPARE(offered, QStringList({"world", "torso", "left_upper", "left_fore"}));
    // On the previous link: the default, left out of the file (a chain there); on the world: a second root.
    QVERIFY(choose(w, "joints[3].parent", "left_fore"));
    QVERIFY(!doc.json()["joints"][3].contains("parent"));
    QCOMPARE(doc.project()->model.parentOf(3), 2);
    QVERIFY(choose(w, "joints[3].parent", "world"));
    QCOMPARE(doc.json()["joints"][3]["parent"], Json("world"));
    QCOMPARE(doc.project()->model.parentOf(3), Joint::kWorld);
    // The first joint's default is the world.
    w.modelTree()->select({Kind::Joint, 0});
    QCOMPARE(combo(w, "joints[0].parent")->currentText(), QString("world"));
    // + Branch on the torso: a third arm's link at the end of the list, its joint on the torso, selected.
    w.modelTree()->select({Kind::Link, 0});
    QVERIFY(trigger(w, "addBranch"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Add link link6 with joint joint6 on link torso"));
    QCOMPARE(doc.json()["joints"][5]["parent"], Json("torso"));
    QCOMPARE(doc.project()->model.parentOf(5), 0);
    QCOMPARE(w.modelTree()->current().kind, Kind::Joint);
    QCOMPARE(combo(w, "joints[5].parent")->currentText(), QString("torso"));
    // In a tree the link commands keep every joint on its link: Up moves right_upper (now on the world)
    // before left_fore, whose joint stays on left_upper (now named), as right_fore's stays on right_upper.
    auto parentName = [&doc](int i) {
      const Model& m = doc.project()->model;
      const int p = m.parentOf(i);
      return p < 0 ? std::string("world") : m.links[static_cast<std::size_t>(p)].name;
    };
    w.modelTree()->select({Kind::Link, 3});
    QVERIFY(trigger(w, "moveUp"));
    QCOMPARE(doc.project()->model.links[2].name, std::string("right_upper"));
    QCOMPARE(parentName(2), std::string("world"));  // as set above
    QCOMPARE(parentName(3), std::string("left_upper"));
    QCOMPARE(parentName(4), std::string("right_upper"));
    QCOMPARE(doc.json()["joints"][3]["parent"], Json("left_upper"));
    // Duplicate left_fore: the copy is its sibling on left_upper.
    w.modelTree()->select({Kind::Link, 3});
    QVERIFY(trigger(w, "duplicate"));
    QCOMPARE(parentName(4), std::string("left_upper"));
    QCOMPARE(parentName(5), std::string("right_upper"));
    // Deleting the torso, which other joints name as their parent, is refused with the loader's message.
    const Json before = doc.json();
    w.modelTree()->select({Kind::Link, 0});
    QSignalSpy refused(w.modelTree(), &ModelTree::refused);
    QVERIFY(trigger(w, "remove"));
    QCOMPARE(doc.json(), before);
    QCOMPARE(refused.count(), 1);
    QVERIFY2(refused.front().front().toString().contains("no link is named \"torso\""),
             qPrintable(refused.front().front().toString()));
    const int n = doc.undoStack()->count();
    QCOMPARE(n, 5);
    QVERIFY2(undoEverything(doc, states), "undo");
    QVERIFY2(redoEverything(doc, states, n), "redo");
  }

  void variantAndStudyEditsUndoRedoAndRefusals() {
    QTemporaryDir dir;
    std::map<int, Json> states;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, kSeed004)));
    ProjectDocument& doc = *w.document();
    const Json original = doc.json();
    states[0] = original;
    // The document as the receiver: the connection goes before the stack reports its last index
    // while the window is destroyed.
    connect(doc.undoStack(), &QUndoStack::indexChanged, &doc, [&](int i) {
      if (!states.count(i)) states[i] = doc.json();
    });
    const QString table = "variants[1].set";
    w.modelTree()->select({Kind::Variant, 1});
    QCOMPARE(w.propertyEditor()->item().kind, Kind::Variant);
    QCOMPARE(tableRows(w, table).size(), 3);

    // Refusals: the loader's message (or the override's), the document and the stack unchanged.
    auto refused = [&](bool accepted, const QString& panel, const QString& message) {
      const QString shown = w.propertyEditor()->fieldError(panel);
      if (accepted || !shown.contains(message)) {
        qWarning("expected \"%s\", got \"%s\"", qPrintable(message), qPrintable(shown));
        return false;
      }
      return doc.json() == original && doc.undoStack()->count() == 0;
    };
    auto forget = [&](const QString& panel) {  // clears the typed new row
      PathTable* p = pathTable(w, panel);
      p->table()->setCurrentCell(p->table()->rowCount() - 1, 0);
      QTest::mouseClick(p->removeButton(), Qt::LeftButton);
    };
    QVERIFY(refused(addRow(w, table, "links[0].length", "-1"), table,
                    "variant flexible-links-rigid-joints: links[0].length: must be >= 0, got -1"));
    QCOMPARE(pathTable(w, table)->table()->item(3, 0)->text(), QString("links[0].length"));  // kept, to be corrected
    forget(table);
    QVERIFY(refused(addRow(w, table, "links[7].mass", "2"), table,
                    "variant flexible-links-rigid-joints: links[7].mass: links has 3 entries, index 7 is out of range"));
    forget(table);
    QVERIFY(refused(addRow(w, table, "simulation.solver.foo.bar", "1"), table,
                    "simulation.solver.foo.bar: \"foo\" does not exist in simulation.solver"));
    forget(table);
    QVERIFY(refused(addRow(w, table, "joints[0].drive.colour", "red"), table, "joints[0].drive.colour: unknown key ignored"));
    forget(table);
    QVERIFY(refused(addRow(w, table, "joints[1].flex", "1"), table, "joints[1].flex is already set (row 2): edit that row"));
    forget(table);
    QVERIFY(refused(editRow(w, table, 0, 1, "{\"stiffness\": -5, \"rotor_inertia\": 1}"), table,
                    "joints[0].flex.stiffness: must be > 0, got -5"));
    QCOMPARE(pathTable(w, table)->table()->item(0, 1)->text(), QString("null"));  // the document's value again
    QVERIFY(refused(addLines(w, table, "links[0].flex=null\nlinks[0].length=2"), table,
                    "variant flexible-links-rigid-joints: links[0].mass"));
    QVERIFY(refused(addLines(w, table, "links[0].length 2"), table, "variants[1].set: \"links[0].length 2\" is not path=value"));
    QVERIFY(!type(w, "variants[1].name", "flexible-links-flexible-joints"));
    QVERIFY(w.propertyEditor()
                ->fieldError("variants[1].name")
                .contains("\"flexible-links-flexible-joints\" is used twice in variants"));
    QVERIFY(!type(w, "variants[1].name", "rigid joints"));
    QVERIFY(w.propertyEditor()->fieldError("variants[1].name").contains("\"rigid joints\" may contain only letters"));
    QCOMPARE(doc.json(), original);

    // Edits of the overrides: replace a path, change a value, remove a row, add one.
    QVERIFY(editRow(w, table, 0, 0, "joints[0].damping"));
    QCOMPARE(doc.undoStack()->undoText(),
             QString("In variant flexible-links-rigid-joints, replace joints[0].flex by joints[0].damping = null"));
    QVERIFY(editRow(w, table, 0, 1, "0.5"));
    QCOMPARE(doc.undoStack()->undoText(), QString("In variant flexible-links-rigid-joints, set joints[0].damping = 0.5"));
    QCOMPARE(tableRows(w, table)[0], QString("joints[0].damping = 0.5"));
    pathTable(w, table)->table()->setCurrentCell(0, 1);
    QTest::mouseClick(pathTable(w, table)->removeButton(), Qt::LeftButton);
    QCOMPARE(doc.undoStack()->undoText(),
             QString("In variant flexible-links-rigid-joints, remove the override of joints[0].damping"));
    QVERIFY(addRow(w, table, "coupling", "zero"));
    QCOMPARE(doc.json()["variants"][1]["set"]["coupling"], Json("zero"));
    QCOMPARE(tableRows(w, table).last(), QString("coupling = zero"));
    // Rename: the study follows. Duplicate, delete.
    QVERIFY(type(w, "variants[1].name", "elastic-links"));
    QCOMPARE(doc.json()["study"]["variants"][1], Json("elastic-links"));
    QVERIFY(trigger(w, "duplicate"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Duplicate variant elastic-links as elastic-links-copy"));
    QCOMPARE(w.modelTree()->current().index, 2);
    QCOMPARE(doc.json()["variants"][2]["set"], doc.json()["variants"][1]["set"]);
    QVERIFY(trigger(w, "remove"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Delete variant elastic-links-copy"));
    QVERIFY(trigger(w, "addVariant"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Add variant variant4"));
    QCOMPARE(doc.json()["variants"][3]["set"], Json::object());

    // The study as a list: uncheck until one is left; the last one cannot go.
    w.modelTree()->select({Kind::Study, -1});
    QCOMPARE(combo(w, "study")->currentText(), QString("variants"));
    setChecked(studyList(w), "rigid-links-rigid-joints", false);
    QCOMPARE(doc.undoStack()->undoText(), QString("Set the study to the variants elastic-links, flexible-links-flexible-joints"));
    setChecked(studyList(w), "elastic-links", false);
    const Json one = doc.json();
    setChecked(studyList(w), "flexible-links-flexible-joints", false);
    QVERIFY(w.propertyEditor()->fieldError("study.variants").contains("study.variants: list at least one variant"));
    QCOMPARE(studyList(w)->findItems("flexible-links-flexible-joints", Qt::MatchExactly)[0]->checkState(), Qt::Checked);
    QCOMPARE(doc.json(), one);
    setChecked(studyList(w), "variant4", true);
    // Deleting a variant the study lists takes it out of the list.
    w.modelTree()->select({Kind::Variant, 2});
    QVERIFY(trigger(w, "remove"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Delete variant flexible-links-flexible-joints and its place in the study"));
    QCOMPARE(doc.json()["study"]["variants"], Json::array({"variant4"}));

    // The study as a grid: every case is checked.
    w.modelTree()->select({Kind::Study, -1});
    QVERIFY(choose(w, "study", "grid"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Set the study to a grid of coupling = zero, high"));
    QCOMPARE(tableRows(w, "study.grid"), QStringList{"coupling = zero, high"});
    QVERIFY(addRow(w, "study.grid", "joints[0].drive.value", "200, 400"));
    QCOMPARE(doc.undoStack()->undoText(), QString("In the study grid, set joints[0].drive.value to 200, 400"));
    QCOMPARE(doc.project()->study->grid.size(), std::size_t(2));
    QCOMPARE(w.modelTree()->tree()->topLevelItem(6)->text(0), QString("Study (grid, 4 cases)"));
    const Json grid = doc.json();
    QVERIFY(!addRow(w, "study.grid", "links[1].length", "4, -1"));
    QVERIFY2(w.propertyEditor()
                 ->fieldError("study.grid")
                 .contains("study grid, case coupling=zero,joints[0].drive.value=200,links[1].length=-1: links[1].length: must "
                           "be >= 0, got -1"),
             qPrintable(w.propertyEditor()->fieldError("study.grid")));
    forget("study.grid");
    QVERIFY(!editRow(w, "study.grid", 0, 1, "zero, fourth"));
    QVERIFY2(w.propertyEditor()->fieldError("study.grid").contains("coupling: unknown value \"fourth\""),
             qPrintable(w.propertyEditor()->fieldError("study.grid")));
    QCOMPARE(doc.json(), grid);
    QVERIFY(editRow(w, "study.grid", 1, 1, "[100, 300, 500]"));
    QCOMPARE(doc.json()["study"]["grid"]["joints[0].drive.value"], Json::array({100, 300, 500}));
    pathTable(w, "study.grid")->table()->setCurrentCell(0, 0);
    QTest::mouseClick(pathTable(w, "study.grid")->removeButton(), Qt::LeftButton);
    QCOMPARE(doc.undoStack()->undoText(), QString("In the study grid, remove coupling"));
    QVERIFY(choose(w, "study", "none"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Remove the study"));
    QVERIFY(!doc.json().contains("study"));

    // A later edit of the model can leave a variant invalid: the tree marks it and its form says why.
    w.modelTree()->select({Kind::Joint, 2});
    QVERIFY(choose(w, "joints[2].flex", "rigid"));
    QVERIFY2(w.modelTree()->tree()->topLevelItem(5)->child(1)->text(0).endsWith("invalid"),
             qPrintable(w.modelTree()->tree()->topLevelItem(5)->child(1)->text(0)));
    QVERIFY(!w.modelTree()->tree()->topLevelItem(5)->child(2)->text(0).endsWith("invalid"));
    QString why;
    for (const FieldSpec& f : formFor(doc, {Kind::Variant, 1}, nullptr))
      if (f.kind == FieldSpec::Kind::Info && f.label == "check") why = f.info;
    QVERIFY2(why.contains("joints[2].flex: \"flex\" does not exist in joints[2], so it cannot be removed"), qPrintable(why));

    // Undo all, redo all; the panels follow the document.
    const int n = doc.undoStack()->count();
    QVERIFY2(undoEverything(doc, states), "undo");
    QCOMPARE(doc.json(), original);
    w.modelTree()->select({Kind::Variant, 1});
    QCOMPARE(tableRows(w, table), QStringList({"joints[0].flex = null", "joints[1].flex = null", "joints[2].flex = null"}));
    QVERIFY2(redoEverything(doc, states, n), "redo");
    QCOMPARE(tableRows(w, table), QStringList({"joints[1].flex = null", "joints[2].flex = null", "coupling = zero"}));
  }

  void loadsAreEditedFollowTheirLinkAndTheStaticSolverShowsTheirEffect() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, "cantilever.flexarm.json")));
    ProjectDocument& doc = *w.document();
    w.modelTree()->select({Kind::Link, 0});
    QVERIFY(trigger(w, "addLoad"));
    QCOMPARE(w.modelTree()->current().kind, Kind::Load);
    QCOMPARE(doc.undoStack()->undoText(), QString("Add load load1 at the tip of link beam"));
    const Load& added = doc.project()->model.loads.at(0);
    QCOMPARE(added.point, Eigen::Vector3d(2.0, 0.0, 0.0));  // the tip of the 2 m beam
    QCOMPARE(added.force, Eigen::Vector3d(0.0, 0.0, -10.0));
    QVERIFY(type(w, "loads[0].force", "0, -50, 0"));
    QVERIFY2(doc.undoStack()->undoText().startsWith("Set force of load 'load1' to ["), qPrintable(doc.undoStack()->undoText()));
    QCOMPARE(doc.project()->model.loads[0].force, Eigen::Vector3d(0.0, -50.0, 0.0));
    QVERIFY(choose(w, "loads[0].axes", "link"));
    QCOMPARE(doc.project()->model.loads[0].axes, Load::Axes::Link);
    // A law scales it in time; absent, the force as given.
    QVERIFY(choose(w, "loads[0].law.law", "step"));
    QCOMPARE(doc.project()->model.loads[0].law.law, TimeFunction::Law::Step);
    doc.undo();
    doc.undo();
    QCOMPARE(doc.project()->model.loads[0].axes, Load::Axes::World);
    // A section beyond the flexible link's length is refused with the field's words.
    QVERIFY(!type(w, "loads[0].point", "2.5, 0, 0"));
    QVERIFY2(w.propertyEditor()->fieldError("loads[0].point").contains("between 0 and its length 2 m"),
             qPrintable(w.propertyEditor()->fieldError("loads[0].point")));
    QVERIFY(w.modelTree()->tree()->topLevelItem(4)->text(0).startsWith("Loads"));

    // Static equilibrium: the tip deflects by P L^3 / (3 E I) under the load and the tube's weight.
    StaticDialog* d = w.showStaticDialog();
    QVERIFY(d->solve());
    QTRY_VERIFY_WITH_TIMEOUT(!d->isSolving(), 60000);
    QVERIFY2(d->solution() && d->solution()->converged, qPrintable(d->statusText()));
    QVERIFY(d->statusText().startsWith("Equilibrium found"));
    QVERIFY(d->table()->rowCount() >= 3);
    const Results& r = d->solution()->results;
    const double v = r.value(0, static_cast<std::size_t>(r.channelIndex("tip.beam.v")));
    const double E = 68.9e9, I = 3.14159265358979 * (std::pow(0.05, 4) - std::pow(0.044, 4)) / 64;
    QVERIFY2(std::abs(v / (-50.0 * 8.0 / (3 * E * I)) - 1.0) < 5e-3, qPrintable(QString::number(v)));
    flexarm::test::saveScreenshot(w, "static-equilibrium");
    if (!qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR").isEmpty())
      d->grab().save(qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR") + "/static-equilibrium-dialog.png");

    // Deleting the link takes its load with it.
    w.modelTree()->select({Kind::Link, 0});
    QVERIFY(trigger(w, "remove"));
    QVERIFY(!doc.json().contains("loads") || doc.json()["loads"].empty());
    QVERIFY2(doc.undoStack()->undoText().contains(", load load1"), qPrintable(doc.undoStack()->undoText()));
  }

  void structureEditsKeepReferences() {
    QTemporaryDir dir;
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, kSeed004)));
    const Json original = w.document()->json();
    ProjectDocument& doc = *w.document();
    auto variant = [&doc](int v) { return doc.json()["variants"][v]["set"]; };
    QVERIFY(variant(0).contains("links[2].flex"));

    w.modelTree()->select({Kind::Link, 1});
    QVERIFY(trigger(w, "addPayload"));
    QCOMPARE(w.modelTree()->current().kind, Kind::Payload);
    QVERIFY(type(w, "payloads[0].mass", "5"));
    QVERIFY(type(w, "payloads[0].offset", "0.1, 0, 0"));
    QCOMPARE(doc.project()->model.payloads[0].link, 1);

    // Rename a link: the payload follows the new name.
    w.modelTree()->select({Kind::Link, 1});
    QVERIFY(type(w, "links[1].name", "upper_arm"));
    QCOMPARE(doc.json()["payloads"][0]["link"], Json("upper_arm"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Rename link link2 to upper_arm"));
    QVERIFY(w.modelTree()->tree()->topLevelItem(1)->child(1)->text(0).startsWith("upper_arm"));

    // Duplicate: a fourth link after it; the variants' paths follow the links they named.
    QVERIFY(trigger(w, "duplicate"));
    QCOMPARE(doc.project()->model.links.size(), std::size_t(4));
    QCOMPARE(doc.project()->model.links[2].name, std::string("link4"));
    QCOMPARE(doc.project()->model.joints[2].name, std::string("joint4"));
    QCOMPARE(doc.project()->model.links[2].length, 4.0);
    // The payload on the link is copied onto the copy.
    QCOMPARE(doc.project()->model.payloads.size(), std::size_t(2));
    QCOMPARE(doc.json()["payloads"][1]["link"], Json("link4"));
    QCOMPARE(doc.json()["payloads"][1]["mass"], doc.json()["payloads"][0]["mass"]);
    QVERIFY2(doc.undoStack()->undoText().endsWith(" and payload " +
                                                  QString::fromStdString(doc.json()["payloads"][1]["name"].get<std::string>())),
             qPrintable(doc.undoStack()->undoText()));
    QVERIFY(variant(0).contains("links[3].flex") && !variant(0).contains("links[2].flex"));
    QCOMPARE(w.modelTree()->current().index, 2);

    // Move it to the tip, insert one at the base, then delete them.
    QVERIFY(trigger(w, "moveDown"));
    QCOMPARE(doc.project()->model.links[3].name, std::string("link4"));
    QCOMPARE(doc.project()->model.links[2].name, std::string("link3"));
    QVERIFY(variant(0).contains("links[2].flex"));
    QVERIFY(!w.modelTree()->action("moveDown")->isEnabled());
    w.modelTree()->select({Kind::Link, 0});
    QVERIFY(!w.modelTree()->action("moveUp")->isEnabled());
    QVERIFY(trigger(w, "insertLink"));
    QCOMPARE(doc.project()->model.links.size(), std::size_t(5));
    QCOMPARE(doc.project()->model.links[0].name, std::string("link5"));
    QVERIFY(!doc.project()->model.links[0].flex);
    QVERIFY(variant(0).contains("links[1].flex") && variant(0).contains("links[3].flex"));

    // Deleting the renamed link deletes its payload too.
    w.modelTree()->select({Kind::Link, 2});
    QCOMPARE(doc.project()->model.links[2].name, std::string("upper_arm"));
    QVERIFY(trigger(w, "remove"));
    QCOMPARE(doc.undoStack()->undoText(), QString("Delete link upper_arm and joint joint2, payload payload1"));
    QCOMPARE(doc.project()->model.payloads.size(), std::size_t(1));  // the copy's, on link4
    QCOMPARE(doc.json()["payloads"][0]["link"], Json("link4"));
    // link1 is links[1] now and link3 links[2]; the deleted link's overrides are gone.
    const Json& set0 = original["variants"][0]["set"];
    QCOMPARE(variant(0)["links[1].mass"], set0["links[0].mass"]);
    QCOMPARE(variant(0)["links[2].mass"], set0["links[2].mass"]);
    QVERIFY(!variant(0).contains("links[3].mass") && !variant(0).contains("links[0].mass"));

    // Rigid <-> flexible joint, and the whole sequence undone.
    w.modelTree()->select({Kind::Joint, 0});
    QVERIFY(choose(w, "joints[0].flex", "flexible"));
    QVERIFY(doc.project()->model.joints[0].flex.has_value());
    while (doc.undoStack()->canUndo()) doc.undo();
    QCOMPARE(doc.json(), original);
    QVERIFY(!w.windowTitle().contains('*'));
  }

  void dirtyMarkerAndUnsavedChangesPrompt() {
    QTemporaryDir dir;
    const QString path = copyOfExample(dir, kSeed004);
    MainWindow w;
    Answers answers;
    answers.install(w);
    w.show();
    QVERIFY(w.openProject(path));
    QVERIFY(!w.windowTitle().contains('*'));
    QVERIFY(w.document()->setValue("simulation.t_end", 0.5, nullptr, "s"));
    QVERIFY(w.windowTitle().contains("* - FlexArm"));
    // Autosaved at once to the project's recovery file.
    const std::optional<AutoSave::Recovery> r = AutoSave::find(path);
    QVERIFY(r.has_value());
    QCOMPARE(r->recovers, QFileInfo(path).absoluteFilePath());
    QCOMPARE(r->document["simulation"]["t_end"], Json(0.5));
    // Cancel keeps everything; Save writes the project; Discard drops the changes and the recovery.
    answers.answer = QMessageBox::Cancel;
    QVERIFY(!w.newEmptyProject());
    QCOMPARE(answers.asked.size(), 1);
    QVERIFY2(answers.asked[0].contains("Save the changes"), qPrintable(answers.asked[0]));
    QCOMPARE(w.document()->json()["simulation"]["t_end"], Json(0.5));
    w.close();  // cancelled too
    QVERIFY(w.isVisible());
    answers.answer = QMessageBox::Save;
    QVERIFY(w.newEmptyProject());
    QCOMPARE(load(path).simulation.t_end, 0.5);
    QVERIFY(!AutoSave::find(path));
    QVERIFY(w.openProject(path));
    QVERIFY(w.document()->setValue("simulation.t_end", 0.25));
    QVERIFY(AutoSave::find(path));
    answers.answer = QMessageBox::Discard;
    QVERIFY(w.newProject());
    QCOMPARE(load(path).simulation.t_end, 0.5);
    QVERIFY(!AutoSave::find(path));
    // Undoing back to the saved state is clean again: no recovery file.
    QVERIFY(w.openProject(path));
    QVERIFY(w.document()->setValue("links[0].length", 1.5));
    QVERIFY(AutoSave::find(path));
    w.document()->undo();
    QVERIFY(!w.document()->isDirty());
    QVERIFY(!AutoSave::find(path));
    QVERIFY(!w.windowTitle().contains('*'));
  }

  void recoveryAfterTheProcessIsKilled() {
    QTemporaryDir dir;
    const QString path = copyOfExample(dir, kSeed004);
    for (const QString& arg : {path, QString("--untitled")}) {
      QProcess child;
      child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
      child.start(FLEXARM_EDITOR_CRASH_HELPER, {arg});
      QVERIFY(child.waitForStarted(10000));
      QByteArray out;
      QElapsedTimer waited;
      waited.start();
      while (!out.contains('\n') && waited.elapsed() < 60000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(500);
        out += child.readAllStandardOutput();
      }
      QCOMPARE(out.trimmed(), QByteArray("edited"));
      ::kill(static_cast<pid_t>(child.processId()), SIGKILL);  // a crash: no clean close
      QVERIFY(child.waitForFinished(10000));
      QCOMPARE(child.exitStatus(), QProcess::CrashExit);

      const QString project = arg == path ? path : QString();
      QVERIFY2(AutoSave::find(project).has_value(), qPrintable(AutoSave::recoveryFileFor(project)));
      MainWindow w;
      Answers answers;
      answers.answer = QMessageBox::Yes;
      answers.install(w);
      w.show();
      if (project.isEmpty()) {
        QVERIFY(w.offerRecovery(QString()));
        QCOMPARE(w.document()->project()->model.links.size(), std::size_t(2));
      } else {
        QVERIFY(w.openProject(path));  // offers the recovery
        QCOMPARE(w.document()->project()->model.links[1].length, 4.5);
      }
      QCOMPARE(answers.asked.size(), 1);
      QVERIFY2(answers.asked[0].contains("Restore them?"), qPrintable(answers.asked[0]));
      QVERIFY(w.document()->isDirty());
      QVERIFY(w.document()->undoStack()->undoText().startsWith("Restore unsaved changes from "));
      w.document()->undo();  // the project as it was on disk
      if (!project.isEmpty())
        QCOMPARE(w.document()->project()->model.links[1].length, 4.0);
      else
        QVERIFY(w.document()->isEmptyChain());
    }
  }

  void declinedRecoveryIsRemoved() {
    QTemporaryDir dir;
    const QString path = copyOfExample(dir, kSeed004);
    {
      ProjectDocument doc;
      AutoSave autosave(&doc);
      QVERIFY(doc.open(path));
      QVERIFY(doc.setValue("links[0].length", 2.0));
      QVERIFY(AutoSave::find(path));
    }  // destroyed without a clean close: the file stays, as after a crash
    MainWindow w;
    Answers answers;
    answers.answer = QMessageBox::No;
    answers.install(w);
    QVERIFY(w.openProject(path));
    QCOMPARE(answers.asked.size(), 1);
    QCOMPARE(w.document()->project()->model.links[0].length, 1.0);
    QVERIFY(!AutoSave::find(path));
  }

  void meshNodesAndInitialShape() {
    // The cantilever (2 m aluminium tube, 50 x 3 mm, 10 spatial elements) as a user refines it.
    QTemporaryDir dir;
    MainWindow w;
    Answers answers;
    answers.answer = QMessageBox::Discard;
    answers.install(w);
    w.show();
    QVERIFY(w.openProject(copyOfExample(dir, "cantilever.flexarm.json")));
    ProjectDocument& doc = *w.document();
    w.modelTree()->select({Kind::Link, 0});
    // Node positions: three unequal elements; 6 coordinates per spatial element.
    QVERIFY(type(w, "links[0].flex.nodes", "0.2, 0.8, 2"));
    QCOMPARE(doc.json()["links"][0]["flex"]["nodes"], Json::array({0.2, 0.8, 2.0}));
    QCOMPARE(w.system()->bodies[0].e_count, 18);
    QVERIFY(!type(w, "links[0].flex.nodes", "0.8, 0.2"));  // not increasing: the loader's message
    QVERIFY2(w.propertyEditor()->fieldError("links[0].flex.nodes").contains("node positions of link 'beam'"),
             qPrintable(w.propertyEditor()->fieldError("links[0].flex.nodes")));
    QVERIFY(type(w, "links[0].flex.nodes", ""));  // back to equal elements
    QVERIFY(!doc.json()["links"][0]["flex"].contains("nodes"));
    QCOMPARE(w.system()->bodies[0].e_count, 60);
    // The initial static shape under its own weight per length, w = rho A g, along -z: the run starts
    // at the clamped-free beam's deflection w L^4 / (8 E I), which Hermite elements give exactly at nodes.
    const double E = 68.9e9, rho = 2700.0, ro = 0.025, ri = 0.022, L = 2.0, pi = flexarm::kPi;
    const double A = pi * (ro * ro - ri * ri), I = pi / 4 * (std::pow(ro, 4) - std::pow(ri, 4)), wl = rho * A * 9.81;
    QVERIFY(type(w, "links[0].flex.initial_load", QString("0, 0, %1").arg(-wl, 0, 'g', 17)));
    Project p = *doc.project();
    p.simulation.t_end = 0.005;
    const Results r = simulate(p);
    QCOMPARE(r.status, RunStatus::Completed);
    const double tip = r.value(0, static_cast<std::size_t>(r.channelIndex("tip.beam.w")));
    QVERIFY2(std::abs(tip / (-wl * std::pow(L, 4) / (8 * E * I)) - 1) < 1e-6, qPrintable(QString::number(tip)));
    // e0 instead: the load goes in the same step; a wrong count is refused with the loader's message.
    QVERIFY(!type(w, "links[0].flex.e0", "0.001, 0"));
    QVERIFY(doc.json()["links"][0]["flex"].contains("initial_load"));
    QString e0 = "0.001";
    for (int k = 1; k < 60; ++k) e0 += ", 0";
    QVERIFY(type(w, "links[0].flex.e0", e0));
    QVERIFY(!doc.json()["links"][0]["flex"].contains("initial_load"));
    QCOMPARE(doc.undoStack()->undoText(),
             QString("Set initial elastic coordinates e0 of link 'beam' to "
                     "[0.001,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,"
                     "0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0."
                     "0,0.0,0.0,0.0,0.0,0.0,0.0,0.0] (instead of initial_load)"));
    // A zero load is no load: the key goes.
    doc.undo();
    QVERIFY(type(w, "links[0].flex.initial_load", "0, 0, 0"));
    QVERIFY(!doc.json()["links"][0]["flex"].contains("initial_load"));
  }

  // A group header of the tree (Links, Joints, Variants) has no fields: selected after an item, the
  // form empties (it indexed the item's fields beyond the header's none and crashed).
  void groupHeaderAfterAnItemShowsNoFields() {
    MainWindow w;
    w.show();
    QVERIFY(w.openProject(example("two-link-flexible-arm.flexarm.json")));
    QTreeWidget* tree = w.modelTree()->tree();
    for (int top = 0; top < tree->topLevelItemCount(); ++top) {
      QTreeWidgetItem* group = tree->topLevelItem(top);
      if (group->childCount() == 0) continue;
      tree->setCurrentItem(group->child(0));
      QVERIFY(!w.propertyEditor()->paths().isEmpty());
      tree->setCurrentItem(group);
      QVERIFY2(w.propertyEditor()->paths().isEmpty(), qPrintable(group->text(0)));
      tree->setCurrentItem(group->child(0));
      QVERIFY(!w.propertyEditor()->paths().isEmpty());
    }
  }

  void cameraStaysWhileEditing() {
    QTemporaryDir dir;
    MainWindow w;
    Answers answers;
    answers.answer = QMessageBox::Discard;
    answers.install(w);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(copyOfExample(dir, kSeed004)));
    QTRY_VERIFY_WITH_TIMEOUT(w.armView()->framesRendered() > 0, 10000);
    const Eigen::Vector3d fitted = w.armView()->cameraPosition();
    // The user turns the view; an edit that changes the arm a little keeps it.
    w.armView()->viewPreset(ArmView::Preset::Top);
    w.armView()->setCameraFrom(*w.armView());
    const Eigen::Vector3d chosen = w.armView()->cameraPosition();
    QVERIFY((chosen - fitted).norm() > 1e-6);
    const double length = w.document()->project()->model.links[0].length;
    QVERIFY(w.document()->setValue("links[0].length", 1.1 * length));
    QCOMPARE(w.armView()->cameraPosition(), chosen);
    w.document()->undo();
    QCOMPARE(w.armView()->cameraPosition(), chosen);
    // An arm three times as long would leave the view: the camera is fitted again.
    QVERIFY(w.document()->setValue("links[0].length", 3 * w.armView()->reach()));
    QVERIFY((w.armView()->cameraPosition() - chosen).norm() > 1e-6);
    // Opening a project fits it: fitting again moves nothing.
    QVERIFY(w.openProject(copyOfExample(dir, "double-pendulum.flexarm.json")));
    const Eigen::Vector3d opened = w.armView()->cameraPosition();
    w.armView()->fitArm();
    QVERIFY((w.armView()->cameraPosition() - opened).norm() < 1e-9 * opened.norm());
  }

  void screenshots() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(copyOfExample(dir, kSeed004)));
    w.modelTree()->select({Kind::Link, 1});
    QVERIFY(!type(w, "links[1].flex.material.E", "0"));
    QTest::qWait(200);
    const QString out = qEnvironmentVariable("FLEXARM_EDITOR_SCREENSHOTS", QDir::tempPath());
    const QImage link = w.screenshot();
    QVERIFY(nonBackgroundPixels(link) > 5000);
    QVERIFY(link.save(out + "/editor-link.png"));
    w.modelTree()->select({Kind::Joint, 1});
    QTest::qWait(200);
    QVERIFY(w.screenshot().save(out + "/editor-joint.png"));
    // A variant's override table, with a refused row and its message.
    w.modelTree()->select({Kind::Variant, 0});
    QVERIFY(!addRow(w, "variants[0].set", "links[1].length", "-4"));
    QTest::qWait(200);
    const QImage variants = w.screenshot();
    QVERIFY(nonBackgroundPixels(variants) > 5000);
    QVERIFY(variants.save(out + "/editor-variants.png"));
    // A revolute closure between two links: the form and, in the 3D view, its peg on the rod.
    QVERIFY(w.openProject(copyOfExample(dir, "palletizer-parallelogram.flexarm.json")));
    w.modelTree()->select({Kind::Constraint, 0});
    QTest::qWait(200);
    QCOMPARE(combo(w, "constraints[0].other_link")->currentText(), QString("turntable"));
    QCOMPARE(lineEdit(w, "constraints[0].other_point")->text(), QString("0, 0, 0.25"));
    QVERIFY(w.screenshot().save(out + "/editor-closure.png"));
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<EditorTest>(argc, argv); }

#include "test_editor.moc"
