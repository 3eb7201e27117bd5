#include "discretization/FlexibleBody.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "base/Constants.hpp"
#include "discretization/LowestModes.hpp"

namespace flexarm {
namespace {
constexpr int kStationsPerInterval = 6;  // exact for the degree-10 integrands of cubic elements with foreshortening
constexpr int kSlopePoints = FlexibleBody::kSlopePoints;

struct Matrices {
  Eigen::MatrixXd M, K;
};

// Interval::fields of interval j: each of the stations' rows u, v, w, phi non-zero on its own block of
// the window only, the blocks in that order and tiling it, the slope coordinates within the bending
// blocks (v and w); all zero when not so.
std::array<int, 4> fieldBlocks(const std::vector<FlexibleBody::Station>& stations, int j, const FlexibleBody::Interval& iv) {
  std::array<int, 4> lo, hi;
  lo.fill(iv.count);
  hi.fill(-1);
  for (const FlexibleBody::Station& s : stations) {
    if (s.interval != j) continue;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < iv.count; ++c)
        if (s.window(r, c) != 0.0) lo[r] = std::min(lo[r], c), hi[r] = std::max(hi[r], c);
  }
  std::array<int, 4> fields{};
  int next = 0;
  for (int r = 0; r < 4; ++r) {
    if (hi[r] < 0 || lo[r] != next) return {};  // an empty row, or a gap or overlap between blocks
    fields[r] = hi[r] - lo[r] + 1;
    next = hi[r] + 1;
  }
  if (next != iv.count) return {};
  for (int k : iv.slope_dofs)
    if (k < fields[0] || k >= fields[0] + fields[1] + fields[2]) return {};
  return fields;
}

// Interval::spatial_nodes of interval j.
int spatialNodes(const std::vector<FlexibleBody::Station>& stations, int j, const FlexibleBody::Interval& iv) {
  if (iv.count != 6 && iv.count != 12) return 0;
  // The offsets within a node where each row may be non-zero (bit k: offset k).
  constexpr std::array<unsigned, 4> kAllowed = {1u << 0, (1u << 1) | (1u << 4), (1u << 2) | (1u << 5), 1u << 3};
  for (const FlexibleBody::Station& s : stations) {
    if (s.interval != j) continue;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < iv.count; ++c)
        if (s.window(r, c) != 0.0 && !(kAllowed[static_cast<std::size_t>(r)] & (1u << (c % 6)))) return 0;
  }
  // The slope coordinates: {1, 4} of each node (v'), then {2, 5} of each (w').
  const int nodes = iv.count / 6;
  if (iv.slope_split != 2 * nodes || static_cast<int>(iv.slope_dofs.size()) != 4 * nodes) return 0;
  for (int k = 0; k < 4 * nodes; ++k)
    if (!(kAllowed[k < 2 * nodes ? 1 : 2] & (1u << (iv.slope_dofs[static_cast<std::size_t>(k)] % 6)))) return 0;
  return nodes;
}

// Widens the column window [lo, hi] to the non-zero entries of `row`: a finite element's rows are
// non-zero on its own nodes only, so the products on a window touch a small block.
void widenWindow(const Eigen::RowVectorXd& row, int& lo, int& hi) {
  for (int c = 0; c < row.size(); ++c)
    if (row(c) != 0.0) lo = std::min(lo, c), hi = std::max(hi, c);
}

// The same for every row of `r`.
void widenWindow(const ShapeRows& r, int& lo, int& hi) {
  for (const Eigen::RowVectorXd* row : {&r.u, &r.u1, &r.v, &r.v1, &r.v2, &r.w, &r.w1, &r.w2, &r.phi, &r.phi1})
    widenWindow(*row, lo, hi);
}

