#pragma once
// Campbell diagram: the natural modes of the arm linearized about a steady spin of joint 1
// (Linearization.hpp) over a sweep of spin rates, each mode followed through the sweep by its shape
// (modal assurance criterion against the previous rate), not by its place in the frequency order,
// so that crossing curves stay themselves and a mode that turns unstable keeps its curve.
#include <atomic>
#include <cstddef>
#include <functional>
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

// Called before each rate's linearization with (rates begun before it, rates in all), from one thread
// at a time; false stops the sweep with the error "cancelled".
using CampbellProgress = std::function<bool(std::size_t, std::size_t)>;

// Linearizes the project about each spin rate (ascending or not; the rates share the machine's cores)
// and follows its lowest `count` modes (of a large model, among the lowest 2 count + 10 at each rate).
// An error names the rate where the linearization failed. `cancel` (checked inside each linearization
// too) stops the sweep with the error "cancelled".
Result<CampbellResult> campbellDiagram(const Project& project, const std::vector<double>& spins, int count,
                                       const CampbellProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

// Where a curve turns unstable: the index of its first unstable point (-1: it stays stable), and the
// onset estimated between that point and the one before, without a further linearization. A pair of
// eigenvalues +-i omega that meets at zero and leaves along the real axis (divergence, frequency 0) has
// lambda^2 = -omega^2 before and growth^2 after; lambda^2 is interpolated linearly in spin^2 to its
// zero, which is exact when the stiffness falls off as spin^2 (the zero-order model's centrifugal
// softening). A flutter (the real part crossing zero at a finite frequency) interpolates Re(lambda)
// linearly in the spin. Unstable from the first rate: the onset is that rate.
struct CampbellOnset {
  int index = -1;
  double spin = 0.0;  // [rad/s]
};
CampbellOnset instabilityOnset(const CampbellCurve& curve);

// Modal assurance criterion |a.b|^2 / (|a|^2 |b|^2) of two mode shapes, in [0, 1].
double modalAssurance(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

}  // namespace flexarm
