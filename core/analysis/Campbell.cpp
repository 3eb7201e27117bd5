#include "analysis/Campbell.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <string>

#include "base/NumberFormat.hpp"
#include "base/ParallelFor.hpp"
#include "dynamics/MultibodySystem.hpp"

namespace flexarm {

double modalAssurance(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const double aa = a.squaredNorm(), bb = b.squaredNorm();
  if (aa == 0.0 || bb == 0.0 || a.size() != b.size()) return 0.0;
  const double ab = a.dot(b);
  return ab * ab / (aa * bb);
}

namespace {

CampbellPoint pointOf(double spin, const LinearMode& m, double match) {
  CampbellPoint p;
  p.spin = spin;
  p.frequency_hz = m.frequency_hz;
  p.omega = m.omega;
  p.damping_ratio = m.damping_ratio;
  p.unstable = m.unstable;
  p.growth_rate = m.growth_rate;
  p.match = match;
  return p;
}

}  // namespace

Result<CampbellResult> campbellDiagram(const Project& project, const std::vector<double>& spins, int count,
                                       const CampbellProgress& progress, const std::atomic<bool>* cancel) {
  if (spins.empty()) return error("no spin rates to sweep");
  if (count < 1) return error("the number of modes to follow must be at least 1, got " + std::to_string(count));
  CampbellResult out;
  out.spins = spins;
  std::vector<Eigen::VectorXd> last_shapes;
  const MultibodySystem system = MultibodySystem::fromModel(project.model, project.coupling);  // once for the sweep
  // The rates' linearizations are independent: they share the cores (a fine mesh's at a spin takes
  // seconds each), and their modes are followed in order afterwards.
  std::vector<LinearizationResult> results(spins.size());
  std::vector<char> linearized(spins.size(), 0);
  std::mutex reporting;
  std::size_t begun = 0;
  bool stopped = false;
  parallelFor(spins.size(), 0, [&](std::size_t k) {
    {
      const std::lock_guard<std::mutex> lock(reporting);
      stopped = stopped || (progress && !progress(begun++, spins.size())) || (cancel && *cancel);
      if (stopped) return;
    }
    LinearizationOptions options;
    options.spin_rate = spins[k];
    options.modes = 2 * count + 10;  // candidates for the curves, which may cross
    options.cancel = cancel;
    try {  // on a pool thread, where an exception (out of memory: the rates' linearizations at once) would end the program
      results[k] = linearize(project, system, options);
    } catch (const std::exception& e) {
      results[k].message = std::string("the linearization failed: ") + e.what();
    }
    const std::lock_guard<std::mutex> lock(reporting);
    linearized[k] = 1;
  });
  for (std::size_t k = 0; k < spins.size(); ++k) {
    const LinearizationResult& r = results[k];
    if (!linearized[k] || r.cancelled) return error("cancelled");
    if (!r.message.empty()) return errorAt("spin " + formatNumber(spins[k]) + " rad/s", r.message);
    if (k == 0) {
      const int n = std::min<int>(count, static_cast<int>(r.modes.size()));
      if (n == 0) return error("the arm has no elastic or joint modes to follow");
      for (int c = 0; c < n; ++c) {
        const LinearMode& m = r.modes[static_cast<std::size_t>(c)];
        Eigen::Index largest = 0;
        m.shape.cwiseAbs().maxCoeff(&largest);
        out.curves.push_back({r.coordinate_descriptions[static_cast<std::size_t>(largest)], {pointOf(spins[k], m, 1.0)}});
        last_shapes.push_back(m.shape);
      }
      continue;
    }
    // Greedy assignment by decreasing modal assurance: every curve takes the free mode most like its
    // shape at the previous rate, the best-matching pairs first.
    struct Pair {
      double mac;
      std::size_t curve, mode;
    };
    std::vector<Pair> pairs;
    for (std::size_t c = 0; c < out.curves.size(); ++c)
      for (std::size_t m = 0; m < r.modes.size(); ++m) pairs.push_back({modalAssurance(last_shapes[c], r.modes[m].shape), c, m});
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.mac > b.mac; });
    std::vector<bool> curve_done(out.curves.size(), false), mode_taken(r.modes.size(), false);
    for (const Pair& p : pairs) {
      if (curve_done[p.curve] || mode_taken[p.mode]) continue;
      curve_done[p.curve] = mode_taken[p.mode] = true;
      out.curves[p.curve].points.push_back(pointOf(spins[k], r.modes[p.mode], p.mac));
      last_shapes[p.curve] = r.modes[p.mode].shape;
    }
    for (std::size_t c = 0; c < out.curves.size(); ++c)
      if (!curve_done[c])
        return errorAt("spin " + formatNumber(spins[k]) + " rad/s",
                       "fewer modes than curves to follow (" + std::to_string(r.modes.size()) + ")");
  }
  return out;
}

CampbellOnset instabilityOnset(const CampbellCurve& curve) {
  CampbellOnset onset;
  for (std::size_t k = 0; k < curve.points.size(); ++k)
    if (curve.points[k].unstable) {
      onset.index = static_cast<int>(k);
      break;
    }
  if (onset.index < 0) return onset;
  const CampbellPoint& after = curve.points[static_cast<std::size_t>(onset.index)];
  onset.spin = after.spin;
  if (onset.index == 0) return onset;
  const CampbellPoint& before = curve.points[static_cast<std::size_t>(onset.index) - 1];
  // Re(lambda) of a point: the growth rate when unstable, -zeta |lambda| otherwise.
  const auto real_part = [](const CampbellPoint& p) { return p.unstable ? p.growth_rate : -p.damping_ratio * p.omega; };
  double a, b, x0, x1;  // the quantity before and after, and where
  const bool divergence = after.frequency_hz == 0.0 && before.spin >= 0.0 && after.spin >= 0.0;
  if (divergence) {
    a = -before.omega * before.omega;
    b = after.growth_rate * after.growth_rate;
    x0 = before.spin * before.spin;
    x1 = after.spin * after.spin;
  } else {
    a = real_part(before);
    b = real_part(after);
    x0 = before.spin;
    x1 = after.spin;
  }
  if (!(b > a) || !std::isfinite(a) || !std::isfinite(b)) return onset;
  const double x = x0 + (x1 - x0) * (-a) / (b - a);
  onset.spin = divergence ? std::sqrt(std::max(x, 0.0)) : x;
  return onset;
}

}  // namespace flexarm
