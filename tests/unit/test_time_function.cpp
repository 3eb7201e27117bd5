// Every drive law against its closed form at sample times, and its derivatives against
// central finite differences of its own value (an independent check of rate and accel).
#include <gtest/gtest.h>

#include <cmath>

#include "base/Constants.hpp"
#include "model/JointDrive.hpp"
#include "model/TimeFunction.hpp"

using namespace flexarm;

namespace {
using flexarm::kPi;
const double kTimes[] = {0.0, 0.013, 0.37, 1.0, 2.5, 3.3, 7.49, 7.5, 7.51, 10.0, 14.9, 15.0, 16.2, 40.0};

void expectDerivativesConsistent(const TimeFunction& f, double t) {
  const double h = 1e-5;
  const TimeSample s = f.evaluate(t), sp = f.evaluate(t + h), sm = f.evaluate(t - h);
  const double scale = 1.0 + std::abs(s.rate);
  EXPECT_NEAR(s.rate, (sp.value - sm.value) / (2 * h), 1e-6 * scale) << lawName(f.law) << " rate at t=" << t;
  EXPECT_NEAR(s.accel, (sp.rate - sm.rate) / (2 * h), 1e-5 * (1.0 + std::abs(s.accel))) << lawName(f.law) << " accel at t=" << t;
}
}  // namespace

TEST(TimeFunction, ConstantStepSine) {
  TimeFunction c;
  c.law = TimeFunction::Law::Constant;
  c.value = 2.5;
  TimeFunction st;
  st.law = TimeFunction::Law::Step;
  st.t_step = 1.0;
  st.before = -1.0;
  st.after = 3.0;
  TimeFunction sn;
  sn.law = TimeFunction::Law::Sine;
  sn.amplitude = 2.0;
  sn.frequency = 0.5;
  sn.phase = 0.3;
  sn.offset = 1.0;
  for (double t : kTimes) {
    EXPECT_EQ(c.evaluate(t).value, 2.5);
    EXPECT_EQ(st.evaluate(t).value, t < 1.0 ? -1.0 : 3.0);
    EXPECT_NEAR(sn.evaluate(t).value, 1.0 + 2.0 * std::sin(kPi * t + 0.3), 1e-14);
    EXPECT_NEAR(sn.evaluate(t).rate, 2.0 * kPi * std::cos(kPi * t + 0.3), 1e-13);
    expectDerivativesConsistent(sn, t);
  }
}

TEST(TimeFunction, SmoothedStepIsCubicSmoothstep) {
  TimeFunction st;
  st.law = TimeFunction::Law::Step;
  st.t_step = 1.0;
  st.rise_time = 2.0;
  st.before = 1.0;
  st.after = 5.0;
  EXPECT_DOUBLE_EQ(st.evaluate(0.5).value, 1.0);
  EXPECT_DOUBLE_EQ(st.evaluate(2.0).value, 3.0);  // midpoint
  EXPECT_DOUBLE_EQ(st.evaluate(3.5).value, 5.0);
  for (double t : {1.2, 1.9, 2.7}) expectDerivativesConsistent(st, t);
}

TEST(TimeFunction, PolynomialHorner) {
  TimeFunction p;
  p.law = TimeFunction::Law::Polynomial;
  p.coefficients = {1.0, -2.0, 0.5, 0.25};
  for (double t : kTimes) {
    EXPECT_NEAR(p.evaluate(t).value, 1.0 - 2.0 * t + 0.5 * t * t + 0.25 * t * t * t, 1e-12 * (1 + t * t * t));
    EXPECT_NEAR(p.evaluate(t).rate, -2.0 + t + 0.75 * t * t, 1e-12 * (1 + t * t));
    EXPECT_NEAR(p.evaluate(t).accel, 1.0 + 1.5 * t, 1e-12 * (1 + t));
  }
}

