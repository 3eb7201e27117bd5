#include "FiniteOutput.hpp"

#include <cmath>

#include "CliSupport.hpp"
#include "base/NumberFormat.hpp"

namespace flexarm::cli {

namespace {

// "frequency nan Hz" for the first of the named values that is not finite; empty when all are.
std::string firstNonFinite(std::initializer_list<std::pair<const char*, double>> values) {
  for (const auto& [name, value] : values)
    if (!std::isfinite(value)) return std::string(name) + " " + formatNumber(value);
  return {};
}

}  // namespace

std::string nonFiniteMode(const LinearizationResult& r) {
  for (std::size_t k = 0; k < r.modes.size(); ++k) {
    const LinearMode& m = r.modes[k];
    std::string bad = firstNonFinite({{"frequency [Hz]", m.frequency_hz},
                                      {"omega [rad/s]", m.omega},
                                      {"damping ratio", m.damping_ratio},
                                      {"growth rate [1/s]", m.growth_rate}});
    if (bad.empty() && !m.shape.allFinite()) bad = "a shape component that is not a number";
    if (!bad.empty()) return "mode " + std::to_string(k + 1) + ": " + bad;
  }
  return {};
}

std::string nonFiniteCampbell(const CampbellResult& r) {
  for (std::size_t c = 0; c < r.curves.size(); ++c)
    for (const CampbellPoint& p : r.curves[c].points) {
      const std::string bad = firstNonFinite({{"frequency [Hz]", p.frequency_hz},
                                              {"omega [rad/s]", p.omega},
                                              {"damping ratio", p.damping_ratio},
                                              {"growth rate [1/s]", p.growth_rate},
                                              {"match", p.match}});
      if (!bad.empty()) return "curve " + std::to_string(c + 1) + " at " + formatNumber(p.spin) + " rad/s: " + bad;
    }
  return {};
}

std::string nonFiniteEntry(const Eigen::MatrixXd& m, const std::string& name) {
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if (!std::isfinite(m(i, j)))
        return name + "(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") = " + formatNumber(m(i, j));
  return {};
}

int failNonFinite(const std::string& what) {
  return fail("the results are not finite numbers (" + what +
                  "): the model is out of the range double precision can compute; nothing was written",
              kExitSolverFailure);
}

}  // namespace flexarm::cli
