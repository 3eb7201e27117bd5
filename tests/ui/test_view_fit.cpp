// The 3D view keeps the arm in sight (issue 20, item 4), under xvfb-run: the spin-up beam at 8 rad/s
// sweeps a disc of its length about the hub; the camera, fitted when the project opens and when the
// compare window starts, sees the drawn tip at every row of the run (and, after a larger deformation
// scale, once Fit is pressed again). The colour bar sits beside the scene with labels at least 10 px
// high, its title clear of them; in compare mode the views share one colour range when asked to.
#include <QAction>
#include <QDoubleSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "tests/ui/UiTestSupport.hpp"
#include "ui/compare/CompareWindow.hpp"
#include "ui/run/RunSession.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/view/ColourBar.hpp"
#include "ui/view/Timeline.hpp"
#include "ui/workbench/MainWindow.hpp"

using namespace flexarm;

namespace {
constexpr double kPi = 3.14159265358979323846;

// Steps the timeline through every row; false (with the row and the tip in *why) when a view's drawn
// tip leaves its camera's view.
bool tipsInViewAtEveryRow(Timeline* timeline, const std::vector<ArmView*>& views, QString* why) {
  for (int row = 0; row < static_cast<int>(timeline->size()); ++row) {
    timeline->setRow(row);
    for (ArmView* v : views) {
      const Eigen::Vector3d tip = v->drawnTip(0);
      if (!v->inView(tip)) {
        *why = QString("row %1 (t = %2 s): tip (%3, %4, %5) out of view")
                   .arg(row)
                   .arg(timeline->time())
                   .arg(tip.x())
                   .arg(tip.y())
                   .arg(tip.z());
        return false;
      }
    }
  }
  return static_cast<int>(timeline->size()) > 0;
}

// The colour bar shown beside the scene (not over it), its labels readable and clear of the title.
bool colourBarReadable(ArmView* v, QString* why) {
  ColourBar* bar = v->colourBar();
  if (!bar->isVisible()) return *why = "the colour bar is hidden", false;
  const QRect bar_at(bar->mapTo(v, QPoint(0, 0)), bar->size());
  const QRect scene_at(v->sceneWidget()->mapTo(v, QPoint(0, 0)), v->sceneWidget()->size());
  if (bar_at.intersects(scene_at)) return *why = "the colour bar covers the scene", false;
  const QRect title = bar->titleRect();
  if (title.height() < 10 || !bar->rect().contains(title)) return *why = "the title is cut", false;
  for (const QRect& r : bar->labelRects()) {
    if (r.height() < 10) return *why = QString("a label is %1 px high").arg(r.height()), false;
    if (r.intersects(title)) return *why = "a label is under the title", false;
    if (!bar->rect().contains(r)) return *why = "a label is cut", false;
  }
  return true;
}
}  // namespace

