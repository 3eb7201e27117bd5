#include "analysis/StateEigenvalues.hpp"

#include "base/NumberFormat.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

namespace flexarm {

EigenvalueKind eigenvalueKind(std::complex<double> l, double scale) {
  const double mag = std::abs(l);
  if (mag < 1e-7 * scale) return EigenvalueKind::Zero;
  if (l.imag() < -1e-9 * mag) return EigenvalueKind::Conjugate;
  if (std::abs(l.imag()) <= 1e-9 * mag && l.real() < 0) return EigenvalueKind::Decay;
  return EigenvalueKind::Mode;
}

StateEigenpairs everyEigenvalue(const Eigen::MatrixXd& A) {
  StateEigenpairs out;
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(A);
  if (eig.info() != Eigen::Success) {
    out.error = "the eigenvalue problem did not converge";
    return out;
  }
  out.values = eig.eigenvalues();
  out.shapes = eig.eigenvectors().topRows(A.rows() / 2);
  out.scale = std::max(1e-12, out.values.cwiseAbs().maxCoeff());
  return out;
}

namespace {

using SparseLu = Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>>;

// x -> (A - sigma I)^-1 x for A = [0 I; -M^-1 K, -M^-1 C]: with x = [u; v], the first half is
// x1 = -(K + sigma C + sigma^2 M)^-1 (M v + (C + sigma M) u), the second u + sigma x1. The factorization
// is a dense LU, or at sigma = 0 for a K that is mostly zeros (the grouped columns of a fine mesh,
// RestStiffness.hpp: banded blocks and the joints' rows) a sparse one, with C sparse too.
class ShiftInverted {
 public:
  // `lu` factorizes K + sigma C + sigma^2 M (K itself at sigma = 0).
  ShiftInverted(const Eigen::MatrixXd& M, const Eigen::MatrixXd& C, double sigma, Eigen::PartialPivLU<Eigen::MatrixXd>&& lu)
      : M_(M), C_sigma_(C + sigma * M), lu_(std::move(lu)), sigma_(sigma) {}
  // sigma = 0 with K factorized sparse.
  ShiftInverted(const Eigen::MatrixXd& M, const Eigen::MatrixXd& C, std::unique_ptr<SparseLu> sparse)
      : M_(M), C_sparse_(C.sparseView(0.0, 0.0)), sparse_(std::move(sparse)), sigma_(0.0) {}
  void apply(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
    const Eigen::Index n = M_.rows();
    Eigen::VectorXd rhs = M_ * x.tail(n);
    if (sparse_) {
      rhs += C_sparse_ * x.head(n);
      out.head(n) = -sparse_->solve(rhs);
    } else {
      rhs.noalias() += C_sigma_ * x.head(n);
      out.head(n) = -lu_.solve(rhs);
    }
    out.tail(n) = x.head(n) + sigma_ * out.head(n);
  }

