#include "dynamics/ForeshorteningColumns.hpp"

#include <algorithm>

#include "discretization/FlexibleBody.hpp"
#include "dynamics/DynamicsData.hpp"

namespace flexarm {

namespace {
// c plus the elastic coordinates e_index + k where a row of `rows` is non-zero, ascending.
std::vector<int> withNonZeros(std::vector<int> c, int e_index, std::initializer_list<const Eigen::RowVectorXd*> rows,
                              const Eigen::Matrix<double, 3, Eigen::Dynamic>& rotation, int first, int count) {
  const Eigen::Index m = rotation.cols();
  for (Eigen::Index k = 0; k < m; ++k) {
    bool any = k >= first && k < first + count && !rotation.col(k).isZero(0.0);
    for (const Eigen::RowVectorXd* r : rows) any = any || (*r)(k) != 0.0;
    if (any) c.push_back(e_index + static_cast<int>(k));
  }
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}
}  // namespace

void ForeshorteningColumns::buildColumns(const MultibodySystem& sys) {
  const std::size_t n = sys.bodies.size();
  body_columns.assign(n, {});
  distal_columns.assign(n, {});
  section_columns.assign(n, {});
  station_patterns.assign(n, {});
  std::vector<Eigen::Triplet<double>> entries;
  auto square = [&](const std::vector<int>& a, const std::vector<int>& b) {
    for (int i : a)
      for (int j : b) {
        entries.emplace_back(i, j, 1.0);
        entries.emplace_back(j, i, 1.0);
      }
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Body& b = sys.bodies[i];
    std::vector<int> c = b.parent >= 0 ? distal_columns[static_cast<std::size_t>(b.parent)] : std::vector<int>{};
    c.push_back(b.q_index);
    std::sort(c.begin(), c.end());
    body_columns[i] = c;
    square(c, c);
    if (b.motor_index >= 0) entries.emplace_back(b.motor_index, b.motor_index, 1.0);
    if (!b.isFlexible()) {
      distal_columns[i] = c;
      continue;
    }
    const FlexibleBody& fb = *b.flexible;
    std::vector<int> own(static_cast<std::size_t>(b.e_count));
    for (int k = 0; k < b.e_count; ++k) own[static_cast<std::size_t>(k)] = b.e_index + k;
    square(c, own);                               // the stations' coupling rows
    std::vector<Eigen::Triplet<double>> windows;  // the intervals' windows
    for (const FlexibleBody::Interval& iv : fb.intervals)
      for (int r = 0; r < iv.count; ++r)
        for (int k = 0; k < iv.count; ++k) windows.emplace_back(iv.first + r, iv.first + k, 1.0);
    station_patterns[i].resize(b.e_count, b.e_count);
    station_patterns[i].setFromTriplets(windows.begin(), windows.end(), [](double a, double) { return a; });
    station_patterns[i].makeCompressed();
    for (int col = 0; col < station_patterns[i].outerSize(); ++col)
      for (Eigen::SparseMatrix<double>::InnerIterator it(station_patterns[i], col); it; ++it)
        entries.emplace_back(b.e_index + static_cast<int>(it.row()), b.e_index + col, 1.0);
    distal_columns[i] =
        withNonZeros(c, b.e_index, {&fb.tip.u, &fb.tip.v, &fb.tip.w}, fb.distal_rotation, fb.distal_first, fb.distal_count);
    if (b.distal_mass > 0.0) square(distal_columns[i], distal_columns[i]);
    for (const Body::SectionMass& sm : b.section_masses) {
      const SectionPoint& sp = sm.section;
      section_columns[i].push_back(
          withNonZeros(c, b.e_index, {&sp.rows.u, &sp.rows.v, &sp.rows.w}, sp.rotation, sp.rotation_first, sp.rotation_count));
      square(section_columns[i].back(), section_columns[i].back());
    }
  }
  mass_pattern.resize(sys.nq, sys.nq);
  mass_pattern.setFromTriplets(entries.begin(), entries.end(), [](double a, double) { return a; });
  mass_pattern.makeCompressed();
}

ForeshorteningColumns::ForeshorteningColumns(const MultibodySystem& sys) {
  const std::size_t n = sys.bodies.size();
  distal_column.assign(n, -1);
  running_offset.assign(n, -1);
  payload_column.resize(n);
  if (sys.coupling != CouplingOrder::High) return;
  std::vector<bool> has_child(n, false);
  for (const Body& b : sys.bodies)
    if (b.parent >= 0) has_child[static_cast<std::size_t>(b.parent)] = true;
  int m_max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Body& b = sys.bodies[i];
    if (!b.isFlexible()) continue;
    const Section s{static_cast<int>(i), -1, b.e_index, b.e_count};
    if (has_child[i] || b.distal_mass > 0.0) {
      distal_column[i] = count();
      sections.push_back(s);
    }
    for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
      payload_column[i].push_back(count());
      sections.push_back({s.body, static_cast<int>(k), s.e_index, s.e_count});
    }
    m_max = std::max(m_max, b.e_count);
    const int K = static_cast<int>(b.flexible->intervals.size());
    if (K > 1) {
      running_offset[i] = running_count;
      running_count += 2 * (K - 1);
      for (int k = 0; k + 1 < K; ++k)  // sigma_k reads interval k + 1
        running_place.push_back(b.e_index + b.flexible->intervals[static_cast<std::size_t>(k + 1)].first);
      for (int k = 0; k + 1 < K; ++k)  // nu_k interval k
        running_place.push_back(b.e_index + b.flexible->intervals[static_cast<std::size_t>(k)].first);
    }
  }
  const int L = count();
  gradients = Eigen::MatrixXd::Zero(m_max, L);
  M_xs = Eigen::MatrixXd::Zero(sys.nq, L);
  M_ss = Eigen::MatrixXd::Zero(L, L);
  tau_s = Eigen::VectorXd::Zero(L);
  IJs_ = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, L);
  if (L > 0) buildColumns(sys);
}