// Mass and stiffness integrated interval by interval, each Gauss point adding only the block of
// its interval's non-zero columns: O(m) work for a finite-element mesh of m coordinates (a dense
// outer product per point was O(m^2) per point, O(m^3) in all). Out of the block the dense sum
// added exact zeros, so the result is the same to the last bit.
Matrices structuralMatrices(const LinkBasis& basis, const std::vector<double>& breaks, double rhoA, double rhoIp, double EA,
                            double EIy, double EIz, double GJ) {
  const int m = basis.size();
  Matrices out{Eigen::MatrixXd::Zero(m, m), Eigen::MatrixXd::Zero(m, m)};
  std::vector<double> xs, ws;
  std::vector<ShapeRows> rows(kStationsPerInterval);
  for (std::size_t c = 0; c + 1 < breaks.size(); ++c) {
    gaussLegendre(kStationsPerInterval, breaks[c], breaks[c + 1], xs, ws);
    int lo = m, hi = -1;
    for (std::size_t g = 0; g < xs.size(); ++g) {
      basis.evaluate(xs[g], rows[g]);
      widenWindow(rows[g], lo, hi);
    }
    if (hi < lo) continue;
    const int first = lo, n = hi - lo + 1;
    auto M = out.M.block(first, first, n, n);
    auto K = out.K.block(first, first, n, n);
    for (std::size_t g = 0; g < xs.size(); ++g) {
      const ShapeRows& r = rows[g];
      auto s = [&](const Eigen::RowVectorXd& row) { return row.segment(first, n); };
      const double w = ws[g];
      M.noalias() += w * (rhoA * (s(r.u).transpose() * s(r.u) + s(r.v).transpose() * s(r.v) + s(r.w).transpose() * s(r.w)) +
                          rhoIp * s(r.phi).transpose() * s(r.phi));
      K.noalias() += w * (EA * s(r.u1).transpose() * s(r.u1) + EIz * s(r.v2).transpose() * s(r.v2) +
                          EIy * s(r.w2).transpose() * s(r.w2) + GJ * s(r.phi1).transpose() * s(r.phi1));
    }
  }
  out.M = 0.5 * (out.M + out.M.transpose());
  out.K = 0.5 * (out.K + out.K.transpose());
  return out;
}

// The modes a finite-element mesh of `full` coordinates is reduced to, or 0 when it keeps them all.
int reducedSize(const FlexibleLink& link, int full) {
  const int k = link.discretization.kind == LinkDiscretization::Kind::FiniteElements ? link.discretization.reduce_to : 0;
  return k > 0 && k < full ? k : 0;
}

}  // namespace

