// The mode preview as a user drives it (Qt Test, under xvfb-run): open the clamped cantilever,
// Analysis > Natural modes, compute with clamped joints and compare the first two bending frequencies
// with the Euler-Bernoulli closed form; animate mode 1 in the 3D view (the drawn tip moves by the
// requested amplitude about the static deflection, the image changes), stop it (the view is
// undeformed again); an edit makes the modes out of date, a run and the timeline stop the animation;
// an empty chain and a rigid arm get a clear message. Writes the user guide's screenshot.
#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "base/Constants.hpp"
#include "tests/ui/UiTestSupport.hpp"
#include "ui/view/ArmView.hpp"
#include "ui/workbench/MainWindow.hpp"
#include "ui/view/ModePreview.hpp"
#include "ui/document/ProjectDocument.hpp"
#include "ui/view/Timeline.hpp"

using namespace flexarm;
using flexarm::test::nonBackgroundPixels;

namespace {
using flexarm::kPi;
#ifdef FLEXARM_SANITIZED
constexpr int kSlow = 300000;  // [ms] the linearization and a run are ~10x slower under ASan
#else
constexpr int kSlow = 60000;
#endif

QString copyOfCantilever(const QTemporaryDir& dir) {
  const QString path = dir.filePath("cantilever.flexarm.json");
  QFile::remove(path);
  return QFile::copy(QString(FLEXARM_PROJECTS_DIR) + "/cantilever.flexarm.json", path) ? path : QString();
}

QAction* menuAction(MainWindow& w, const QString& menu, const QString& text) {
  for (QAction* m : w.menuBar()->actions())
    if (m->text() == menu && m->menu())
      for (QAction* a : m->menu()->actions())
        if (a->text() == text) return a;
  return nullptr;
}

// Euler-Bernoulli clamped-free beam: f_n = (beta_n L)^2 / (2 pi L^2) sqrt(E I / (rho A)) [Hz].
double closedForm(double betaL, double L, double EI, double rhoA) {
  return betaL * betaL / (2 * kPi * L * L) * std::sqrt(EI / rhoA);
}

double cellValue(QTableWidget* t, int row, int col) {
  return t->item(row, col) ? t->item(row, col)->text().toDouble() : std::nan("");
}

// Pixels (every second one in each direction) whose colour differs clearly between two images.
int changedPixels(const QImage& a, const QImage& b) {
  if (a.size() != b.size()) return -1;
  int n = 0;
  for (int y = 0; y < a.height(); y += 2)
    for (int x = 0; x < a.width(); x += 2) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      if (std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > 60) ++n;
    }
  return n;
}

