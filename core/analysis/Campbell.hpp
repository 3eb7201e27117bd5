#pragma once
// Campbell diagram: the natural modes of the arm linearized about a steady spin of joint 1
// (Linearization.hpp) over a sweep of spin rates, each mode followed through the sweep by its shape
// (modal assurance criterion against the previous rate), not by its place in the frequency order,
// so that crossing curves stay themselves and a mode that turns unstable keeps its curve.
#include <string>
#include <vector>

#include "analysis/Linearization.hpp"
#include "base/Result.hpp"
#include "model/Project.hpp"

namespace flexarm {

struct CampbellPoint {
  double spin = 0.0;           // [rad/s]
  double frequency_hz = 0.0;   // damped frequency (0 for a real, diverging eigenvalue) [Hz]
  double omega = 0.0;          // |lambda| [rad/s]
  double damping_ratio = 0.0;  // -Re(lambda) / |lambda|
  bool unstable = false;
  double growth_rate = 0.0;  // Re(lambda) when unstable [1/s]
  double match = 1.0;        // modal assurance criterion with the same curve at the previous rate (1 at the first)
};

struct CampbellCurve {
  std::string dominant;               // the description of the largest component of its shape at the first rate
  std::vector<CampbellPoint> points;  // one per spin rate, in sweep order
};

struct CampbellResult {
  std::vector<double> spins;
  std::vector<CampbellCurve> curves;  // the lowest `count` modes at the first rate, in that order
};

// Linearizes the project about each spin rate (ascending or not) and follows its lowest `count`
// modes. An error names the rate where the linearization failed.
Result<CampbellResult> campbellDiagram(const Project& project, const std::vector<double>& spins, int count);

// Modal assurance criterion |a.b|^2 / (|a|^2 |b|^2) of two mode shapes, in [0, 1].
double modalAssurance(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

}  // namespace flexarm
