#include "model/TimeFunction.hpp"

#include <algorithm>
#include <cmath>

#include "base/Constants.hpp"

namespace flexarm {
namespace {

TimeSample evalTable(const TimeFunction& f, double t) {
  const auto& ts = f.table_t;
  const auto& vs = f.table_value;
  const std::size_t n = ts.size();
  if (n == 0) return {};
  // Held outside [first, last]; the end points themselves belong to the first and last interval,
  // so a table that starts moving at its first point reports that motion's rate there.
  if (n == 1 || t < ts.front()) return {vs.front(), 0.0, 0.0};
  if (t > ts.back()) return {vs.back(), 0.0, 0.0};
  const auto it = std::upper_bound(ts.begin(), ts.end(), t);
  const std::size_t k = std::min(static_cast<std::size_t>(it - ts.begin()) - 1, n - 2);  // ts[k] <= t <= ts[k+1]
  const double h = ts[k + 1] - ts[k];
  const double a = (ts[k + 1] - t) / h;
  const double b = (t - ts[k]) / h;
  if (f.interpolation == TableInterpolation::Linear || f.spline_m.size() != n) {
    return {a * vs[k] + b * vs[k + 1], (vs[k + 1] - vs[k]) / h, 0.0};
  }
  const double m0 = f.spline_m[k], m1 = f.spline_m[k + 1];
  const double value = a * vs[k] + b * vs[k + 1] + ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6.0;
  const double rate = (vs[k + 1] - vs[k]) / h - (3.0 * a * a - 1.0) / 6.0 * h * m0 + (3.0 * b * b - 1.0) / 6.0 * h * m1;
  const double accel = a * m0 + b * m1;
  return {value, rate, accel};
}
}  // namespace

void TimeFunction::prepare() {
  for (TimeFunction& piece : pieces) piece.prepare();
  spline_m.clear();
  if (law != Law::Table || interpolation != TableInterpolation::Cubic) return;
  const std::size_t n = table_t.size();
  spline_m.assign(n, 0.0);
  if (n < 3) return;
  // Natural cubic spline: tridiagonal system for the second derivatives (Thomas algorithm).
  std::vector<double> c(n, 0.0), d(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = table_t[i] - table_t[i - 1];
    const double h1 = table_t[i + 1] - table_t[i];
    const double rhs = 6.0 * ((table_value[i + 1] - table_value[i]) / h1 - (table_value[i] - table_value[i - 1]) / h0);
    const double diag = 2.0 * (h0 + h1) - h0 * c[i - 1];
    c[i] = h1 / diag;
    d[i] = (rhs - h0 * d[i - 1]) / diag;
  }
  for (std::size_t i = n - 2; i >= 1; --i) {
    spline_m[i] = d[i] - c[i] * spline_m[i + 1];
    if (i == 1) break;
  }
}

TimeSample TimeFunction::evaluate(double t) const {
  switch (law) {
    case Law::Constant: return {value, 0.0, 0.0};
    case Law::Step: {
      if (rise_time <= 0.0) return {t < t_step ? before : after, 0.0, 0.0};
      // Cubic smoothstep s(x) = 3x^2 - 2x^3 over [t_step, t_step + rise_time].
      const double x = (t - t_step) / rise_time;
      if (x <= 0.0) return {before, 0.0, 0.0};
      if (x >= 1.0) return {after, 0.0, 0.0};
      const double d = after - before;
      return {before + d * (3 * x * x - 2 * x * x * x), d * (6 * x - 6 * x * x) / rise_time,
              d * (6 - 12 * x) / (rise_time * rise_time)};
    }
    case Law::Sine: {
      const double w = 2.0 * kPi * frequency;
      const double arg = w * t + phase;
      return {offset + amplitude * std::sin(arg), amplitude * w * std::cos(arg), -amplitude * w * w * std::sin(arg)};
    }
    case Law::Table: return evalTable(*this, t);
    case Law::Piecewise: {
      if (pieces.empty()) return {};
      std::size_t k = 0;
      while (k + 1 < pieces.size() && k + 1 < piece_from.size() && t >= piece_from[k + 1]) ++k;
      return pieces[k].evaluate(t);
    }
    case Law::Polynomial: {
      // Horner for value and both derivatives.
      double p = 0.0, dp = 0.0, ddp = 0.0;
      for (auto it = coefficients.rbegin(); it != coefficients.rend(); ++it) {
        ddp = ddp * t + 2.0 * dp;
        dp = dp * t + p;
        p = p * t + *it;
      }
      return {p, dp, ddp};
    }
    case Law::SpinUp: {
      if (T <= 0.0) return {omega0 * t, omega0, 0.0};
      if (t <= 0.0) return {0.0, 0.0, 0.0};
      if (t >= T) return {omega0 * (t - 0.5 * T), omega0, 0.0};
      const double c = T / (2.0 * kPi);
      const double arg = t / c;
      return {omega0 / T * (0.5 * t * t + c * c * (std::cos(arg) - 1.0)), omega0 / T * (t - c * std::sin(arg)),
              omega0 / T * (1.0 - std::cos(arg))};
    }
    case Law::Cycloidal: {
      if (T <= 0.0 || t <= t_step) return {before, 0.0, 0.0};
      if (t >= t_step + T) return {after, 0.0, 0.0};
      const double s = (t - t_step) / T, d = after - before, arg = 2.0 * kPi * s;
      return {before + d * (s - std::sin(arg) / (2.0 * kPi)), d / T * (1.0 - std::cos(arg)),
              d / (T * T) * 2.0 * kPi * std::sin(arg)};
    }
    case Law::OutAndBack: {
      if (t0 <= 0.0 || t <= 0.0 || t >= t0) return {0.0, 0.0, 0.0};
      const double arg = 4.0 * kPi * t / t0;
      const double sgn = (t <= 0.5 * t0) ? 1.0 : -1.0;
      const double base = (t <= 0.5 * t0) ? 2.0 * t / t0 : 2.0 - 2.0 * t / t0;
      return {amplitude * (base - sgn * std::sin(arg) / (2.0 * kPi)), sgn * 2.0 * amplitude / t0 * (1.0 - std::cos(arg)),
              sgn * 8.0 * kPi * amplitude / (t0 * t0) * std::sin(arg)};
    }
  }
  return {};
}

const char* lawName(TimeFunction::Law law) {
  switch (law) {
    case TimeFunction::Law::Constant: return "constant";
    case TimeFunction::Law::Step: return "step";
    case TimeFunction::Law::Sine: return "sine";
    case TimeFunction::Law::Table: return "table";
    case TimeFunction::Law::Polynomial: return "polynomial";
    case TimeFunction::Law::SpinUp: return "spinup";
    case TimeFunction::Law::OutAndBack: return "out_and_back";
    case TimeFunction::Law::Cycloidal: return "cycloidal";
    case TimeFunction::Law::Piecewise: return "piecewise";
  }
  return "?";
}

}  // namespace flexarm
