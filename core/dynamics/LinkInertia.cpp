#include "dynamics/LinkInertia.hpp"

#include <algorithm>
#include <array>
#include <type_traits>

namespace flexarm {
namespace {

// Running integrals of the slopes: s = 1/2 int (v'^2 + w'^2), its rate sd = g . ed, and
// sdd = int (v.'^2 + w.'^2).
struct SlopeSums {
  double s = 0.0, sd = 0.0, sdd = 0.0;
};

// The stations' mass moments about the body origin: the first ones for the gravity term
// (BodyFrames::first_moment), all for their spatial inertia (with M). And their linear d'Alembert force, in the body frame.
struct Moments {
  double mass = 0.0, polar = 0.0;
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
};

// What one link's pass carries from interval to interval, in order along the link.
struct LinkPass {
  const FlexibleBody& fb;
  bool high, with_M, forces;
  BodyFrames& fr;
  DynamicsData& d;
  Moments moments;
  SlopeSums start;     // at the start of the current interval
  double G_edd = 0.0;  // G_j . edd: the slope gradient of the whole intervals before, times edd
  std::size_t st = 0;  // the next station
};

// A column-major view of r x c values (r, c compile-time sizes or Eigen::Dynamic) in a work buffer.
template <int R, int C>
using WorkMap = Eigen::Map<Eigen::Matrix<double, R, C>, 0, Eigen::OuterStride<>>;
template <int R, int C>
using ConstMap = Eigen::Map<const Eigen::Matrix<double, R, C>>;

// Adds a stretch of the link within one interval whose slope sum (FlexibleBody::Station::inner_slopes,
// Interval::full_slopes) is S on the interval's K slope coordinates, with E = [e ed] there:
// s += 1/2 e^T S e, sd += ed^T S e, sdd += ed^T S ed. SE <- [S e, S ed] there, and the stretch's slope
// gradient S e on the whole window into `gradient` (zero off the slope coordinates). With Split > 0,
// S = diag(S_vv, S_ww) on the first Split slope coordinates and the rest (Interval::slope_split).
template <int K, int Split = 0, class Gradient>
void addSlopes(const Eigen::MatrixXd& S_k, const std::vector<int>& dofs, const WorkMap<K, 2>& E, SlopeSums& sums,
               WorkMap<K, 2>& SE, Gradient& gradient) {
  const ConstMap<K, K> S(S_k.data(), S_k.rows(), S_k.cols());
  if constexpr (Split > 0) {  // the two diagonal blocks, column by column as below
    Eigen::Matrix<double, K, 2> P;
    P.template topRows<Split>() = S.col(0).template head<Split>() * E.row(0);
    for (int k = 1; k < Split; ++k) P.template topRows<Split>().noalias() += S.col(k).template head<Split>() * E.row(k);
    P.template bottomRows<K - Split>() = S.col(Split).template tail<K - Split>() * E.row(Split);
    for (int k = Split + 1; k < K; ++k)
      P.template bottomRows<K - Split>().noalias() += S.col(k).template tail<K - Split>() * E.row(k);
    SE = P;
  } else if constexpr (K != Eigen::Dynamic) {
    // Column by column (contiguous, vectorized): beyond Eigen's unrolling limit the coefficient-wise
    // lazy product became a strided loop of dot products, 14 instructions per multiply-add for K = 8.
    Eigen::Matrix<double, K, 2> P = S.col(0) * E.row(0);
    for (int k = 1; k < K; ++k) P.noalias() += S.col(k) * E.row(k);
    SE = P;
  } else {
    SE.noalias() = S.lazyProduct(E);  // small: coefficient by coefficient
  }
  sums.s += 0.5 * E.col(0).dot(SE.col(0));
  sums.sd += E.col(1).dot(SE.col(0));
  sums.sdd += E.col(1).dot(SE.col(1));
  for (std::size_t k = 0; k < dofs.size(); ++k) gradient(dofs[k]) = SE(static_cast<Eigen::Index>(k), 0);
}

// Where the rows u, v, w, phi of a station can be non-zero on its window, and the lever u - iota
// (Field::U, V, W, Phi, Lever): at(x, n) is that part of a window vector or row x whose run-time
// length is n, lever(window_lever, n) the lever's own storage (its entries in the order of
// at<Lever>), uInLever(l, n) the axial entries within it, leverBlock(C, n) the lever's rows and
// columns of a window matrix.
enum class Field { U, V, W, Phi, Lever };

// As compile-time blocks [x0, x0 + nx) (L = Eigen::Dynamic: all n): ...
template <int B, int L, class X>
auto block(X&& x, int n) {
  return x.template segment<L>(B, L == Eigen::Dynamic ? n : L);
}
template <class Blocks>
struct BlockSpans {
  template <Field F>
  static constexpr std::array<int, 2> range() {  // {x0, nx}
    if constexpr (F == Field::U) return {Blocks::u0, Blocks::nu};
    if constexpr (F == Field::V) return {Blocks::v0, Blocks::nv};
    if constexpr (F == Field::W) return {Blocks::w0, Blocks::nw};
    if constexpr (F == Field::Phi) return {Blocks::p0, Blocks::np};
    return {Blocks::l0, Blocks::nl};
  }
  template <Field F, class X>
  static auto at(X&& x, int n) {
    return block<range<F>()[0], range<F>()[1]>(x, n);
  }
  template <class X>
  static auto lever(X&& x, int n) {
    return at<Field::Lever>(x, n);
  }
  template <class X>
  static auto uInLever(X&& l, int n) {
    return block<Blocks::u0 - Blocks::l0, Blocks::nu>(l, n);
  }
  template <class X>
  static auto leverBlock(X&& C, int n) {
    const int nl = Blocks::nl == Eigen::Dynamic ? n : Blocks::nl;
    return C.template block<Blocks::nl, Blocks::nl>(Blocks::l0, Blocks::l0, nl, nl);
  }
};
// ... the whole window (length N, or Eigen::Dynamic and then the window's length at run time) ...
template <int N>
struct WholeWindowBlocks {
  static constexpr int u0 = 0, nu = N, v0 = 0, nv = N, w0 = 0, nw = N, p0 = 0, np = N, l0 = 0, nl = N;
};
template <int N>
using WholeWindow = BlockSpans<WholeWindowBlocks<N>>;
// ... or, for a window grouped by field (FlexibleBody::Interval::fields), each row its own block and
// the lever the axial and bending blocks (the slopes, so iota, lie in the bending ones) ...
template <int A, int V, int W, int T>
struct FieldBlockRanges {
  static constexpr int u0 = 0, nu = A, v0 = A, nv = V, w0 = A + V, nw = W, p0 = A + V + W, np = T, l0 = 0, nl = A + V + W;
};
template <int A, int V, int W, int T>
using FieldBlocks = BlockSpans<FieldBlockRanges<A, V, W, T>>;

// ... or, for a spatial Hermite element whose nodes each carry (u, v, w, phi, v', w') (LinkBasis.cpp),
// the rows by index: u at offset 0 of each node, v at 1 and 4, w at 2 and 5, phi at 3. The lever
// stays on the whole window (zero at phi): its rank-one update of the elastic block is faster on the
// contiguous 6 n x 6 n block than on the lever's own entries by index.
template <int Nodes, std::size_t PerNode>
constexpr std::array<int, Nodes * PerNode> nodeOffsets(std::array<int, PerNode> offsets) {
  std::array<int, Nodes * PerNode> a{};
  for (int node = 0; node < Nodes; ++node)
    for (std::size_t k = 0; k < PerNode; ++k) a[node * PerNode + k] = 6 * node + offsets[k];
  return a;
}
template <int Nodes>
struct SpatialNodes {
  static constexpr int kN = 6 * Nodes;
  static constexpr int kSlopeSplit = 2 * Nodes;  // v' on the first 2 Nodes slope coordinates, w' on the rest
  static constexpr std::array<int, Nodes> kU = nodeOffsets<Nodes, 1>({0});
  static constexpr int kBending = 2 * Nodes;  // v's (and w's) entries: two per node
  static constexpr std::array<int, kBending> kV = nodeOffsets<Nodes, 2>({1, 4}), kW = nodeOffsets<Nodes, 2>({2, 5});
  static constexpr std::array<int, Nodes> kPhi = nodeOffsets<Nodes, 1>({3});
  template <Field F, class X>
  static auto at(X&& x, int) {
    if constexpr (F == Field::U) return x(kU);
    if constexpr (F == Field::V) return x(kV);
    if constexpr (F == Field::W) return x(kW);
    if constexpr (F == Field::Phi) return x(kPhi);
    if constexpr (F == Field::Lever) return x.template head<kN>();
  }
  template <class X>
  static auto lever(X&& x, int) {
    return x.template head<kN>();
  }
  template <class X>
  static auto uInLever(X&& l, int) {
    return l(kU);
  }
  template <class X>
  static auto leverBlock(X&& C, int) {
    return C.template topLeftCorner<kN, kN>();
  }
};

// Spans::kSlopeSplit where the policy has one (Interval::slope_split), else 0.
template <class Spans, class = void>
struct SlopeSplitOf {
  static constexpr int value = 0;
};
template <class Spans>
struct SlopeSplitOf<Spans, std::void_t<decltype(Spans::kSlopeSplit)>> {
  static constexpr int value = Spans::kSlopeSplit;
};
template <class Spans>
constexpr int slopeSplit() {
  return SlopeSplitOf<Spans>::value;
}

// The stations of interval j, whose window has N coordinates and K of them move the slopes (compile-time
// sizes for the common elements, so that the small products unroll; Eigen::Dynamic otherwise), with
// their rows non-zero on the blocks of Spans.
template <int N, int K, class Spans = WholeWindow<N>>
void gatherInterval(int j, LinkPass& p) {
  using S = Spans;
  constexpr bool kWhole = std::is_same_v<Spans, WholeWindow<N>>;
  using F = Field;
  const FlexibleBody& fb = p.fb;
  DynamicsData& d = p.d;
  BodyFrames& fr = p.fr;
  const bool high = p.high, with_M = p.with_M;
  const double c = high ? 1.0 : 0.0;  // the foreshortening's factor
  const FlexibleBody::Interval& iv = fb.intervals[j];
  const int f0 = iv.first, n = iv.count;
  const int k_s = static_cast<int>(iv.slope_dofs.size());
  const Eigen::OuterStride<> window_stride(d.window_states.rows()), slope_stride(d.slope_states.rows());
  WorkMap<N, 3> E(d.window_states.data(), n, 3, window_stride);  // [e ed edd] on the window
  E.col(0) = d.e.template segment<N>(f0, n);
  E.col(1) = d.ed.template segment<N>(f0, n);
  E.col(2) = d.edd.template segment<N>(f0, n);        // known elastic accelerations (zero in the forward dynamics)
  auto iota = d.window_gradient.template head<N>(n);  // of the stretch from the interval's start to the station (high)
  WorkMap<K, 2> E_s(d.slope_states.data(), k_s, 2, slope_stride);  // [e ed] on the slope coordinates
  WorkMap<K, 2> SE_s(d.slope_products.data(), k_s, 2, slope_stride);
  if (high) {
    iota.setZero();
    for (int k = 0; k < k_s; ++k) E_s.row(k) = E.row(iv.slope_dofs[static_cast<std::size_t>(k)]).template head<2>();
  }
  auto lever = d.window_lever.template head<N>(n);
  auto force_e = d.station_force_e.template segment<N>(f0, n);
  auto Bt = d.station_coupling.template middleRows<N>(f0, n);         // with the mass matrix only: B^T on the window
  auto Cw = d.station_mass.template block<N, N>(f0, f0, n, n);        // with the mass matrix and `high` only
  auto interval_lever = d.interval_lever.col(j).template head<N>(n);  // with the mass matrix and `high` only
  if (high) {
    d.interval_force(j) = 0.0;
    d.interval_mass(j) = 0.0;
    if (with_M) d.interval_moment.col(j).setZero(), interval_lever.setZero();
  }
  const Eigen::Vector3d w = fr.v_body.head<3>(), alpha = fr.a_body.head<3>();
  for (; p.st < fb.stations.size() && fb.stations[p.st].interval == j; ++p.st) {
    const FlexibleBody::Station& s = fb.stations[p.st];
    const ConstMap<4, N> window(s.window.data(), 4, n);
    SlopeSums at = p.start;
    double iota_edd = 0.0;
    if (high) {
      addSlopes<K, slopeSplit<Spans>()>(s.inner_slopes, iv.slope_dofs, E_s, at, SE_s, iota);
      iota_edd = iota.dot(E.col(2));
    }
    // The shape rows u, v, w, phi times e, ed and edd, each on its block.
    const auto u = S::template at<F::U>(window.row(0), n), v = S::template at<F::V>(window.row(1), n),
               wr = S::template at<F::W>(window.row(2), n), phi = S::template at<F::Phi>(window.row(3), n);
    Eigen::Matrix<double, 4, 3> P;
    if constexpr (kWhole) {  // the blocks are the whole rows: one product (as below, faster)
      P = window.lazyProduct(E);
    } else {
      for (int k = 0; k < 3; ++k) {
        P(0, k) = u.dot(S::template at<F::U>(E.col(k), n));
        P(1, k) = v.dot(S::template at<F::V>(E.col(k), n));
        P(2, k) = wr.dot(S::template at<F::W>(E.col(k), n));
        P(3, k) = phi.dot(S::template at<F::Phi>(E.col(k), n));
      }
    }
    const Eigen::Vector3d r(s.x + P(0, 0) - c * at.s, P(1, 0), P(2, 0));
    const Eigen::Vector3d rdot(P(0, 1) - c * at.sd, P(1, 1), P(2, 1));
    const double phid = P(3, 1);  // the twist itself leaves the station's inertia unchanged
    // The known elastic accelerations: dr/de edd (with the foreshortening's gradient G_j + iota) and phi..
    const Eigen::Vector3d r_edd(P(0, 2) - c * (p.G_edd + iota_edd), P(1, 2), P(2, 2));
    const double phidd = P(3, 2);
    const double dm = fb.rhoA * s.weight, Jp = fb.rhoIp * s.weight;
    // Motion of the station (translated to the deformed neutral-axis point, twisted about x),
    // expressed in the un-twisted station frame: the two frame steps (translation, twist) in
    // closed form. Angular velocity w + phid e_x, linear velocity v0 + w x r + rdot, and the
    // velocity-product accelerations with crel = (-c sdd, 0, 0).
    const Eigen::Vector3d spin(phid, 0.0, 0.0);
    const Eigen::Vector3d w_s = w + spin;
    const Eigen::Vector3d v_s = fr.v_body.tail<3>() + w.cross(r) + rdot;
    p.moments.mass += dm;
    p.moments.first += dm * r;
    d.kinetic += 0.5 * (dm * v_s.squaredNorm() + Jp * w_s.x() * w_s.x());
    if (!p.forces) continue;  // a kinematics pass: positions, rates and energies only
    const Eigen::Vector3d alpha_s = alpha + w.cross(spin) + Eigen::Vector3d(phidd, 0.0, 0.0);
    const Eigen::Vector3d a_s =
        fr.a_body.tail<3>() + alpha.cross(r) + Eigen::Vector3d(-c * at.sdd, 0.0, 0.0) + r_edd + w.cross(rdot) + v_s.cross(spin);
    // d'Alembert wrench f = I a + v x* I v with I = diag(Jp, 0, 0, dm, dm, dm).
    const Eigen::Vector3d f_lin = dm * a_s + w_s.cross(dm * v_s);
    const Eigen::Vector3d f_ang = Jp * (Eigen::Vector3d(alpha_s.x(), 0.0, 0.0) + w_s.cross(Eigen::Vector3d(w_s.x(), 0.0, 0.0)));
    d.station_wrench.head<3>() += f_ang + r.cross(f_lin);
    d.station_wrench.tail<3>() += f_lin;
    p.moments.force += f_lin;
    // The second moments for the stations' spatial inertia about the body origin (assembled after
    // the loop; a block of M only).
    if (with_M) {
      p.moments.second.noalias() += dm * r * r.transpose();
      p.moments.polar += Jp;
    }

    // dr/de = [l - G_j; Psi_v; Psi_w] with l = Psi_u - c iota: the window's part here, G_j's after the
    // last interval. The generalized force D^T f_lin + Psi_phi^T f_ang.x.
    if constexpr (kWhole) {  // one product, as for P
      force_e.noalias() += window.transpose().lazyProduct(Eigen::Vector4d(f_lin.x(), f_lin.y(), f_lin.z(), f_ang.x()));
    } else {
      S::template at<F::U>(force_e, n) += f_lin.x() * u.transpose();
      S::template at<F::V>(force_e, n) += f_lin.y() * v.transpose();
      S::template at<F::W>(force_e, n) += f_lin.z() * wr.transpose();
      S::template at<F::Phi>(force_e, n) += f_ang.x() * phi.transpose();
    }
    if (high) {
      force_e.noalias() -= f_lin.x() * iota;
      d.interval_force(j) += f_lin.x();
      d.interval_mass(j) += dm;
    }
    if (!with_M) continue;
    // Coupling rows [r x D; D] dm and Jp Psi_phi for the twist, row by row and block by block (most of
    // the 6 x 4 coefficients are zero), with the lever l = u - iota (iota zero off the slopes).
    auto l = S::lever(lever, n);
    l.setZero();
    S::uInLever(l, n) = u.transpose();
    if (high) l -= S::template at<F::Lever>(iota, n);
    S::template at<F::W>(Bt.col(0), n) += (dm * r.y()) * wr.transpose();
    S::template at<F::V>(Bt.col(0), n) -= (dm * r.z()) * v.transpose();
    S::template at<F::Phi>(Bt.col(0), n) += Jp * phi.transpose();
    S::template at<F::Lever>(Bt.col(1), n) += (dm * r.z()) * l;
    S::template at<F::W>(Bt.col(1), n) -= (dm * r.x()) * wr.transpose();
    S::template at<F::V>(Bt.col(2), n) += (dm * r.x()) * v.transpose();
    S::template at<F::Lever>(Bt.col(2), n) -= (dm * r.y()) * l;
    S::template at<F::Lever>(Bt.col(3), n) += dm * l;
    S::template at<F::V>(Bt.col(4), n) += dm * v.transpose();
    S::template at<F::W>(Bt.col(5), n) += dm * wr.transpose();
    if (!high) continue;
    d.interval_moment.col(j) += dm * (Vector6d() << 0.0, r.z(), -r.y(), 1.0, 0.0, 0.0).finished();
    S::template at<F::Lever>(interval_lever, n) += dm * l;
    S::leverBlock(Cw, n) += (dm * l).lazyProduct(l.transpose());
  }
  if (high) {
    addSlopes<K, slopeSplit<Spans>()>(iv.full_slopes, iv.slope_dofs, E_s, p.start, SE_s, iota);
    d.interval_slope.col(j).template head<N>(n) = iota;
    p.G_edd += iota.dot(E.col(2));
  }
}

}  // namespace

TipForeshortening gatherLinkStations(const Body& body, bool high, bool with_M, bool forces, BodyFrames& fr, DynamicsData& d) {
  const FlexibleBody& fb = *body.flexible;
  const int m = fb.m;
  d.station_inertia.setZero();
  d.station_wrench.setZero();
  auto Bt = d.station_coupling.topRows(m);  // with the mass matrix only: B^T
  // All of it at once (contiguous, where the link's m rows are not): the rows below m are unused.
  if (with_M) std::fill_n(d.station_coupling.data(), d.station_coupling.size(), 0.0);
  auto force_e = d.station_force_e.head(m);
  force_e.setZero();
  auto C = d.station_mass.topLeftCorner(m, m);
  // Without foreshortening the elastic block is constant, the structural mass matrix itself: the
  // caller adds its non-zeros (FlexibleBody::M_sparse) and station_mass is left as it is.
  if (with_M && high) C = fb.M_transverse;

  LinkPass pass{fb, high, with_M, forces, fr, d, {}, {}, 0.0, 0};
  const int n_intervals = static_cast<int>(fb.intervals.size());
  for (int j = 0; j < n_intervals; ++j) {
    const int n = fb.intervals[j].count, k_s = static_cast<int>(fb.intervals[j].slope_dofs.size());
    // The windows of Hermite elements: spatial (12 coordinates, 8 of them bending) and planar (4, all
    // bending), the clamped first element of each (6, 4 and 2, 2), and twelve global modes of which
    // six bend (the assumed-modes links of the shipped arms; three per field, grouped by field).
    const int spatial_nodes = fb.intervals[j].spatial_nodes;
    if (n == 12 && k_s == 8 && spatial_nodes == 2)
      gatherInterval<12, 8, SpatialNodes<2>>(j, pass);
    else if (n == 6 && k_s == 4 && spatial_nodes == 1)
      gatherInterval<6, 4, SpatialNodes<1>>(j, pass);
    else if (n == 12 && k_s == 8)
      gatherInterval<12, 8>(j, pass);
    else if (n == 6 && k_s == 4)
      gatherInterval<6, 4>(j, pass);
    else if (n == 4 && k_s == 4)
      gatherInterval<4, 4>(j, pass);
    else if (n == 2 && k_s == 2)
      gatherInterval<2, 2>(j, pass);
    else if (n == 12 && k_s == 6 && fb.intervals[j].fields == std::array<int, 4>{3, 3, 3, 3})
      gatherInterval<12, 6, FieldBlocks<3, 3, 3, 3>>(j, pass);
    else
      gatherInterval<Eigen::Dynamic, Eigen::Dynamic>(j, pass);
  }
  const Moments& moments = pass.moments;
  const SlopeSums& start = pass.start;
  const Eigen::Matrix3d& R = fr.X_world_body.linear();
  fr.first_moment = moments.first;
  fr.force_world.noalias() += R * moments.force;

  // sum of spatialInertia(dm, r, Jp e_x e_x^T) from the moments: the rotational block
  // sum Jp e_x e_x^T + dm (|r|^2 I - r r^T), the coupling skew(sum dm r), the mass.
  if (with_M) {
    Matrix6d& A = d.station_inertia;
    A.topLeftCorner<3, 3>() = moments.second.trace() * Eigen::Matrix3d::Identity() - moments.second;
    A(0, 0) += moments.polar;
    A.topRightCorner<3, 3>() = skew(moments.first);
    A.bottomLeftCorner<3, 3>() = skew(moments.first).transpose();
    A.bottomRightCorner<3, 3>() = moments.mass * Eigen::Matrix3d::Identity();
  }

  auto g = d.g_start.head(m);  // g(L) = sum of the intervals' slope gradients
  g.setZero();
  TipForeshortening tip{start.s, start.sdd};
  if (!high) return tip;
  for (int j = 0; j < n_intervals; ++j)
    g.segment(fb.intervals[j].first, fb.intervals[j].count) += d.interval_slope.col(j).head(fb.intervals[j].count);
  if (!forces) return tip;

  // The G_j terms, by suffix sums over the later intervals (k > j):
  //   force_e -= sum_k F_k G_k = sum_j F_{>j} phi_j,    B -= sum_k C_k G_k^T = sum_j C_{>j} phi_j^T,
  //   C += sum_k (mu_k G_k G_k^T - G_k L_k^T - L_k G_k^T)
  //      = sum_j [phi_j (mu_{>j} P_j + Q_j - L_{>j})^T - L_{>j} phi_j^T],
  // with P_j = sum_{i<=j} phi_i and Q_j = sum_{i>j} mu_{>i} phi_i.
  if (!with_M) {
    double F_after = 0.0;
    for (int j = n_intervals - 1; j >= 0; --j) {
      force_e.segment(fb.intervals[j].first, fb.intervals[j].count).noalias() -=
          F_after * d.interval_slope.col(j).head(fb.intervals[j].count);
      F_after += d.interval_force(j);
    }
    return tip;
  }
  auto P = d.prefix_slope.head(m);
  auto Q = d.suffix_slope.head(m);
  auto L_after = d.suffix_lever.head(m);
  auto H = d.row_work.head(m);
  P = g;
  Q.setZero();
  L_after.setZero();
  double F_after = 0.0, mu_after = 0.0;
  Vector6d C_after = Vector6d::Zero();
  for (int j = n_intervals - 1; j >= 0; --j) {
    const int f0 = fb.intervals[j].first, n = fb.intervals[j].count;
    const auto phi_j = d.interval_slope.col(j).head(n);
    force_e.segment(f0, n).noalias() -= F_after * phi_j;
    Bt.middleRows(f0, n).noalias() -= phi_j * C_after.transpose();
    if (!d.mass_without_running_terms) {
      H = mu_after * P + Q - L_after;
      C.middleRows(f0, n).noalias() += phi_j * H.transpose();
      C.middleCols(f0, n).noalias() -= L_after * phi_j.transpose();
    }
    Q.segment(f0, n) += mu_after * phi_j;
    P.segment(f0, n) -= phi_j;
    F_after += d.interval_force(j);
    mu_after += d.interval_mass(j);
    C_after += d.interval_moment.col(j);
    L_after.segment(f0, n) += d.interval_lever.col(j).head(n);
  }
  return tip;
}

}  // namespace flexarm