class ViewFitTest : public QObject {
  Q_OBJECT
 private slots:
  void mainWindowKeepsTheSpinningBeamInSight() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(flexarm::test::spinUpAtEight(dir, "high")));
    QTest::qWait(100);
    ArmView* v = w.armView();
    // Opened: the disc the 8 m beam can sweep about the hub is in view.
    for (int k = 0; k < 16; ++k) {
      const Eigen::Vector3d p(8.0 * std::cos(k * kPi / 8), 8.0 * std::sin(k * kPi / 8), 0.0);
      QVERIFY2(v->inView(p), qPrintable(QString("(%1, %2) out of view").arg(p.x()).arg(p.y())));
    }
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 300000);
    QCOMPARE(w.results()->status, RunStatus::Completed);
    Eigen::VectorXd last;  // the view shows the run's last state when it ends
    QVERIFY(w.session()->stateAtRow(w.results()->rows() - 1, last));
    QVERIFY((v->state() - last).norm() < 1e-12);
    QString why;
    QVERIFY2(tipsInViewAtEveryRow(w.timeline(), {v}, &why), qPrintable(why));
    QVERIFY2(colourBarReadable(v, &why), qPrintable(why));
    QCOMPARE(v->colourBar()->upper(), v->colourRange());
    w.timeline()->setRow(static_cast<int>(w.timeline()->size()) / 2);
    flexarm::test::saveScreenshot(w, "view-main-spinup");
  }

  // Payloads on sections of a flexible link are drawn where the deformed beam carries them: one on the
  // last section on the drawn tip at every row, one at mid-span between the root and the tip, sagging
  // the same way less far.
  void sectionPayloadsRideOnTheDrawnBeam() {
    QTemporaryDir dir;
    const QString project = flexarm::test::savedExample(
        dir, "cantilever.flexarm.json",
        {"simulation.t_end=0.4",
         R"(payloads=[{"name": "end", "link": "beam", "frame": "section", "offset": [2, 0, 0], "mass": 0.5},
                      {"name": "motor", "link": "beam", "frame": "section", "offset": [1, 0, 0], "mass": 1.5}])"},
        "cantilever-with-motor.flexarm.json");
    QVERIFY(!project.isEmpty());
    MainWindow w;
    QVERIFY(flexarm::test::openShown(w, project));
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.runSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), 120000);
    QCOMPARE(w.results()->status, RunStatus::Completed);
    ArmView* v = w.armView();
    bool sagged = false;
    for (int row = 0; row < static_cast<int>(w.timeline()->size()); ++row) {
      w.timeline()->setRow(row);
      const std::vector<Eigen::Vector3d> drawn = v->drawnSectionPayloads();
      QCOMPARE(drawn.size(), std::size_t{2});
      const Eigen::Vector3d tip = v->drawnTip(0);
      // The drawn centreline's points are stored in single precision: 2 m to about 2e-7 m.
      QVERIFY2((drawn[0] - tip).norm() < 1e-6,
               qPrintable(QString("row %1: the end payload is %2 m off the tip").arg(row).arg((drawn[0] - tip).norm())));
      QVERIFY(v->inView(drawn[1]));
      QVERIFY(std::abs(drawn[1].x() - 1.0) < 0.05);  // at mid-span of the 2 m beam along x
      if (std::abs(tip.z()) > 1e-4) {
        sagged = true;
        QVERIFY2(drawn[1].z() * tip.z() > 0.0 && std::abs(drawn[1].z()) < std::abs(tip.z()),
                 qPrintable(QString("row %1: mid-span %2, tip %3").arg(row).arg(drawn[1].z()).arg(tip.z())));
      }
    }
    QVERIFY(sagged);
    flexarm::test::saveScreenshot(w, "view-section-payloads");
  }

  void compareViewsKeepBothBeamsInSight() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(flexarm::test::spinUpAtEight(dir, "high")));
    CompareWindow* c = w.compareZeroVsHigh();
    QVERIFY(c);
    QVERIFY(QTest::qWaitForWindowExposed(c));
    const std::vector<ArmView*> views = {c->view(0), c->view(1)};
    for (ArmView* v : views) QVERIFY(v->inView(v->drawnTip(0)));  // at the start
    QTRY_VERIFY_WITH_TIMEOUT(!c->isRunning(), 300000);
    QString why;
    QVERIFY2(tipsInViewAtEveryRow(c->timeline(), views, &why), qPrintable(why));

    // One colour range for both views (on by default), or each its own.
    QVERIFY(c->sharedColourRange());
    QCOMPARE(views[0]->colourRange(), views[1]->colourRange());
    for (ArmView* v : views) QVERIFY2(colourBarReadable(v, &why), qPrintable(why));
    c->setSharedColourRange(false);
    c->timeline()->setRow(0);  // the start: each view's range from its own (nearly straight) beam
    const double own0 = views[0]->colourRange(), own1 = views[1]->colourRange();
    c->setSharedColourRange(true);
    QCOMPARE(views[0]->colourRange(), std::max(own0, own1));
    QCOMPARE(views[1]->colourRange(), std::max(own0, own1));

    // The toolbar's deformation scale draws every view's deformation larger; Fit frames what they sweep.
    auto* scale = c->findChild<QDoubleSpinBox*>("compare.scale");
    QVERIFY(scale);
    scale->setValue(5);
    for (ArmView* v : views) QCOMPARE(v->deformationScale(), 5.0);
    for (int row = 0; row < static_cast<int>(c->timeline()->size()); ++row) c->timeline()->setRow(row);  // drawn, larger
    auto* fit = c->findChild<QAction*>("compare.fit");
    QVERIFY(fit);
    fit->trigger();
    QVERIFY2(tipsInViewAtEveryRow(c->timeline(), views, &why), qPrintable(why));
    QVERIFY((views[0]->cameraPosition() - views[1]->cameraPosition()).norm() < 1e-9);  // one camera
    // Back at scale 1, Fit frames the arms as they are drawn now, not the larger drawing before.
    const double far = (views[0]->cameraPosition() - views[0]->envelope().centre).norm();
    scale->setValue(1);
    for (int row = 0; row < static_cast<int>(c->timeline()->size()); ++row) c->timeline()->setRow(row);
    fit->trigger();
    QVERIFY((views[0]->cameraPosition() - views[0]->envelope().centre).norm() < far);
    QVERIFY2(tipsInViewAtEveryRow(c->timeline(), views, &why), qPrintable(why));
    c->timeline()->setRow(static_cast<int>(c->timeline()->size()) / 2);
    const QString shots = qEnvironmentVariable("FLEXARM_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      QTest::qWait(300);
      grabWithViews(c, views).save(shots + "/view-compare.png");
    }
    c->close();
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<ViewFitTest>(argc, argv); }
#include "test_view_fit.moc"
