#include "solvers/ErrorEstimate.hpp"

#include <algorithm>
#include <cmath>

#include "model/Names.hpp"

namespace flexarm {

GlobalErrorEstimate::GlobalErrorEstimate(const MultibodySystem& sys, const std::vector<int>& slots)
    : sys_(sys), slots_(slots), sums_(static_cast<std::size_t>(sys.nq), 0.0), ee_lever_(static_cast<std::size_t>(sys.nq), 0.0) {
  if (sys.bodies.empty()) return;
  // The bodies on the path from the base to the last one (the end effector's), and the reach beyond each.
  std::vector<bool> on_path(sys.bodies.size(), false);
  for (int b = static_cast<int>(sys.bodies.size()) - 1; b >= 0; b = sys.bodies[static_cast<std::size_t>(b)].parent)
    on_path[static_cast<std::size_t>(b)] = true;
  double beyond = 0.0;  // from the distal frame of body b to the end effector
  for (int b = static_cast<int>(sys.bodies.size()) - 1; b >= 0; --b) {
    if (!on_path[static_cast<std::size_t>(b)]) continue;
    const Body& body = sys.bodies[static_cast<std::size_t>(b)];
    const double from_joint = body.X_body_distal.translation().norm() + beyond;
    ee_lever_[static_cast<std::size_t>(body.q_index)] = body.joint_type == JointType::Revolute ? from_joint : 1.0;
    if (body.isFlexible()) {
      const ShapeRows& tip = body.flexible->tip;
      for (int c = 0; c < body.e_count; ++c) {
        const double move = std::sqrt(tip.u(c) * tip.u(c) + tip.v(c) * tip.v(c) + tip.w(c) * tip.w(c));
        const double turn = std::sqrt(tip.v1(c) * tip.v1(c) + tip.w1(c) * tip.w1(c) + tip.phi(c) * tip.phi(c));
        ee_lever_[static_cast<std::size_t>(body.e_index + c)] = move + turn * beyond;
      }
    }
    beyond = from_joint + body.placement.translation().norm();
  }
  for (const Body& body : sys.bodies) {
    if (!body.isFlexible()) continue;
    Tip t{body.name, {}, {}};
    const ShapeRows& tip = body.flexible->tip;
    for (int c = 0; c < body.e_count; ++c) {
      const double w = std::hypot(tip.v(c), tip.w(c));
      if (w == 0.0) continue;
      t.coordinates.push_back(body.e_index + c);
      t.weights.push_back(w);
    }
    tips_.push_back(std::move(t));
  }
}

void GlobalErrorEstimate::addStep(const double* local_error) {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i] >= 0) sums_[i] += std::abs(local_error[slots_[i]]);
}

