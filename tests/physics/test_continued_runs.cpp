// BEAM of the Test Set for IVP Solvers (Mazzia & Magherini; Hairer & Wanner, Solving ODEs II, sec. IV.1)
// built the natural way: 40 rigid segments from the clamp, rotational springs, a tip force with a piecewise
// law, against the Test Set's published reference solution at t = 5. And runs continued from a saved row
// of their results (simulation.t_start, RowCoordinates.hpp) against one uninterrupted run.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "../unit/TestFiles.hpp"
#include "FlexTestModels.hpp"
#include "io/ProjectFile.hpp"
#include "results/CsvReader.hpp"
#include "results/CsvWriter.hpp"
#include "results/RowCoordinates.hpp"
#include "solvers/Simulation.hpp"

using namespace flexarm;
using flexarm::test::loadShipped;

namespace {

constexpr int kSegments = 40;

// The Test Set's reference at t = 5 (beam.f, beam_solut: RADAU in quadruple-precision-like settings): the
// absolute angles of the 40 segments, then their rates.
constexpr std::array<double, 2 * kSegments> kReference = {
    -0.5792366591285007e-02, -0.1695298550721735e-01, -0.2769103312973094e-01, -0.3800815655879158e-01, -0.4790616859743763e-01,
    -0.5738710435274594e-01, -0.6645327313454617e-01, -0.7510730581979037e-01, -0.8335219765414992e-01, -0.9119134654647947e-01,
    -0.9862858700132091e-01, -0.1056682200378002e+00, -0.1123150395409595e+00, -0.1185743552727245e+00, -0.1244520128755561e+00,
    -0.1299544113264161e+00, -0.1350885180610398e+00, -0.1398618819194422e+00, -0.1442826441015242e+00, -0.1483595472463012e+00,
    -0.1521019429001447e+00, -0.1555197978061129e+00, -0.1586236993420229e+00, -0.1614248603702127e+00, -0.1639351238193223e+00,
    -0.1661669673440852e+00, -0.1681335081778558e+00, -0.1698485080602243e+00, -0.1713263782440888e+00, -0.1725821847462537e+00,
    -0.1736316537975654e+00, -0.1744911773840049e+00, -0.1751778187863392e+00, -0.1757093178712902e+00, -0.1761040960228576e+00,
    -0.1763812607175549e+00, -0.1765606097564671e+00, -0.1766626352260565e+00, -0.1767085270807460e+00, -0.1767201761075488e+00,
    0.3747362681329794e-01,  0.1099117880217593e+00,  0.1798360474312799e+00,  0.2472427305442391e+00,  0.3121293820596567e+00,
    0.3744947377019500e+00,  0.4343386073492798e+00,  0.4916620354601748e+00,  0.5464677854586807e+00,  0.5987609702624270e+00,
    0.6485493611110740e+00,  0.6958435169132503e+00,  0.7406572668520808e+00,  0.7830081747813241e+00,  0.8229176659201515e+00,
    0.8604110305190560e+00,  0.8955175502377805e+00,  0.9282708263127953e+00,  0.9587089334522034e+00,  0.9868747821728363e+00,
    0.1012816579961883e+01,  0.1036587736679858e+01,  0.1058246826481355e+01,  0.1077857811433353e+01,  0.1095490222005369e+01,
    0.1111219164294898e+01,  0.1125125269286501e+01,  0.1137294526609229e+01,  0.1147818025153607e+01,  0.1156792132004482e+01,
    0.1164318845130183e+01,  0.1170505992596124e+01,  0.1175467424299550e+01,  0.1179323003228859e+01,  0.1182198586299667e+01,
    0.1184226111223146e+01,  0.1185543909805575e+01,  0.1186297084203716e+01,  0.1186637618908127e+01,  0.1186724615113034e+01};

// tests/data/test-set-beam.flexarm.json: segment k is a massless rod of length 1/40 with the mass 1/40 at its
// far end (1/80 at the tip), joint k a rotational spring of 1/ds (2/ds at the clamp, where the first angle
// sits half a segment from the wall), and the tip force (-1, 1) 1.5 sin^2 t until pi, then 0, as a load with
// a piecewise law. The same equations as the Test Set's beam.f (their accelerations agree to 1e-14 at
// random states; checked once by hand, not here).
Project beamProject(double rtol) {
  LoadedProject p = loadProjectFile(std::string(FLEXARM_TEST_DATA_DIR) + "/test-set-beam.flexarm.json");
  if (!p.project) ADD_FAILURE() << p.diagnostics.text();
  Project project = p.project ? *p.project : Project{};
  project.simulation.method = SimulationSettings::Method::Esdirk;
  project.simulation.rtol = rtol;
  project.simulation.atol = rtol / 100;
  return project;
}

// The absolute angles and their rates at `row`: sums of the joint angles and rates from the clamp.
std::array<double, 2 * kSegments> absoluteState(const Results& r, std::size_t row) {
  std::array<double, 2 * kSegments> y{};
  double theta = 0.0, rate = 0.0;
  for (int k = 1; k <= kSegments; ++k) {
    const int q = r.channelIndex("q.j" + std::to_string(k)), qd = r.channelIndex("qd.j" + std::to_string(k));
    EXPECT_GE(q, 0);
    EXPECT_GE(qd, 0);
    if (q < 0 || qd < 0) return y;
    theta += r.value(row, static_cast<std::size_t>(q));
    rate += r.value(row, static_cast<std::size_t>(qd));
    y[static_cast<std::size_t>(k - 1)] = theta;
    y[static_cast<std::size_t>(kSegments + k - 1)] = rate;
  }
  return y;
}

// Writes the results to CSV and reads them back, as a user's saved run.
Results savedAndReadBack(const Results& r, const std::string& name) {
  const auto dir = flexarm::test::scratchFolder("ContinuedRuns", name);
  const auto file = dir / "first.csv";
  EXPECT_TRUE(writeCsvFile(r, file).ok());
  Result<Results> back = readCsvFile(file);
  EXPECT_TRUE(back.ok()) << (back ? "" : back.error().text());
  return back ? *back : Results{};
}

// One run to t_end and a run to t_mid continued from its saved last row to t_end, on one system.
struct ContinuedRun {
  Results whole, rest;
};
ContinuedRun runWholeAndContinued(const Project& p, double t_mid, const std::string& name) {
  MultibodySystem sys = MultibodySystem::fromModel(p.model, p.coupling);  // one system for the three runs
  ContinuedRun out;
  out.whole = simulate(sys, p.simulation);
  EXPECT_EQ(out.whole.status, RunStatus::Completed) << out.whole.message;
  SimulationSettings first = p.simulation;
  first.t_end = t_mid;
  const Results part = savedAndReadBack(simulate(sys, first), name);
  Project second = p;
  const Status continued = continueFromRow(second, sys, part, part.rows() - 1);
  EXPECT_TRUE(continued.ok()) << (continued ? "" : continued.error().text());
  EXPECT_DOUBLE_EQ(second.simulation.t_start, t_mid);
  out.rest = simulate(sys, second.simulation);  // the system's model now starts at t_mid's state
  EXPECT_EQ(out.rest.status, RunStatus::Completed) << out.rest.message;
  EXPECT_DOUBLE_EQ(out.rest.value(0, 0), t_mid);
  EXPECT_DOUBLE_EQ(out.rest.value(out.rest.rows() - 1, 0), out.whole.value(out.whole.rows() - 1, 0));
  // The continued run starts exactly where the saved one ended.
  for (std::size_t c = 1; c < part.channels().size(); ++c) {
    const int d = out.rest.channelIndex(part.channels()[c].name);
    if (d >= 0 && part.channels()[c].name.rfind("q", 0) == 0)
      EXPECT_EQ(out.rest.value(0, static_cast<std::size_t>(d)), part.value(part.rows() - 1, c)) << part.channels()[c].name;
  }
  return out;
}

// The largest difference at the last row of `r` from `reference`, over every channel named by `prefixes`,
// as a fraction of that channel's largest magnitude in the reference. The positions a user reads (joint
// angles, torsions, tips, end effector): the rates, one derivative further, and the high elastic
// coordinates carry larger errors in either run.
double endDifference(const Results& r, const Results& reference, const std::vector<std::string>& prefixes) {
  double worst = 0.0;
  int compared = 0;
  for (std::size_t c = 1; c < reference.channels().size(); ++c) {
    const std::string& channel = reference.channels()[c].name;
    bool wanted = false;
    for (const std::string& prefix : prefixes) wanted = wanted || channel.rfind(prefix, 0) == 0;
    const int d = r.channelIndex(channel);
    if (!wanted || d < 0) continue;
    const double scale = peakAbs(reference.column(channel));
    if (scale == 0.0) continue;
    const double diff = std::abs(r.value(r.rows() - 1, static_cast<std::size_t>(d)) - reference.value(reference.rows() - 1, c));
    worst = std::max(worst, diff / scale);
    ++compared;
  }
  EXPECT_GT(compared, 0);
  return worst;
}

}  // namespace