void ForeshorteningColumns::clear() {
  running.clear();
  M_xs.setZero();
  M_ss.setZero();
  tau_s.setZero();
}

void ForeshorteningColumns::addMassElement(const Matrix6d& A, const Eigen::MatrixXd& J, ColumnSet cols, const Eigen::MatrixXd& Js,
                                           const Vector6d& f) {
  const int L = count();
  tau_s.noalias() += Js.transpose() * f;
  IJs_.noalias() = A * Js;
  M_ss.noalias() += Js.transpose() * IJs_;
  for (int k = 0; k < cols.count; ++k) {
    const int c = cols.index[k];
    const Eigen::Map<const Vector6d> Jc(J.col(c).data());
    for (int s = 0; s < L; ++s) M_xs(c, s) += Jc.dot(IJs_.col(s));
  }
}

void ForeshorteningColumns::addCoupling(const Eigen::MatrixXd& Bt, int e_index, int m, const Eigen::MatrixXd& Js) {
  M_xs.middleRows(e_index, m).noalias() += Bt.topRows(m) * Js;
}

void ForeshorteningColumns::addRunningTerms(int body, const FlexibleBody& fb, int e_index, const Eigen::MatrixXd& interval_slope,
                                            const Eigen::MatrixXd& interval_lever, const Eigen::VectorXd& interval_mass, int nq) {
  const int K = static_cast<int>(fb.intervals.size());
  if (K < 2) return;
  const int sigma0 = nq + running_offset[static_cast<std::size_t>(body)], nu0 = sigma0 + K - 1;
  auto both = [&](int i, int j, double v) {
    if (v == 0.0) return;
    running.emplace_back(i, j, v);
    running.emplace_back(j, i, v);
  };
  for (int k = 0; k + 1 < K; ++k) {
    // sigma_k = G_{k+1}^T x: the start of interval k + 1, its mass and levers; nu_k with phi_k.
    const FlexibleBody::Interval& next = fb.intervals[static_cast<std::size_t>(k + 1)];
    const FlexibleBody::Interval& own = fb.intervals[static_cast<std::size_t>(k)];
    running.emplace_back(sigma0 + k, sigma0 + k, interval_mass(k + 1));
    for (int c = 0; c < next.count; ++c) both(e_index + next.first + c, sigma0 + k, -interval_lever(c, k + 1));
    for (int c = 0; c < own.count; ++c) both(e_index + own.first + c, nu0 + k, interval_slope(c, k));
    both(sigma0 + k, nu0 + k, -1.0);  // -N^-1: 1 on the diagonal, -1 above it
    if (k + 2 < K) both(sigma0 + k, nu0 + k + 1, 1.0);
  }
}

void ForeshorteningColumns::joinJacobian(Eigen::MatrixXd& J, const Eigen::MatrixXd& Js) const {
  for (int s = 0; s < count(); ++s) {
    const auto j = Js.col(s);
    if (j.isZero(0.0)) continue;
    const Section& sec = sections[static_cast<std::size_t>(s)];
    J.middleCols(sec.e_index, sec.e_count).noalias() += j * gradients.col(s).head(sec.e_count).transpose();
  }
}

void ForeshorteningColumns::foldBias(Eigen::VectorXd& tau) const {
  for (int s = 0; s < count(); ++s) {
    const Section& sec = sections[static_cast<std::size_t>(s)];
    tau.segment(sec.e_index, sec.e_count) += tau_s(s) * gradients.col(s).head(sec.e_count);
  }
}

}  // namespace flexarm
