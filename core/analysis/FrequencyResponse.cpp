#include "analysis/FrequencyResponse.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <limits>

#include "base/Constants.hpp"
#include "base/NumberFormat.hpp"

namespace flexarm {

namespace {

using Complex = std::complex<double>;

Status checkPair(const StateSpaceModel& model, int input, int output) {
  if (input < 0 || input >= model.B.cols())
    return error("input " + std::to_string(input) + " is out of range (the model has " + std::to_string(model.B.cols()) + ")");
  if (output < 0 || output >= model.C.rows())
    return error("output " + std::to_string(output) + " is out of range (the model has " + std::to_string(model.C.rows()) + ")");
  return {};
}

// Whether the input can move the output at all: a path from the input's column of B through the couplings
// of A to the output's row of C (or D). An entry counts when it is above kGainResolution of its scale (for
// A, the geometric mean of its row's and its column's largest): the linear model's round-off and the
// relative error of its difference quotients (about 1e-8) couple what the equations do not, e.g. an arm's
// motion in a plane and its out-of-plane deflection.
bool inputReachesOutput(const StateSpaceModel& m, int input, int output) {
  if (m.D(output, input) != 0.0) return true;
  const Eigen::MatrixXd& A = m.A;
  const Eigen::VectorXd b = m.B.col(input);
  const Eigen::VectorXd c = m.C.row(output).transpose();
  const int n = static_cast<int>(A.rows());
  const Eigen::VectorXd row_max = A.cwiseAbs().rowwise().maxCoeff(), col_max = A.cwiseAbs().colwise().maxCoeff().transpose();
  const double b_max = b.cwiseAbs().maxCoeff(), c_max = c.cwiseAbs().maxCoeff();
  std::vector<char> reached(static_cast<std::size_t>(n), 0);
  std::vector<int> todo;
  for (int i = 0; i < n; ++i)
    if (std::abs(b(i)) > kGainResolution * b_max) reached[static_cast<std::size_t>(i)] = 1, todo.push_back(i);
  while (!todo.empty()) {  // x_i' depends on x_j where A(i, j) counts
    const int j = todo.back();
    todo.pop_back();
    if (std::abs(c(j)) > kGainResolution * c_max) return true;
    for (int i = 0; i < n; ++i)
      if (!reached[static_cast<std::size_t>(i)] && std::abs(A(i, j)) > kGainResolution * std::sqrt(row_max(i) * col_max(j)))
        reached[static_cast<std::size_t>(i)] = 1, todo.push_back(i);
  }
  return false;
}

// Solves (s I - H) x = b for an upper Hessenberg H by Gaussian elimination with partial pivoting
// between neighbouring rows (the only rows with entries below the diagonal): O(n^2). False when the
// matrix is singular to working precision.
bool solveShiftedHessenberg(const Eigen::MatrixXd& H, Complex s, Eigen::VectorXcd& x, Eigen::MatrixXcd& work) {
  const int n = static_cast<int>(H.rows());
  work = -H.cast<Complex>();
  work.diagonal().array() += s;
  const double scale = std::max(1.0, work.cwiseAbs().maxCoeff());
  for (int k = 0; k < n - 1; ++k) {
    if (std::abs(work(k + 1, k)) > std::abs(work(k, k))) {
      work.row(k).segment(k, n - k).swap(work.row(k + 1).segment(k, n - k));
      std::swap(x(k), x(k + 1));
    }
    if (std::abs(work(k, k)) <= 1e-14 * scale) return false;
    const Complex f = work(k + 1, k) / work(k, k);
    if (f != Complex(0.0)) {
      work.row(k + 1).segment(k, n - k) -= f * work.row(k).segment(k, n - k);
      x(k + 1) -= f * x(k);
    }
  }
  if (n > 0 && std::abs(work(n - 1, n - 1)) <= 1e-14 * scale) return false;
  for (int k = n - 1; k >= 0; --k) {
    Complex sum = x(k);
    for (int j = k + 1; j < n; ++j) sum -= work(k, j) * x(j);
    x(k) = sum / work(k, k);
  }
  return true;
}

}  // namespace

std::vector<double> logSpacedFrequencies(double lo, double hi, int n) {
  std::vector<double> f;
  if (!(lo > 0.0) || !(hi > lo) || n < 2) return f;
  const double a = std::log10(lo), b = std::log10(hi);
  for (int k = 0; k < n; ++k) f.push_back(std::pow(10.0, a + (b - a) * k / (n - 1)));
  return f;
}

std::pair<double, double> bodeFrequencyRange(const LinearizationResult& linearization, int modes) {
  double lo = 0.0, hi = 0.0;
  int seen = 0;
  for (const LinearMode& m : linearization.modes) {
    const double f = m.omega / (2 * kPi);
    if (!(f > 0.0) || !std::isfinite(f)) continue;
    if (seen == 0) lo = f;
    hi = f;
    if (++seen >= modes) break;
  }
  if (seen == 0) return {0.01, 100.0};
  return {lo / 10.0, hi * 10.0};
}

Result<FrequencyResponse> frequencyResponse(const StateSpaceModel& model, int input, int output,
                                            const std::vector<double>& frequencies_hz) {
  if (const Status ok = checkPair(model, input, output); !ok) return ok.error();
  if (frequencies_hz.empty()) return error("no frequencies");
  if (!inputReachesOutput(model, input, output))
    return error("the input " + model.inputs[static_cast<std::size_t>(input)] + " does not move this output, " +
                 model.outputs[static_cast<std::size_t>(output)] +
                 ": no coupling of the linear model leads from one to the other above its resolution (the effort "
                 "of a held joint, or a motion the input cannot excite, such as the out-of-plane deflection of an "
                 "arm moving in a plane)");
  for (double f : frequencies_hz)
    if (!(f > 0.0) || !std::isfinite(f)) return error("frequencies must be > 0 and finite, got " + formatNumber(f));
  FrequencyResponse r;
  r.input = model.inputs[static_cast<std::size_t>(input)];
  r.output = model.outputs[static_cast<std::size_t>(output)];
  r.input_unit = model.input_units[static_cast<std::size_t>(input)];
  r.output_unit = model.output_units[static_cast<std::size_t>(output)];
  const int n = static_cast<int>(model.A.rows());
  const Eigen::HessenbergDecomposition<Eigen::MatrixXd> hess(model.A);
  const Eigen::MatrixXd H = hess.matrixH();
  const Eigen::MatrixXd Q = hess.matrixQ();
  const Eigen::VectorXd b = Q.transpose() * model.B.col(input);
  const Eigen::RowVectorXd c = model.C.row(output) * Q;
  const double d = model.D(output, input);
  Eigen::VectorXcd x(n);
  Eigen::MatrixXcd work(n, n);
  bool any = false;  // a gain above the resolution floor
  const double c_norm = c.norm();
  for (double f : frequencies_hz) {
    const Complex s(0.0, 2 * kPi * f);
    x = b.cast<Complex>();
    if (!solveShiftedHessenberg(H, s, x, work))
      return error("the response is infinite at " + formatShort(f) + " Hz: an undamped mode at that frequency");
    const Complex g = c.cast<Complex>().dot(x) + d;  // c is real: the hermitian product is c x
    if (!std::isfinite(g.real()) || !std::isfinite(g.imag()))
      return error("the response is not finite at " + formatShort(f) + " Hz");
    const double floor = kGainResolution * c_norm * x.norm();
    any = any || std::abs(g) > floor;
    r.frequency_hz.push_back(f);
    r.gain.push_back(g);
    r.floor_db.push_back(floor > 0.0 ? 20.0 * std::log10(floor) : -std::numeric_limits<double>::infinity());
  }
  if (!any)
    return error("the response from " + r.input + " to " + r.output +
                 " is below the linear model's resolution at every frequency: the input does not move this output");
  double previous = 0.0;
  for (std::size_t k = 0; k < r.gain.size(); ++k) {
    const double mag = std::abs(r.gain[k]);
    r.magnitude_db.push_back(mag > 0.0 ? 20.0 * std::log10(mag) : -std::numeric_limits<double>::infinity());
    double phase = std::arg(r.gain[k]) * 180.0 / kPi;
    if (k > 0) phase -= 360.0 * std::round((phase - previous) / 360.0);
    r.phase_deg.push_back(phase);
    previous = phase;
  }
  return r;
}

Result<double> dcGain(const StateSpaceModel& model, int input, int output) {
  if (const Status ok = checkPair(model, input, output); !ok) return ok.error();
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(model.A);
  if (model.linearization.rigid_body_modes > 0 || !lu.isInvertible())
    return error("the state matrix is singular (a rigid-body mode: a joint without a spring): there is no static gain");
  if (!inputReachesOutput(model, input, output)) return 0.0;
  const Eigen::VectorXd x = lu.solve(model.B.col(input));
  const double d = model.D(output, input), g = d - model.C.row(output).dot(x);
  const double floor = kGainResolution * model.C.row(output).norm() * x.norm() + 1e-12 * std::abs(d);
  return std::abs(g) <= floor ? 0.0 : g;
}

}  // namespace flexarm