TEST(TestSetBeam, FortySegmentsFromTheClampGiveThePublishedAnglesAndRatesAtFiveSeconds) {
  // ESDIRK at rtol 1e-8: the angles within 1e-8 of the reference (measured 1.7e-9), their rates, one
  // derivative further and up to 1.19 rad/s, within 5e-6 (measured 2e-6).
  const Project p = beamProject(1e-8);
  const Results r = simulate(p);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  ASSERT_NEAR(r.value(r.rows() - 1, 0), 5.0, 1e-12);
  const std::array<double, 2 * kSegments> y = absoluteState(r, r.rows() - 1);
  for (int k = 0; k < kSegments; ++k) {
    EXPECT_NEAR(y[static_cast<std::size_t>(k)], kReference[static_cast<std::size_t>(k)], 1e-8) << "angle of segment " << k + 1;
    EXPECT_NEAR(y[static_cast<std::size_t>(kSegments + k)], kReference[static_cast<std::size_t>(kSegments + k)], 5e-6)
        << "rate of segment " << k + 1;
  }
}

TEST(ContinuedRuns, TheTestSetBeamContinuedFromItsSavedRowAtTwoAndAHalfSecondsEqualsOneRun) {
  // The force's law switches at pi, after the restart: the second run reads the laws at the absolute time.
  const double rtol = 1e-8;
  const ContinuedRun run = runWholeAndContinued(beamProject(rtol), 2.5, "beam");
  EXPECT_LT(endDifference(run.rest, run.whole, {"q."}), 10 * rtol);
}