void gaussLegendre(int n, double a, double b, std::vector<double>& x, std::vector<double>& w) {
  // Golub-Welsch would do for any n; a Newton iteration on P_n is enough here.
  x.assign(n, 0.0);
  w.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      const double dz = p1 / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    const double half = 0.5 * (b - a);
    x[n - 1 - i] = 0.5 * (a + b) + half * z;
    w[n - 1 - i] = half * 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

int elasticCoordinateCount(const FlexibleLink& link, double length) {
  const int full = makeLinkBasis(link, length)->size();
  const int reduced = reducedSize(link, full);
  return reduced > 0 ? reduced : full;
}

std::shared_ptr<const FlexibleBody> FlexibleBody::build(const FlexibleLink& link, double length) {
  auto body = std::make_shared<FlexibleBody>();
  FlexibleBody& b = *body;
  b.length = length;
  b.section = link.section;
  b.material = link.material;
  b.rhoA = link.material.rho * link.section.A;
  b.rhoIp = link.material.rho * link.section.polar();
  b.EA = link.material.E * link.section.A;
  b.EIy = link.material.E * link.section.Iy;
  b.EIz = link.material.E * link.section.Iz;
  b.GJ = link.material.G * link.section.J;
  if (link.section_preset) {
    const SectionPreset& sp = *link.section_preset;
    b.round_section = sp.kind == SectionPreset::Kind::Tube;
    b.fibre_y = b.round_section ? 0.5 * sp.outer_diameter : 0.5 * sp.width;
    b.fibre_z = b.round_section ? 0.5 * sp.outer_diameter : 0.5 * sp.height;
  } else if (link.section.A > 0.0) {
    b.fibre_y = std::sqrt(3.0 * link.section.Iz / link.section.A);
    b.fibre_z = std::sqrt(3.0 * link.section.Iy / link.section.A);
  }
  b.basis = makeLinkBasis(link, length);
  const std::vector<double> breaks = b.basis->breakpoints();

  Matrices mk = structuralMatrices(*b.basis, breaks, b.rhoA, b.rhoIp, b.EA, b.EIy, b.EIz, b.GJ);
  if (const int reduced = reducedSize(link, b.basis->size()); reduced > 0) {
    b.basis = makeReducedBasis(std::move(b.basis), lowestModes(mk.K, mk.M, reduced).vectors);
    mk = structuralMatrices(*b.basis, breaks, b.rhoA, b.rhoIp, b.EA, b.EIy, b.EIz, b.GJ);
  }
  b.m = b.basis->size();
  b.M = mk.M;
  b.K = mk.K;

  // The lowest clamped-free modes: those shown to the user and those that carry modal damping.
  const int nz = std::min<int>(static_cast<int>(link.damping.modal_ratios.size()), b.m);
  const LowestModes lowest = lowestModes(b.K, b.M, std::max(FlexibleBody::kKeptModes, nz));
  b.frequencies = lowest.values.cwiseMax(0.0).cwiseSqrt();
  b.modes = lowest.vectors;
  // Damping: Rayleigh plus modal ratios on the link's own clamped-free modes.
  b.C = link.damping.rayleigh_alpha * b.M + link.damping.rayleigh_beta * b.K;
  if (nz > 0) {
    Eigen::VectorXd d(nz);
    for (int k = 0; k < nz; ++k) d(k) = 2.0 * link.damping.modal_ratios[k] * b.frequencies(k);
    // Phi^T M Phi = I, so M Phi diag(2 zeta omega) Phi^T M gives modal damping 2 zeta_k omega_k.
    const Eigen::MatrixXd MPhi = b.M * b.modes.leftCols(nz);
    b.C += MPhi * d.asDiagonal() * MPhi.transpose();
  }

  // Stations and the foreshortening sub-quadrature.
  ShapeRows r;
  std::vector<double> xs, ws, xi, wi;
  for (std::size_t c = 0; c + 1 < breaks.size(); ++c) {
    Interval iv;
    iv.a = breaks[c];
    iv.b = breaks[c + 1];
    auto addSlopes = [&](double a, double bb) {
      gaussLegendre(kSlopePoints, a, bb, xi, wi);
      for (std::size_t k = 0; k < xi.size(); ++k) {
        b.basis->evaluate(xi[k], r);
        b.slopes.push_back({xi[k], wi[k], r.v1, r.w1});
      }
    };
    iv.full_begin = static_cast<int>(b.slopes.size());
    addSlopes(iv.a, iv.b);
    iv.full_count = kSlopePoints;
    gaussLegendre(kStationsPerInterval, iv.a, iv.b, xs, ws);
    for (std::size_t g = 0; g < xs.size(); ++g) {
      Station st;
      st.x = xs[g];
      st.weight = ws[g];
      st.interval = static_cast<int>(b.intervals.size());
      b.basis->evaluate(st.x, r);
      st.u = r.u;
      st.v = r.v;
      st.w = r.w;
      st.phi = r.phi;
      st.inner_begin = static_cast<int>(b.slopes.size());
      addSlopes(iv.a, st.x);
      st.inner_count = kSlopePoints;
      b.stations.push_back(std::move(st));
    }
    // The interval's window: the columns on which any of its rows is non-zero.
    int lo = b.m, hi = -1;
    auto widen = [&](const Eigen::RowVectorXd& row) { widenWindow(row, lo, hi); };
    for (int k = iv.full_begin; k < static_cast<int>(b.slopes.size()); ++k) widen(b.slopes[k].v1), widen(b.slopes[k].w1);
    for (const Station& s : b.stations)
      if (s.interval == static_cast<int>(b.intervals.size())) widen(s.u), widen(s.v), widen(s.w), widen(s.phi);
    iv.first = hi < lo ? 0 : lo;
    iv.count = hi < lo ? 0 : hi - lo + 1;
    std::vector<int> v_dofs, w_dofs;  // where v1, w1 can be non-zero
    bool shared = false;
    for (int c = 0; c < iv.count; ++c) {
      bool v_used = false, w_used = false;
      for (int k = iv.full_begin; k < static_cast<int>(b.slopes.size()); ++k) {
        v_used = v_used || b.slopes[k].v1(iv.first + c) != 0.0;
        w_used = w_used || b.slopes[k].w1(iv.first + c) != 0.0;
      }
      if (v_used || w_used) iv.slope_dofs.push_back(c);
      shared = shared || (v_used && w_used);
      if (v_used) v_dofs.push_back(c);
      if (w_used) w_dofs.push_back(c);
    }
    if (!shared && !v_dofs.empty() && !w_dofs.empty()) {  // v1's first, then w1's
      iv.slope_dofs = v_dofs;
      iv.slope_dofs.insert(iv.slope_dofs.end(), w_dofs.begin(), w_dofs.end());
      iv.slope_split = static_cast<int>(v_dofs.size());
    }
    // sum of weight x^power (v1^T v1 + w1^T w1) over the slope points [begin, begin + count), on the slope coordinates
    auto slopeSum = [&](int begin, int count, int power) {
      Eigen::MatrixXd S = Eigen::MatrixXd::Zero(iv.count, iv.count);
      for (int k = begin; k < begin + count; ++k) {
        const auto v1 = b.slopes[k].v1.segment(iv.first, iv.count), w1 = b.slopes[k].w1.segment(iv.first, iv.count);
        S.noalias() += b.slopes[k].weight * std::pow(b.slopes[k].x, power) * (v1.transpose() * v1 + w1.transpose() * w1);
      }
      return Eigen::MatrixXd(S(iv.slope_dofs, iv.slope_dofs));
    };
    iv.full_slopes = slopeSum(iv.full_begin, iv.full_count, 0);
    iv.slope_moment1 = slopeSum(iv.full_begin, iv.full_count, 1);
    iv.slope_moment2 = slopeSum(iv.full_begin, iv.full_count, 2);
    for (Station& s : b.stations) {
      if (s.interval != static_cast<int>(b.intervals.size())) continue;
      s.inner_slopes = slopeSum(s.inner_begin, s.inner_count, 0);
      s.window.resize(4, iv.count);
      s.window << s.u.segment(iv.first, iv.count), s.v.segment(iv.first, iv.count), s.w.segment(iv.first, iv.count),
          s.phi.segment(iv.first, iv.count);
    }
    iv.fields = fieldBlocks(b.stations, static_cast<int>(b.intervals.size()), iv);
    iv.spatial_nodes = spatialNodes(b.stations, static_cast<int>(b.intervals.size()), iv);
    b.intervals.push_back(iv);
  }
  b.M_transverse = Eigen::MatrixXd::Zero(b.m, b.m);
  for (const Station& st : b.stations) {  // on the block of the station's interval, as in structuralMatrices
    const Interval& iv = b.intervals[static_cast<std::size_t>(st.interval)];
    if (iv.count == 0) continue;
    auto s = [&](const Eigen::RowVectorXd& row) { return row.segment(iv.first, iv.count); };
    b.M_transverse.block(iv.first, iv.first, iv.count, iv.count).noalias() +=
        st.weight *
        (b.rhoA * (s(st.v).transpose() * s(st.v) + s(st.w).transpose() * s(st.w)) + b.rhoIp * s(st.phi).transpose() * s(st.phi));
  }
  // Gravity's station sums: the mass, the shape rows' moments, and D = sum_i mu_{>i} S_i + sum_k dm_k S_k,inner
  // (S_i an interval's whole slope sum, mu_{>i} the stations' mass after it), in the order the stations
  // take the foreshortening (LinkInertia.cpp): g(x_k) = sum_{i < j} S_i e + S_k,inner e.
  b.mass_shape = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, b.m);
  std::vector<double> mass_after(b.intervals.size(), 0.0);
  std::vector<Eigen::Triplet<double>> slope_entries;
  auto addSlopeBlock = [&](const Interval& iv, const Eigen::MatrixXd& S, double factor) {
    const std::size_t k_s = iv.slope_dofs.size();
    for (std::size_t c = 0; c < k_s; ++c)
      for (std::size_t r = 0; r < k_s; ++r)
        if (S(static_cast<int>(r), static_cast<int>(c)) != 0.0)
          slope_entries.emplace_back(iv.first + iv.slope_dofs[r], iv.first + iv.slope_dofs[c],
                                     factor * S(static_cast<int>(r), static_cast<int>(c)));
  };
  for (const Station& st : b.stations) {
    const double dm = b.rhoA * st.weight;
    b.station_mass += dm;
    b.mass_shape.row(0) += dm * st.u;
    b.mass_shape.row(1) += dm * st.v;
    b.mass_shape.row(2) += dm * st.w;
    mass_after[static_cast<std::size_t>(st.interval)] += dm;  // the interval's own, summed into mu_{>i} below
    addSlopeBlock(b.intervals[static_cast<std::size_t>(st.interval)], st.inner_slopes, dm);
  }
  double after = 0.0;
  for (std::size_t i = b.intervals.size(); i-- > 0;) {
    const double own = mass_after[i];
    mass_after[i] = after;
    after += own;
    if (mass_after[i] != 0.0) addSlopeBlock(b.intervals[i], b.intervals[i].full_slopes, mass_after[i]);
  }
  b.mass_slopes.resize(b.m, b.m);
  b.mass_slopes.setFromTriplets(slope_entries.begin(), slope_entries.end());
  b.M_sparse = b.M.sparseView();
  b.K_sparse = b.K.sparseView();
  b.C_sparse = b.C.sparseView();
  b.basis->evaluate(length, b.tip);
  b.distal_rotation.resize(3, b.m);
  b.distal_rotation.row(0) = b.tip.phi;
  b.distal_rotation.row(1) = -b.tip.w1;
  b.distal_rotation.row(2) = b.tip.v1;
  int first = b.m, last = -1;
  for (int c = 0; c < b.m; ++c)
    if (!b.distal_rotation.col(c).isZero(0.0)) first = std::min(first, c), last = c;
  b.distal_first = last < 0 ? 0 : first;
  b.distal_count = last < 0 ? 0 : last - first + 1;
  return body;
}

}  // namespace flexarm