std::vector<ErrorEstimate> GlobalErrorEstimate::estimates(const Results& results) const {
  std::vector<ErrorEstimate> out;
  if (!available_ || results.rows() == 0) return out;
  auto relative = [](ErrorEstimate& e) {
    e.relative = e.excursion > 0.0 ? e.absolute / e.excursion : e.absolute;
    return e;
  };
  // The end effector: its largest distance from its start.
  {
    ErrorEstimate e{"ee", "m"};
    for (std::size_t i = 0; i < sums_.size(); ++i) e.absolute += ee_lever_[i] * sums_[i];
    const std::vector<double> x = results.column(names::endEffector('x')), y = results.column(names::endEffector('y')),
                              z = results.column(names::endEffector('z'));
    for (std::size_t k = 0; k < x.size() && k < y.size() && k < z.size(); ++k)
      e.excursion =
          std::max(e.excursion, std::sqrt(std::pow(x[k] - x[0], 2) + std::pow(y[k] - y[0], 2) + std::pow(z[k] - z[0], 2)));
    // The closures' largest position violation: an end effector that moves no more than 10 times that
    // is one they hold, and what it seems to move is their violation.
    double violation = -1.0;
    for (std::size_t c = 0; c < results.channels().size(); ++c) {
      const std::string& name = results.channels()[c].name;
      if (name.rfind("constraint.", 0) != 0 || name.size() < 4 || name.compare(name.size() - 4, 4, ".pos") != 0) continue;
      for (std::size_t k = 0; k < results.rows(); ++k) violation = std::max(violation, std::abs(results.value(k, c)));
    }
    if (e.excursion > 10.0 * violation) out.push_back(relative(e));
  }
  // Each flexible link's tip deflection: its largest |(v, w)|.
  for (const Tip& t : tips_) {
    ErrorEstimate e{"tip." + t.link, "m"};
    for (std::size_t k = 0; k < t.coordinates.size(); ++k)
      e.absolute += t.weights[k] * sums_[static_cast<std::size_t>(t.coordinates[k])];
    const std::vector<double> v = results.column(names::linkTip(t.link, "v")), w = results.column(names::linkTip(t.link, "w"));
    for (std::size_t k = 0; k < v.size() && k < w.size(); ++k) e.excursion = std::max(e.excursion, std::hypot(v[k], w[k]));
    out.push_back(relative(e));
  }
  // The joints that move freely: the largest error as a fraction of the largest joint excursion (a joint
  // that hardly moves would otherwise make a tiny error look large).
  {
    ErrorEstimate e{"joints", ""};
    bool any = false;
    for (const Body& b : sys_.bodies) {
      if (slots_[static_cast<std::size_t>(b.q_index)] < 0) continue;  // prescribed: no error of its own
      const std::string unit = b.joint_type == JointType::Revolute ? "rad" : "m";
      e.unit = e.unit.empty() || e.unit == unit ? unit : "rad|m";
      e.absolute = std::max(e.absolute, sums_[static_cast<std::size_t>(b.q_index)]);
      e.excursion = std::max(e.excursion, peakExcursion(results.column(names::jointCoordinate(b.joint_name))));
      any = true;
    }
    if (any) out.push_back(relative(e));
  }
  return out;
}

namespace {
// The largest distance between the two runs' points made of the given channels, over their common rows.
double largestDistance(const Results& a, const Results& b, const std::vector<std::string>& channels) {
  std::vector<std::vector<double>> x, y;
  for (const std::string& c : channels) {
    x.push_back(a.column(c));
    y.push_back(b.column(c));
    if (x.back().empty() || y.back().empty()) return -1.0;
  }
  const std::size_t rows = std::min(x[0].size(), y[0].size());
  double worst = 0.0;
  for (std::size_t k = 0; k < rows; ++k) {
    double d = 0.0;
    for (std::size_t c = 0; c < channels.size(); ++c) d += std::pow(x[c][k] - y[c][k], 2);
    worst = std::max(worst, std::sqrt(d));
  }
  return worst;
}
}  // namespace

void measureErrors(Results& run, const Results& tighter) {
  for (ErrorEstimate& e : run.errors) {
    double distance = -1.0;
    if (e.group == "ee") {
      distance = largestDistance(run, tighter, {names::endEffector('x'), names::endEffector('y'), names::endEffector('z')});
    } else if (e.group.rfind("tip.", 0) == 0) {
      const std::string link = e.group.substr(4);
      distance = largestDistance(run, tighter, {names::linkTip(link, "v"), names::linkTip(link, "w")});
    } else if (e.group == "joints") {  // the largest joint difference over the largest joint excursion
      double worst = 0.0, excursion = 0.0;
      for (const Channel& c : run.channels()) {
        if (c.name.rfind("q.", 0) != 0) continue;
        excursion = std::max(excursion, peakExcursion(run.column(c.name)));
        worst = std::max(worst, largestDistance(run, tighter, {c.name}));
      }
      e.measured = excursion > 0.0 ? worst / excursion : worst;
      continue;
    }
    if (distance >= 0.0) e.measured = e.excursion > 0.0 ? distance / e.excursion : distance;
  }
}

void estimateFromLooserRun(Results& run, const Results& looser) {
  measureErrors(run, looser);
  for (ErrorEstimate& e : run.errors) {
    if (e.measured < 0.0) continue;
    e.relative = e.measured;
    e.absolute = e.excursion > 0.0 ? e.measured * e.excursion : e.measured;
    e.measured = -1.0;
  }
}

}  // namespace flexarm