 private:
  const Eigen::MatrixXd& M_;
  Eigen::MatrixXd C_sigma_;
  Eigen::SparseMatrix<double> C_sparse_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  std::unique_ptr<SparseLu> sparse_;
  double sigma_;
};

// A sparse LU of K when K is large and mostly zeros (at most kSparseShare of its entries), regular
// enough for sigma = 0 (an estimate of its reciprocal condition number above `rcond_limit`); else null.
constexpr int kSparseFrom = 200;
constexpr double kSparseShare = 0.1;
std::unique_ptr<SparseLu> sparseFactorization(const Eigen::MatrixXd& K, double rcond_limit) {
  const Eigen::Index n = K.rows();
  if (n < kSparseFrom || static_cast<double>((K.array() != 0.0).count()) > kSparseShare * static_cast<double>(n * n))
    return nullptr;
  const Eigen::SparseMatrix<double> S = K.sparseView(0.0, 0.0);
  auto lu = std::make_unique<SparseLu>();
  lu->analyzePattern(S);
  lu->factorize(S);
  if (lu->info() != Eigen::Success) return nullptr;
  // |K^-1| by a few steps of the power iteration on K^-1 from a generic start: a near null vector (a
  // rigid-body mode) dominates it at once.
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = 1.0 + 0.5 * std::sin(0.3 + 1.7 * static_cast<double>(i));
  double inverse_norm = 0.0;
  for (int it = 0; it < 4; ++it) {
    v.normalize();
    v = lu->solve(v);
    if (!v.allFinite()) return nullptr;
    inverse_norm = v.norm();
  }
  const double norm = K.cwiseAbs().rowwise().sum().maxCoeff();
  if (!(1.0 / (norm * inverse_norm) >= rcond_limit)) return nullptr;
  return lu;
}

// w minus its projection on the first k columns of V, twice (classical Gram-Schmidt, repeated).
Eigen::VectorXd orthogonalized(const Eigen::MatrixXd& V, int k, Eigen::VectorXd w, Eigen::VectorXd* h) {
  if (h) h->setZero(k);
  for (int pass = 0; pass < 2; ++pass) {
    const Eigen::VectorXd c = V.leftCols(k).transpose() * w;
    w.noalias() -= V.leftCols(k) * c;
    if (h) *h += c;
  }
  return w;
}

}  // namespace

StateEigenpairs eigenvaluesNearZero(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& C, int modes,
                                    const std::atomic<bool>* cancel) {
  StateEigenpairs out;
  const int n = static_cast<int>(M.rows()), N = 2 * n;
  const double norm_m = M.cwiseAbs().rowwise().sum().maxCoeff();
  const double norm_k = K.cwiseAbs().rowwise().sum().maxCoeff();
  const double norm_c = C.cwiseAbs().rowwise().sum().maxCoeff();
  double omega = std::max(std::sqrt(norm_k / norm_m), norm_c / norm_m);
  if (!(omega > 0.0) || !std::isfinite(omega)) omega = 1.0;
  auto stopped = [&] {
    if (!cancel || !cancel->load(std::memory_order_relaxed)) return false;
    out.cancelled = true;
    out.error = "cancelled";
    return true;
  };
  // At zero, unless K is singular (rigid-body modes): then just off it, far below any vibration a
  // zero test would let pass. A shift among the modes would crowd the lowest ones together, and one
  // among the overdamped decays of a fine mesh (-1/beta of Rayleigh damping) would bury them.
  // Each dense factorization (tenths of a second for a thousand coordinates) is followed by a look at
  // `cancel`; at sigma = 0 the factorization of K serves the iteration.
  constexpr double kSingular = 1e-13;  // rcond of K below which it is taken as singular
  double sigma = 0.0;
  std::optional<ShiftInverted> shifted;
  if (std::unique_ptr<SparseLu> sparse = sparseFactorization(K, kSingular)) {
    shifted.emplace(M, C, std::move(sparse));
  } else {
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(K);
    if (stopped()) return out;
    if (lu.rcond() < kSingular) {
      sigma = -1e-6 * omega;
      lu.compute(K + sigma * C + sigma * sigma * M);
      if (stopped()) return out;
    }
    shifted.emplace(M, C, sigma, std::move(lu));
  }
  const ShiftInverted& op = *shifted;

  Eigen::MatrixXd V(N, 1), H = Eigen::MatrixXd::Zero(1, 0);
  Eigen::VectorXd start(N);
  for (int i = 0; i < N; ++i) start(i) = 1.0 + 0.5 * std::sin(1.0 + i);  // generic, and the same every time
  V.col(0) = start.normalized();
  int m = 0, target = std::min(N, std::max(2 * modes + 40, 80));
  // Rayleigh damping sends the high modes of a fine mesh to overdamped decays that crowd at -1/beta
  // (hundreds of eigenvalues at one point): modes beyond that cluster would take a Krylov space of
  // nearly every coordinate and its dense eigenproblem, minutes for 1 200 coordinates. The space stops
  // growing here; the modes below the cluster have converged by then.
  const int limit = std::min(N, std::max(6 * modes + 120, 300));
  Eigen::VectorXd w(N), h;
  while (true) {
    if (target > V.cols() - 1) {
      V.conservativeResize(N, target + 1);
      H.conservativeResizeLike(Eigen::MatrixXd::Zero(target + 1, target));
    }
    for (; m < target; ++m) {
      if (stopped()) return out;
      op.apply(V.col(m), w);
      if (!w.allFinite()) {
        out.error = "the shifted equations K + sigma C + sigma^2 M are singular near zero";
        return out;
      }
      const double size = w.norm();
      w = orthogonalized(V, m + 1, w, &h);
      H.col(m).head(m + 1) = h;
      const double length = w.norm();
      if (m + 1 < N && length <= 1e-12 * size) {
        // An invariant subspace: carry on from a new direction (H(m + 1, m) stays zero).
        Eigen::VectorXd fresh(N);
        for (int i = 0; i < N; ++i) fresh(i) = std::cos(0.7 * (i + 1) * (m + 2));
        w = orthogonalized(V, m + 1, fresh, nullptr);
        V.col(m + 1) = w.normalized();
        continue;
      }
      H(m + 1, m) = m + 1 < N ? length : 0.0;
      if (m + 1 < N) V.col(m + 1) = w / length;
    }
    const Eigen::EigenSolver<Eigen::MatrixXd> ritz(H.topLeftCorner(m, m));
    if (ritz.info() != Eigen::Success) {
      out.error = "the eigenvalue problem did not converge";
      return out;
    }
    const Eigen::VectorXcd theta = ritz.eigenvalues();
    const Eigen::MatrixXcd Y = ritz.eigenvectors();  // assembled on each call: once per restart
    const double beta = m < N ? std::abs(H(m, m - 1)) : 0.0;
    std::vector<int> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(theta(a)) > std::abs(theta(b)); });
    // The eigenvalues within the disk |lambda - sigma| <= radius have all converged.
    double radius = 0.0;
    std::size_t converged = 0;
    for (; converged < order.size(); ++converged) {
      const int i = order[converged];
      const double residual = beta * std::abs(Y(m - 1, i));
      if (!(residual <= 1e-10 * std::abs(theta(i)))) break;
      radius = 1.0 / std::abs(theta(i));
    }
    // Those with |lambda| <= radius - |sigma| are every eigenvalue that near zero; the largest of them
    // is the scale of the zero and stability tests.
    std::vector<int> kept;
    out.scale = 1e-12;
    for (std::size_t k = 0; k < converged; ++k) {
      const int i = order[k];
      const std::complex<double> lambda = sigma + 1.0 / theta(i);
      if (m < N && std::abs(lambda) > radius - std::abs(sigma)) continue;
      kept.push_back(i);
      out.scale = std::max(out.scale, std::abs(lambda));
    }
    int found = 0;
    for (int i : kept)
      if (eigenvalueKind(sigma + 1.0 / theta(i), out.scale) == EigenvalueKind::Mode) ++found;
    if (found >= modes || m == N || m >= limit) {
      if (found < modes && m < N)
        out.note = "only the lowest " + std::to_string(found) + " of the " + std::to_string(modes) +
                   " modes asked were found: above |lambda| = " + formatShort(radius - std::abs(sigma), 3) +
                   " rad/s the eigenvalues crowd (the overdamped decays of the damping), which a Krylov space of " +
                   std::to_string(m) + " vectors does not separate";
      out.values.resize(static_cast<int>(kept.size()));
      out.shapes.resize(n, static_cast<int>(kept.size()));
      for (std::size_t k = 0; k < kept.size(); ++k) {
        const int i = kept[k];
        out.values(static_cast<int>(k)) = sigma + 1.0 / theta(i);
        const Eigen::VectorXcd s = Y.col(i);
        out.shapes.col(static_cast<int>(k)) = V.topLeftCorner(n, m).cast<std::complex<double>>() * s;
      }
      return out;
    }
    target = std::min(limit, m + std::max(40, m / 2));
  }
}

}  // namespace flexarm
