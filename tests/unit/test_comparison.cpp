// Side-by-side comparison of runs: common time grid, interpolation, differences, runs that end early.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "results/Comparison.hpp"
#include "results/CsvWriter.hpp"

using namespace flexarm;

namespace {
// A run sampled every dt up to t_end, with channel "x" = f(t).
template <class F>
Results makeRun(double dt, double t_end, F f, RunStatus status = RunStatus::Completed) {
  Results r;
  r.setChannels({{"t", "s"}, {"x", "m"}, {"only_here", "-"}});
  for (int k = 0; k * dt <= t_end + 1e-12; ++k) {
    const double row[3] = {k * dt, f(k * dt), 1.0};
    r.appendRow(row);
  }
  r.end_time = r.column("t").back();
  r.status = status;
  if (status == RunStatus::Diverged) r.message = "diverged at t = " + std::to_string(r.end_time) + " s";
  return r;
}
}  // namespace

TEST(Comparison, DifferenceIsBMinusAAtEverySampleAndEmptyAfterARunEnds) {
  const Results a = makeRun(0.1, 2.0, [](double t) { return std::sin(t); });
  const Results b = makeRun(
      0.1, 1.0, [](double t) { return std::exp(t); }, RunStatus::Diverged);
  const Results c = compareRuns({{"A", &a}, {"B", &b}}, {"x"});
  ASSERT_EQ(c.channels().size(), 4u);
  EXPECT_EQ(c.channels()[1].name, "x[A]");
  EXPECT_EQ(c.channels()[2].name, "x[B]");
  EXPECT_EQ(c.channels()[3].name, "x[B - A]");
  EXPECT_EQ(c.channels()[3].unit, "m");
  ASSERT_EQ(c.rows(), a.rows());  // the grid of the run that went furthest
  for (std::size_t k = 0; k < c.rows(); ++k) {
    const double t = c.value(k, 0);
    EXPECT_EQ(c.value(k, 1), a.value(k, 1));
    if (t <= 1.0 + 1e-12) {
      EXPECT_EQ(c.value(k, 2), b.value(k, 1));
      EXPECT_EQ(c.value(k, 3), b.value(k, 1) - a.value(k, 1));
    } else {
      EXPECT_TRUE(std::isnan(c.value(k, 2))) << t;
      EXPECT_TRUE(std::isnan(c.value(k, 3))) << t;
    }
  }
  EXPECT_NE(c.message.find("B: diverged at t = 1"), std::string::npos) << c.message;
  // In the CSV, the missing values are empty cells, never "nan".
  std::ostringstream csv;
  writeCsv(c, csv);
  EXPECT_EQ(csv.str().find("nan"), std::string::npos);
  EXPECT_NE(csv.str().find("\n2,0.9092974268256817,,\n"), std::string::npos) << csv.str().substr(csv.str().size() - 200);
}

// A diverged run's last row is the state that diverged, between two output times: the comparison
// keeps it (the curve ends where the run did), the other run interpolated there.
TEST(Comparison, TheLastRowOfARunThatEndedBetweenOutputTimesIsKept) {
  const Results a = makeRun(0.1, 2.0, [](double t) { return 3.0 * t; });
  Results b = makeRun(
      0.1, 1.0, [](double t) { return t * t; }, RunStatus::Diverged);
  const double last[3] = {1.03, -4.01, 1.0};
  b.appendRow(last);
  b.end_time = 1.03;
  const Results c = compareRuns({{"A", &a}, {"B", &b}}, {"x"});
  ASSERT_EQ(c.rows(), a.rows() + 1);
  EXPECT_EQ(c.value(10, 0), a.value(10, 0));
  EXPECT_EQ(c.value(11, 0), 1.03);
  EXPECT_EQ(c.value(11, 2), -4.01);                  // B's own last value
  EXPECT_NEAR(c.value(11, 1), 3.09, 1e-14);          // A interpolated (linear: exact)
  EXPECT_NEAR(c.value(11, 3), -4.01 - 3.09, 1e-14);  // B - A there
  EXPECT_EQ(c.value(12, 0), a.value(11, 0));         // then A's grid goes on
  EXPECT_TRUE(std::isnan(c.value(12, 2)));
  // A run that ends on a grid time, written another way by round-off, adds no row.
  Results d = makeRun(0.1, 1.0, [](double t) { return t; });
  const double almost[3] = {1.1 + 1e-15, 0.0, 1.0};
  d.appendRow(almost);
  EXPECT_EQ(compareRuns({{"A", &a}, {"D", &d}}, {"x"}).rows(), a.rows());
}

TEST(Comparison, ARunOnAnotherGridIsInterpolatedLinearly) {
  const Results a = makeRun(0.1, 1.0, [](double t) { return 3.0 * t; });
  const Results b = makeRun(0.25, 1.0, [](double t) { return 2.0 * t + 1.0; });  // linear: interpolation is exact
  const Results c = compareRuns({{"A", &a}, {"B", &b}}, {"x"});
  ASSERT_EQ(c.rows(), 11u);
  for (std::size_t k = 0; k < c.rows(); ++k) {
    const double t = c.value(k, 0);
    EXPECT_NEAR(c.value(k, 2), 2.0 * t + 1.0, 1e-14);
    EXPECT_NEAR(c.value(k, 3), 1.0 - t, 1e-14);
  }
}

TEST(Comparison, DefaultChannelsAreThoseEveryRunHas) {
  const Results a = makeRun(0.5, 1.0, [](double t) { return t; });
  Results b;
  b.setChannels({{"t", "s"}, {"x", "m"}});
  const double row[2] = {0.0, 0.0};
  b.appendRow(row);
  EXPECT_EQ(commonChannels({{"A", &a}, {"B", &b}}), std::vector<std::string>{"x"});
  const Results c = compareRuns({{"A", &a}, {"B", &b}}, {});
  EXPECT_EQ(c.channels().size(), 4u);
}
