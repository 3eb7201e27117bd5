#pragma once
// Frequency response of one input-output pair of a linear state-space model (StateSpace.hpp):
//   G(j omega) = C_o (j omega I - A)^-1 B_i + D_oi,   omega = 2 pi f,
// for a Bode plot (magnitude in dB, 20 log10 |G|, and phase in degrees, unwrapped along the
// frequencies), and the static (DC) gain G(0) = D - C A^-1 B. A is reduced once to Hessenberg form
// (A = Q H Q^T), so that each frequency costs one O(n^2) solve instead of a full factorization.
#include <complex>
#include <string>
#include <vector>

#include "analysis/StateSpace.hpp"
#include "base/Result.hpp"

namespace flexarm {

struct FrequencyResponse {
  std::string input, output;            // the names, e.g. tau.hub and tip.beam.v
  std::string input_unit, output_unit;  // the gain's unit is output_unit / input_unit
  std::vector<double> frequency_hz;
  std::vector<std::complex<double>> gain;  // G(j 2 pi f)
  std::vector<double> magnitude_db;        // 20 log10 |G|
  std::vector<double> phase_deg;           // arg G, unwrapped: no jump of more than 180 degrees between neighbours
  // The model's resolution at each frequency [dB]: kGainResolution |c| |x| (x = (j omega I - A)^-1 b, c the
  // output's row of C). A gain below it is numerical noise of the linear model, not a response.
  std::vector<double> floor_db;
};

// The relative resolution of a linear model: A and C come from difference quotients (relative errors of
// order 1e-8), so a coupling under 1e-7 of its scale, or a gain under 1e-7 of |c| |x|, cannot be told
// from zero. On a strip turning in a plane (test_state_space.cpp) the out-of-plane "response" was 1e-12 to
// 1e-9 of |c| |x| away from its resonances, the in-plane one 2e-5 to 1e-2.
inline constexpr double kGainResolution = 1e-7;

// G at the given frequencies [Hz] (each > 0, finite) from input `input` to output `output` (indices
// into model.inputs and model.outputs). An error when an index is out of range, a frequency is not
// positive, (j omega I - A) is singular at a frequency (an undamped mode hit exactly), the input cannot
// move the output (no coupling of A, B, C above kGainResolution leads from one to the other: the effort
// of a held joint, the out-of-plane deflection of an arm moving in a plane), or the response is below the
// model's resolution at every frequency.
Result<FrequencyResponse> frequencyResponse(const StateSpaceModel& model, int input, int output,
                                            const std::vector<double>& frequencies_hz);

// G(0) = D - C A^-1 B for one pair, 0 when the input cannot move the output or G(0) is below the model's
// resolution. An error when A is singular: a rigid-body mode (a free joint without a spring) has no static gain.
Result<double> dcGain(const StateSpaceModel& model, int input, int output);

// n frequencies spaced evenly on a log axis from lo to hi [Hz] (0 < lo < hi, n >= 2).
std::vector<double> logSpacedFrequencies(double lo, double hi, int n);

// A frequency range that shows the model's modes: from a decade below the lowest oscillatory mode to a
// decade above the highest of the lowest `modes` modes [Hz]; 0.01 to 100 Hz when there is none.
std::pair<double, double> bodeFrequencyRange(const LinearizationResult& linearization, int modes = 6);

}  // namespace flexarm
