#include "analysis/RestStiffness.hpp"

#include <algorithm>

namespace flexarm {

std::optional<RestStiffnessPattern> restStiffnessPattern(const MultibodySystem& sys, const std::vector<int>& free) {
  if (sys.coupling == CouplingOrder::Geometric) return std::nullopt;
  for (const LoadPoint& load : sys.loads)  // a follower load, or a torque
    if (load.link_axes || !load.torque.isZero(0.0)) return std::nullopt;
  const int nf = static_cast<int>(free.size());
  std::vector<int> position(static_cast<std::size_t>(sys.nq), -1);  // full index -> free position
  for (int k = 0; k < nf; ++k) position[static_cast<std::size_t>(free[static_cast<std::size_t>(k)])] = k;
  std::vector<bool> dense(static_cast<std::size_t>(nf), false);
  auto markDense = [&](int full) {
    if (full >= 0 && position[static_cast<std::size_t>(full)] >= 0)
      dense[static_cast<std::size_t>(position[static_cast<std::size_t>(full)])] = true;
  };
  for (int k = 0; k < nf; ++k)
    if (sys.coordinates.kinds[static_cast<std::size_t>(free[static_cast<std::size_t>(k)])] != CoordinateKind::Elastic)
      dense[static_cast<std::size_t>(k)] = true;
  for (const Body& b : sys.bodies) {
    if (!b.isFlexible()) continue;
    const FlexibleBody& fb = *b.flexible;
    // The distal coordinates: where the tip's position and small rotation can be non-zero.
    for (const Eigen::RowVectorXd* row : {&fb.tip.u, &fb.tip.v, &fb.tip.w, &fb.tip.phi, &fb.tip.v1, &fb.tip.w1})
      for (int k = 0; k < row->size(); ++k)
        if ((*row)(k) != 0.0) markDense(b.e_index + k);
    for (int k = 0; k < fb.distal_count; ++k) markDense(b.e_index + fb.distal_first + k);
  }

  RestStiffnessPattern p;
  p.rows.resize(static_cast<std::size_t>(nf));
  for (const Body& b : sys.bodies) {
    if (!b.isFlexible()) continue;
    for (const FlexibleBody::Interval& iv : b.flexible->intervals) {
      std::vector<int> window;  // the interval's coordinates that are free and not dense
      for (int k = 0; k < iv.count; ++k) {
        const int c = position[static_cast<std::size_t>(b.e_index + iv.first + k)];
        if (c >= 0 && !dense[static_cast<std::size_t>(c)]) window.push_back(c);
      }
      for (int c : window) {
        std::vector<int>& rows = p.rows[static_cast<std::size_t>(c)];
        rows.insert(rows.end(), window.begin(), window.end());
      }
    }
  }
  for (int c = 0; c < nf; ++c) {
    std::vector<int>& rows = p.rows[static_cast<std::size_t>(c)];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    // An elastic coordinate in no interval's window (none in the bases FlexArm builds): a column of its own.
    if (!dense[static_cast<std::size_t>(c)] && rows.empty()) dense[static_cast<std::size_t>(c)] = true;
  }

  // Greedy grouping: a column joins the first group none of whose columns shares a row with it. The
  // pattern is symmetric, so the columns sharing row i with c are rows[i] itself.
  std::vector<int> group_of(static_cast<std::size_t>(nf), -1);
  std::vector<int> seen_by;  // per group: the last column that found it taken
  for (int c = 0; c < nf; ++c) {
    if (dense[static_cast<std::size_t>(c)]) {
      p.dense.push_back(c);
      continue;
    }
    for (int i : p.rows[static_cast<std::size_t>(c)])
      for (int other : p.rows[static_cast<std::size_t>(i)]) {
        const int g = group_of[static_cast<std::size_t>(other)];
        if (g >= 0) seen_by[static_cast<std::size_t>(g)] = c;
      }
    int g = 0;
    while (g < static_cast<int>(p.groups.size()) && seen_by[static_cast<std::size_t>(g)] == c) ++g;
    if (g == static_cast<int>(p.groups.size())) {
      p.groups.emplace_back();
      seen_by.push_back(-1);
    }
    p.groups[static_cast<std::size_t>(g)].push_back(c);
    group_of[static_cast<std::size_t>(c)] = g;
  }
  for (int c : p.dense) p.rows[static_cast<std::size_t>(c)].clear();
  return p;
}

}  // namespace flexarm