QPushButton* button(ModePreview* m, const QString& text) {
  for (QPushButton* b : m->findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

// Presses Compute and waits until the computation ends (at once for a refusal).
bool computeAndWait(ModePreview* m) {
  QSignalSpy done(m, &ModePreview::finished);
  QPushButton* compute = button(m, "Compute modes");
  if (!compute || !compute->isEnabled()) return false;
  compute->click();
  return (done.count() > 0 || done.wait(kSlow)) && !m->isComputing();
}
}  // namespace

class ModesTest : public QObject {
  Q_OBJECT
 private slots:
  void cantileverFrequenciesAnimationAndOutOfDate() {
    QTemporaryDir dir;
    MainWindow w;
    w.setQuestionHandler([](const QString&, const QString&, int) { return int(QMessageBox::Discard); });
    w.resize(1600, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(copyOfCantilever(dir)));

    // The example is a clamped flexible beam without payloads: its first bending frequencies are the
    // Euler-Bernoulli ones of a uniform clamped-free beam.
    const Project& p = *w.document()->project();
    QCOMPARE(p.model.links.size(), std::size_t(1));
    QVERIFY(p.model.links[0].flex.has_value());
    QVERIFY(p.model.payloads.empty());
    QCOMPARE(p.model.joints[0].drive.kind, JointDrive::Kind::Prescribed);
    const FlexibleLink& f = *p.model.links[0].flex;
    const double L = p.model.links[0].length, E = f.material.E, rho = f.material.rho, A = f.section.A;
    QCOMPARE(f.section.Iy, f.section.Iz);  // a tube: bending in y and z are a pair at each frequency
    const double I = f.section.Iy;
    const double f1 = closedForm(1.87510407, L, E * I, rho * A), f2 = closedForm(4.69409113, L, E * I, rho * A);
    qInfo("closed form: f1 = %.6f Hz, f2 = %.6f Hz (E = %g Pa, I = %g m^4, rho = %g kg/m^3, A = %g m^2, L = %g m)", f1, f2, E, I,
          rho, A, L);

    // Analysis > Natural modes... shows the dock.
    QAction* open = menuAction(w, "&Analysis", "Natural &modes...");
    QVERIFY(open);
    open->trigger();
    ModePreview* m = w.modePreview();
    QVERIFY(m->isVisible());
    QVERIFY(menuAction(w, "&View", "Natural modes"));  // and the View menu toggles it
    m->setClampJoints(true);
    QVERIFY(computeAndWait(m));
    QVERIFY2(!m->outcome()->result.modes.empty(), qPrintable(m->statusText()));
    QVERIFY(!m->isOutOfDate());
    QVERIFY2(m->configurationText().contains("initial configuration") && m->configurationText().contains("clamped"),
             qPrintable(m->configurationText()));

    // The table: modes 1-2 are the first bending pair, 3-4 the second (the tube's y and z bending).
    // Undamped frequency omega / 2 pi against the closed form; 10 Hermite elements are within 1e-5 of
    // the converged beam for these modes (error ~ (h/L)^4), well inside 2e-4.
    QTableWidget* t = m->table();
    QVERIFY(t->rowCount() >= 4);
    for (int row = 0; row < 4; ++row) {
      const double expected = row < 2 ? f1 : f2;
      const double fn = cellValue(t, row, 2) / (2 * kPi), fd = cellValue(t, row, 1);
      const double zeta = m->outcome()->result.modes[static_cast<std::size_t>(row)].damping_ratio;  // the table shows 4 digits
      qInfo("mode %d: omega/2pi = %.6f Hz (closed form %.6f Hz, %+.2e), damped f = %.6f Hz, zeta = %.4g", row + 1, fn, expected,
            fn / expected - 1, fd, zeta);
      QVERIFY2(std::abs(fn / expected - 1) < 2e-4,
               qPrintable(QString("mode %1: %2 Hz, expected %3 Hz").arg(row + 1).arg(fn).arg(expected)));
      // The damped frequency of the Rayleigh damping: f_n sqrt(1 - zeta^2), zeta = alpha / (2 omega) + beta omega / 2.
      const double w_n = 2 * kPi * expected;
      const double zeta_rayleigh = f.damping.rayleigh_alpha / (2 * w_n) + f.damping.rayleigh_beta * w_n / 2;
      QVERIFY2(std::abs(zeta / zeta_rayleigh - 1) < 1e-3,
               qPrintable(QString("zeta %1, Rayleigh %2").arg(zeta).arg(zeta_rayleigh)));
      QVERIFY(std::abs(fd / (fn * std::sqrt(1 - zeta * zeta)) - 1) < 1e-4);  // the table's columns agree
      QCOMPARE(t->item(row, 4)->text(), QString("stable"));
    }
    QCOMPARE(m->outcome()->result.rigid_body_modes, 0);

    // Animate mode 1: the drawn tip moves by the requested amplitude (10 % of the 2 m reach) about the
    // static deflection under gravity, w L^4 / (8 E I) (the view's deformation scale is 1).
    ArmView* view = w.armView();
    QCOMPARE(view->deformationScale(), 1.0);
    const Eigen::Vector3d undeformed = view->drawnTip(0);
    QVERIFY((undeformed - Eigen::Vector3d(L, 0, 0)).norm() < 1e-12);
    m->setAmplitude(0.1);
    t->selectRow(0);
    QVERIFY(m->isAnimating());
    QCOMPARE(m->animatedMode(), 0);
    QCOMPARE(m->targetDisplacement(), 0.1 * L);
    view->fitArm();  // the dock took width from the view
    QVERIFY(m->showPhase(0.0));
    QTest::qWait(50);
    const Eigen::Vector3d at_eq = view->drawnTip(0);
    const QImage image_eq = w.screenshot();
    const double sag = -rho * A * 9.81 * std::pow(L, 4) / (8 * E * I);
    QVERIFY2(std::abs(at_eq.z() / sag - 1) < 2e-3, qPrintable(QString("tip z %1 m, expected %2 m").arg(at_eq.z()).arg(sag)));
    QVERIFY(m->showPhase(kPi / 2));
    QTest::qWait(50);
    const Eigen::Vector3d at_peak = view->drawnTip(0);
    const QImage image_peak = w.screenshot();
    QVERIFY(m->showPhase(-kPi / 2));
    const Eigen::Vector3d at_trough = view->drawnTip(0);
    qInfo("drawn tip: equilibrium (%g, %g, %g), +amplitude moved %g m, -amplitude moved %g m", at_eq.x(), at_eq.y(), at_eq.z(),
          (at_peak - at_eq).norm(), (at_trough - at_eq).norm());
    QVERIFY(std::abs((at_peak - at_eq).norm() / (0.1 * L) - 1) < 1e-3);
    QVERIFY(std::abs((at_trough - at_eq).norm() / (0.1 * L) - 1) < 0.02);  // the other side of a bend: nearly symmetric
    QVERIFY((at_peak - at_trough).norm() > 1.9 * 0.1 * L);
    // A bending mode: the tip moves across the beam (in y-z; the pair's eigenvector may mix the two),
    // and along it only by the foreshortening, about 0.65 d^2 / L = 0.013 m for d = 0.2 m.
    const Eigen::Vector3d d = at_peak - at_eq;
    QVERIFY2(d.tail<2>().norm() > 0.99 * d.norm() && d.x() < 0, qPrintable(QString("%1 %2 %3").arg(d.x()).arg(d.y()).arg(d.z())));
    QVERIFY(nonBackgroundPixels(image_eq) > 5000);
    const int changed = changedPixels(image_eq, image_peak);
    qInfo("pixels changed between the phases: %d", changed);
    QVERIFY(changed > 200);

    // Running, the animation redraws the view on its own.
    QVERIFY(m->animate(0));
    const long long frames = view->framesRendered();
    QTest::qWait(600);
    QVERIFY(view->framesRendered() > frames + 2);
    QVERIFY((view->drawnTip(0) - undeformed).norm() > 1e-4);

    // Stop: the view shows the undeformed state it showed before.
    QPushButton* stop = button(m, "Stop");
    QVERIFY(stop && stop->isEnabled());
    stop->click();
    QVERIFY(!m->isAnimating());
    QVERIFY(!stop->isEnabled());
    QVERIFY((view->drawnTip(0) - undeformed).norm() < 1e-12);

    // An edit makes the modes out of date and stops the animation; they cannot be animated until computed again.
    QVERIFY(m->animate(0));
    QString error;
    const double L2 = 1.5;
    QVERIFY2(w.document()->setValue("links[0].length", L2, &error, "m"), qPrintable(error));
    QVERIFY(!m->isAnimating());
    QVERIFY(m->isOutOfDate());
    QVERIFY2(m->statusText().startsWith("Out of date"), qPrintable(m->statusText()));
    QVERIFY(!m->animate(0));
    QVERIFY(computeAndWait(m));
    QVERIFY(!m->isOutOfDate());
    // The shorter beam: f scales as 1 / L^2.
    const double f1_short = cellValue(t, 0, 2) / (2 * kPi);
    qInfo("L = %g m: f1 = %.6f Hz (closed form %.6f Hz)", L2, f1_short, closedForm(1.87510407, L2, E * I, rho * A));
    QVERIFY2(std::abs(f1_short / closedForm(1.87510407, L2, E * I, rho * A) - 1) < 2e-4, qPrintable(QString::number(f1_short)));

    // A run stops the animation; afterwards the configuration at the timeline's time can be used.
    QVERIFY(w.document()->setValue("simulation.t_end", 0.05, &error, "s"));
    QVERIFY(computeAndWait(m));
    QVERIFY(m->animate(0));
    w.runSimulation();
    QVERIFY(!m->isAnimating());
    QVERIFY(!m->animate(0));  // not while the run goes
    QTRY_VERIFY_WITH_TIMEOUT(!w.isRunning(), kSlow);
    QVERIFY(w.results());
    QCheckBox* use_run = nullptr;
    for (QCheckBox* c : m->findChildren<QCheckBox*>())
      if (c->text().startsWith("At the timeline's time")) use_run = c;
    QVERIFY(use_run && use_run->isEnabled());
    QVERIFY2(use_run->text().contains("t = 0.05 s"), qPrintable(use_run->text()));
    m->setUseRunConfiguration(true);
    QVERIFY(computeAndWait(m));
    QVERIFY2(m->configurationText().contains("last run at t = 0.05 s"), qPrintable(m->configurationText()));
    // The joint is held at 0 throughout: the same frequencies.
    QVERIFY(std::abs(cellValue(t, 0, 2) / (2 * kPi) / f1_short - 1) < 1e-5);
    // Moving the timeline stops the animation; the view shows the timeline's row.
    QVERIFY(m->animate(0));
    w.timeline()->setRow(0);
    QVERIFY(!m->isAnimating());
    QVERIFY((view->drawnTip(0) - Eigen::Vector3d(L2, 0, 0)).norm() < 1e-9);  // the run starts undeformed
  }

  // Spin joint 1 (the clamp turns about the vertical z): the flapwise mode (tip moving in z) stiffens
  // by the Southwell coefficient, omega^2 = omega_0^2 + 1.193 Omega^2 for a cantilever without hub.
  void spinStiffensTheFlapwiseMode() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1600, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(copyOfCantilever(dir)));
    w.showModePreview();
    ModePreview* m = w.modePreview();
    m->setClampJoints(true);
    QVERIFY(computeAndWait(m));
    QVERIFY(m->outcome() && m->outcome()->result.modes.size() >= 2);
    const double w0 = m->outcome()->result.modes[0].omega;
    const double spin = 40.0;  // [rad/s], about half the first bending frequency
    m->setSpinRate(spin);
    QVERIFY(computeAndWait(m));
    QVERIFY2(m->configurationText().contains("spinning at 40 rad/s"), qPrintable(m->configurationText()));
    // Which of the two lowest modes is flapwise: animate each and look where the drawn tip goes.
    int flap = -1;
    for (int k = 0; k < 2; ++k) {
      QVERIFY(m->animate(k));
      QVERIFY(m->showPhase(0.0));
      const Eigen::Vector3d rest = w.armView()->drawnTip(0);
      QVERIFY(m->showPhase(kPi / 2));
      const Eigen::Vector3d d = w.armView()->drawnTip(0) - rest;
      if (std::abs(d.z()) > 0.9 * d.norm()) flap = k;
    }
    m->stopAnimation();
    QVERIFY(flap >= 0);
    const double wf = m->outcome()->result.modes[static_cast<std::size_t>(flap)].omega;
    const double southwell = (wf * wf - w0 * w0) / (spin * spin);
    qInfo("spin %g rad/s: flapwise omega %.5g rad/s (at rest %.5g), Southwell coefficient %.4f", spin, wf, w0, southwell);
    QVERIFY2(std::abs(southwell / 1.193 - 1) < 0.02, qPrintable(QString::number(southwell)));
    QVERIFY(!m->outcome()->result.modes[0].unstable);
  }

  void aConstrainedMechanismsModesAreThoseItsConstraintsAllow() {
    // The shipped flexible four-bar: its rocker pinned to the ground, its crank prescribed. The mode view
    // linearizes on the motions the pin allows (Linearization.hpp): no rigid-body mode, and it says so.
    QTemporaryDir dir;
    const QString path = dir.filePath("flexible-four-bar.flexarm.json");
    QVERIFY(QFile::copy(QString(FLEXARM_PROJECTS_DIR) + "/flexible-four-bar.flexarm.json", path));
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    w.showModePreview();
    ModePreview* m = w.modePreview();
    QVERIFY(computeAndWait(m));
    QVERIFY2(m->outcome() && !m->outcome()->result.modes.empty(), qPrintable(m->statusText()));
    const QLabel* summary = m->findChild<QLabel*>("modes.summary");
    QVERIFY(summary);
    QVERIFY2(summary->text().contains("The modes are the motions the project's constraints allow."), qPrintable(summary->text()));
    QVERIFY2(summary->text().contains("0 rigid-body modes"), qPrintable(summary->text()));
    QVERIFY(m->outcome()->result.modes.front().omega > 1.0);
  }

  void emptyChainAndRigidArmAreRefusedClearly() {
    MainWindow w;
    w.setQuestionHandler([](const QString&, const QString&, int) { return int(QMessageBox::Discard); });
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.newEmptyProject());
    w.showModePreview();
    ModePreview* m = w.modePreview();
    QVERIFY(computeAndWait(m));
    QVERIFY2(m->statusText().contains("The chain is empty"), qPrintable(m->statusText()));
    QVERIFY(!m->outcome());
    QCOMPARE(m->table()->rowCount(), 0);
    QVERIFY(!m->animate(0));

    QVERIFY(w.newProject());  // one rigid rod on a free joint
    QVERIFY(computeAndWait(m));
    QVERIFY2(m->statusText().contains("No flexible coordinate"), qPrintable(m->statusText()));
    QCOMPARE(m->table()->rowCount(), 0);
    QVERIFY(!m->animate(0));
  }

  // The user guide's screenshot: the dock's table and mode 2 (second bending) at its largest displacement.
  void screenshot() {
    QTemporaryDir dir;
    MainWindow w;
    w.resize(1600, 950);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(copyOfCantilever(dir)));
    w.showModePreview();
    ModePreview* m = w.modePreview();
    m->setClampJoints(true);
    QVERIFY(computeAndWait(m));
    m->setAmplitude(0.15);
    m->table()->selectRow(2);
    QVERIFY(m->isAnimating());
    w.armView()->viewPreset(ArmView::Preset::Iso);  // fitted to the view, which the dock made narrower
    QVERIFY(m->showPhase(kPi / 2));
    QTest::qWait(200);
    const QImage shot = w.screenshot();
    QVERIFY(nonBackgroundPixels(shot) > 5000);
    const QString out = qEnvironmentVariable("FLEXARM_SCREENSHOTS", QDir::tempPath());
    QVERIFY(shot.save(out + "/modes.png"));
  }
};

int main(int argc, char** argv) { return flexarm::test::runUiTests<ModesTest>(argc, argv); }

#include "test_modes.moc"