TEST(ContinuedRuns, AFlexibleArmWithFlexibleJointsContinuesFromItsSavedStateAsAccuratelyAsOneRun) {
  // Canadarm2: flexible booms (e, ed) and flexible joints (motor angles and rates, as torsion0 and torsiond0).
  // BDF at rtol 1e-8 ends about 1e-6 of the channels' scale off a run at rtol 1e-11 (measured 0.86e-6 to
  // 1.0e-6): its global error, about 100 rtol. Two such runs, one continued at 0.3 s, differ by 1.3e-8 to
  // 2.5e-7 as their steps fall (rtol changed by 0.1 % moves it across that range, measured on this engine
  // and on the one before gravity became its own term), so they are compared with the tight run: the
  // continued run is as accurate as one run (measured 0.74e-6 to 1.0e-6).
  Project p = loadShipped("canadarm2-drop-seed000.flexarm.json");
  const double rtol = 1e-8;
  p.simulation.method = SimulationSettings::Method::Bdf;
  p.simulation.rtol = rtol;
  p.simulation.atol = rtol * 1e-2;
  p.simulation.t_end = 0.6;
  const ContinuedRun run = runWholeAndContinued(p, 0.3, "canadarm2");
  Project tight = p;
  tight.simulation.rtol = 1e-11;
  tight.simulation.atol = 1e-13;
  const Results reference = simulate(tight);
  ASSERT_EQ(reference.status, RunStatus::Completed) << reference.message;
  const std::vector<std::string> positions{"q.", "torsion.", "tip.", "ee."};
  const double one_run = endDifference(run.whole, reference, positions);
  const double continued = endDifference(run.rest, reference, positions);
  EXPECT_LT(one_run, 3e-6);  // as measured: the comparison below is between two accurate runs
  EXPECT_LT(continued, 1.5 * one_run + 10 * rtol) << "one run " << one_run;
}

TEST(ContinuedRuns, ResultsOfAnotherModelOrWithoutTheRowAreRefusedByName) {
  const Project beam = beamProject(1e-6);
  Project arm = loadShipped("two-link-flexible-arm.flexarm.json");
  arm.simulation.t_end = 0.05;
  MultibodySystem arm_sys = MultibodySystem::fromModel(arm.model, arm.coupling);
  const Results r = simulate(arm_sys, arm.simulation);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  Project other = beam;
  MultibodySystem beam_sys = MultibodySystem::fromModel(beam.model, beam.coupling);
  const Status refused = continueFromRow(other, beam_sys, r, r.rows() - 1);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().text().find("\"q.j1\""), std::string::npos) << refused.error().text();

  const Result<std::size_t> missing = rowAtTime(r, 7.0);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().text().find("no row at t = 7 s"), std::string::npos) << missing.error().text();
  const Result<std::size_t> at = rowAtTime(r, 0.02);
  ASSERT_TRUE(at.ok());
  EXPECT_NEAR(r.value(*at, 0), 0.02, 1e-12);

  Project late = arm;
  late.simulation.t_end = 0.01;
  const std::shared_ptr<const Model> model_before = arm_sys.model;
  const Status after_end = continueFromRow(late, arm_sys, r, r.rows() - 1);
  ASSERT_FALSE(after_end.ok());
  EXPECT_EQ(arm_sys.model, model_before);  // a refused continuation leaves the system's model as it was
  EXPECT_NE(after_end.error().text().find("not before t_end"), std::string::npos) << after_end.error().text();
}