// Seed 000 sec 4.1 (Kane, Ryan & Banerjee 1987) spin-up: theta'' = (Omega0/T)(1 - cos(2 pi t / T)) for t < T.
TEST(TimeFunction, SpinUpLaw) {
  TimeFunction f;
  f.law = TimeFunction::Law::SpinUp;
  f.omega0 = 3.0;
  f.T = 15.0;
  const double T = 15.0, W = 3.0;
  for (double t : kTimes) {
    const TimeSample s = f.evaluate(t);
    if (t <= T) {
      const double c = T / (2 * kPi);
      EXPECT_NEAR(s.value, W / T * (t * t / 2 + c * c * (std::cos(t / c) - 1)), 1e-12);
      EXPECT_NEAR(s.rate, W / T * (t - c * std::sin(t / c)), 1e-12);
    } else {
      EXPECT_NEAR(s.value, W * (t - T / 2), 1e-12);
      EXPECT_NEAR(s.rate, W, 1e-12);
    }
    if (std::abs(t - T) > 1e-3 && t > 1e-3) expectDerivativesConsistent(f, t);
  }
  // Landmarks: half-way the rate is Omega0/2 and the acceleration peaks at 2 Omega0/T; at T the rate is Omega0.
  EXPECT_NEAR(f.evaluate(7.5).rate, 1.5, 1e-12);
  EXPECT_NEAR(f.evaluate(7.5).accel, 2 * W / T, 1e-12);
  EXPECT_NEAR(f.evaluate(15.0).value, W * T / 2, 1e-12);
  EXPECT_NEAR(f.evaluate(15.0).accel, 0.0, 1e-12);
}

// Seed 001 eq. (13): theta = pi/6 [2t/t0 - sin(4 pi t/t0)/(2 pi)] up to t0/2, then pi/6 [2 - 2t/t0 + sin(4 pi t/t0)/(2 pi)].
TEST(TimeFunction, OutAndBackLawOfSeed001) {
  TimeFunction f;
  f.law = TimeFunction::Law::OutAndBack;
  f.amplitude = kPi / 6;
  f.t0 = 2.0;
  for (double t : {0.1, 0.5, 0.9, 1.0, 1.3, 1.77, 1.99}) {
    const double expected = t <= 1.0 ? kPi / 6 * (2 * t / 2.0 - std::sin(4 * kPi * t / 2.0) / (2 * kPi))
                                     : kPi / 6 * (2 - 2 * t / 2.0 + std::sin(4 * kPi * t / 2.0) / (2 * kPi));
    EXPECT_NEAR(f.evaluate(t).value, expected, 1e-14) << t;
    if (std::abs(t - 1.0) > 1e-3) expectDerivativesConsistent(f, t);
  }
  EXPECT_NEAR(f.evaluate(1.0).value, kPi / 6, 1e-15);
  EXPECT_NEAR(f.evaluate(1.0).rate, 0.0, 1e-15);
  EXPECT_EQ(f.evaluate(2.5).value, 0.0);  // held at rest after t0
}

TEST(TimeFunction, CycloidalLawIsSeed003Eq57) {
  // W = C1 - (C2/T)[t - (T/2 pi) sin(2 pi t/T)] with C1 = 0.725, C2 = 0.7, T = 0.7 (fast push).
  TimeFunction f;
  f.law = TimeFunction::Law::Cycloidal;
  f.before = 0.725;
  f.after = 0.725 - 0.7;
  f.T = 0.7;
  for (double t : {0.01, 0.1, 0.2, 0.35, 0.5, 0.69}) {
    EXPECT_NEAR(f.evaluate(t).value, 0.725 - 0.7 / 0.7 * (t - 0.7 / (2 * kPi) * std::sin(2 * kPi * t / 0.7)), 1e-14) << t;
    expectDerivativesConsistent(f, t);
  }
  EXPECT_NEAR(f.evaluate(0.35).rate, -2.0, 1e-12);  // peak speed 2 C2 / T = 2 m/s
  EXPECT_EQ(f.evaluate(-1.0).value, 0.725);
  EXPECT_NEAR(f.evaluate(5.0).value, 0.025, 1e-15);
  EXPECT_EQ(f.evaluate(5.0).rate, 0.0);
  f.t_step = 1.0;  // delayed start
  EXPECT_NEAR(f.evaluate(1.35).value, f.before - 0.35, 1e-12);
}

