#pragma once
// A scalar function of time with its first two derivatives: the laws used by
// joint drives (effort laws, PD set-points, prescribed motions).
#include <string>
#include <vector>

namespace flexarm {

struct TimeSample {
  double value = 0.0;  // f(t)
  double rate = 0.0;   // df/dt
  double accel = 0.0;  // d2f/dt2
};

enum class TableInterpolation { Linear, Cubic };

struct TimeFunction {
  enum class Law {
    Constant,    // value
    Step,        // before -> after at t_step, optionally smoothed over rise_time
    Sine,        // offset + amplitude * sin(2 pi frequency t + phase)
    Table,       // (t, value) points, linear or natural cubic spline, held constant outside
    Polynomial,  // sum_k coefficients[k] t^k
    SpinUp,      // Qian et al. 2013 sec 4.1 (Kane, Ryan & Banerjee 1987): smooth spin-up to omega0 over T
    OutAndBack,  // Zhang et al. eq. (13): 0 -> amplitude -> 0 over t0, held at 0 afterwards
    Cycloidal,   // before -> after over T from t_step: zero rate and acceleration at both ends
                 // (Pan et al. 1990 eq. (57): W = C1 - (C2/T)[t - (T/2 pi) sin(2 pi t/T)])
    Piecewise,   // pieces[k] from piece_from[k] until the next piece's start (the first also before it),
                 // each evaluated at t itself, not at t - piece_from[k]
  };
  Law law = Law::Constant;

  double value = 0.0;                       // Constant
  double before = 0.0, after = 0.0;         // Step
  double t_step = 0.0, rise_time = 0.0;     // Step (Cycloidal: before, after, t_step, T)
  double amplitude = 0.0, frequency = 0.0;  // Sine (frequency in Hz); OutAndBack uses amplitude
  double phase = 0.0, offset = 0.0;         // Sine
  std::vector<double> coefficients;         // Polynomial
  double omega0 = 0.0, T = 0.0;             // SpinUp
  double t0 = 0.0;                          // OutAndBack

  // Table: points are always present after loading; `file` remembers where they came from.
  std::vector<double> table_t, table_value;
  std::string file;
  TableInterpolation interpolation = TableInterpolation::Linear;
  std::vector<double> spline_m;  // natural cubic spline second derivatives (computed by prepare())

  // Piecewise: the pieces' laws (none of them piecewise) and their start times, increasing.
  std::vector<TimeFunction> pieces;
  std::vector<double> piece_from;

  // Precompute what evaluation needs (spline coefficients, of the pieces too). Call after editing a table.
  void prepare();
  // Evaluate f, f', f'' at time t. No heap allocation.
  TimeSample evaluate(double t) const;
};

const char* lawName(TimeFunction::Law law);

}  // namespace flexarm