TEST(TimeFunction, TableLinearAndCubic) {
  TimeFunction lin;
  lin.law = TimeFunction::Law::Table;
  lin.table_t = {0.0, 1.0, 3.0};
  lin.table_value = {0.0, 2.0, -2.0};
  lin.prepare();
  EXPECT_DOUBLE_EQ(lin.evaluate(0.5).value, 1.0);
  EXPECT_DOUBLE_EQ(lin.evaluate(2.0).value, 0.0);
  EXPECT_DOUBLE_EQ(lin.evaluate(2.0).rate, -2.0);
  EXPECT_DOUBLE_EQ(lin.evaluate(-1.0).value, 0.0);  // held outside
  EXPECT_DOUBLE_EQ(lin.evaluate(9.0).value, -2.0);

  // A natural cubic spline reproduces any straight line exactly and a cubic's interior closely.
  TimeFunction cub;
  cub.law = TimeFunction::Law::Table;
  cub.interpolation = TableInterpolation::Cubic;
  for (int k = 0; k <= 40; ++k) {
    const double t = 0.1 * k;
    cub.table_t.push_back(t);
    cub.table_value.push_back(std::sin(t));
  }
  cub.prepare();
  for (double t : {0.55, 1.23, 2.01, 3.14}) {
    EXPECT_NEAR(cub.evaluate(t).value, std::sin(t), 2e-5) << t;
    EXPECT_NEAR(cub.evaluate(t).rate, std::cos(t), 2e-3) << t;
    expectDerivativesConsistent(cub, t);
  }
  TimeFunction line = cub;
  for (std::size_t k = 0; k < line.table_t.size(); ++k) line.table_value[k] = 3.0 - 2.0 * line.table_t[k];
  line.prepare();
  EXPECT_NEAR(line.evaluate(1.234).value, 3.0 - 2.0 * 1.234, 1e-13);
  EXPECT_NEAR(line.evaluate(1.234).accel, 0.0, 1e-10);
}

TEST(TimeFunction, PiecewiseIsBeamsTipForceSwitchedOffAtPi) {
  // The BEAM problem's load 1.5 sin^2 t until t = pi, then 0: sin^2 t = 0.75 - 0.75 sin(2t + pi/2) / 1.5 * 1.5.
  TimeFunction on;
  on.law = TimeFunction::Law::Sine;
  on.offset = 0.75;
  on.amplitude = -0.75;
  on.frequency = 1.0 / kPi;  // 2 pi f t = 2 t
  on.phase = kPi / 2;
  TimeFunction off;
  off.law = TimeFunction::Law::Constant;
  TimeFunction f;
  f.law = TimeFunction::Law::Piecewise;
  f.pieces = {on, off};
  f.piece_from = {0.0, kPi};
  f.prepare();
  for (double t : {0.0, 0.4, 1.3, 2.9, 3.1, 3.2, 5.0, 40.0}) {
    const TimeSample s = f.evaluate(t);
    const bool before = t < kPi;
    EXPECT_NEAR(s.value, before ? 1.5 * std::sin(t) * std::sin(t) : 0.0, 1e-14) << t;
    EXPECT_NEAR(s.rate, before ? 1.5 * std::sin(2 * t) : 0.0, 1e-13) << t;
    EXPECT_NEAR(s.accel, before ? 3.0 * std::cos(2 * t) : 0.0, 1e-12) << t;
    if (std::abs(t - kPi) > 1e-3) expectDerivativesConsistent(f, t);
  }
  // The first piece also applies before its start; a single piece is that law.
  f.piece_from = {1.0, kPi};
  EXPECT_NEAR(f.evaluate(0.5).value, 1.5 * std::sin(0.5) * std::sin(0.5), 1e-14);
}

TEST(JointDrive, EffortAndPD) {
  JointDrive d;
  d.kind = JointDrive::Kind::PD;
  d.kp = 100.0;
  d.kd = 10.0;
  d.law.law = TimeFunction::Law::Sine;
  d.law.amplitude = 1.0;
  d.law.frequency = 1.0;
  const double t = 0.1, q = 0.2, qd = -0.3;
  const double ref = std::sin(2 * kPi * t), ref_rate = 2 * kPi * std::cos(2 * kPi * t);
  EXPECT_NEAR(d.effort(t, q, qd), 100.0 * (ref - q) + 10.0 * (ref_rate - qd), 1e-12);
  d.kind = JointDrive::Kind::Effort;
  EXPECT_NEAR(d.effort(t, q, qd), ref, 1e-15);
  d.kind = JointDrive::Kind::Free;
  EXPECT_EQ(d.effort(t, q, qd), 0.0);
}
