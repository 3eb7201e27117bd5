#include "discretization/LinkBasis.hpp"

#include <cmath>
#include <stdexcept>

#include "base/Constants.hpp"

namespace flexarm {
namespace {

// ------------------------------------------------------------------ assumed modes
class AssumedModesBasis final : public LinkBasis {
 public:
  AssumedModesBasis(const LinkDiscretization& d, double L) : L_(L) {
    na_ = d.axial;
    nv_ = d.bending_y;
    nw_ = d.bending_z;
    nt_ = d.torsion;
    const int nb = std::max(nv_, nw_);
    for (int k = 1; k <= nb; ++k) {
      const double bl = clampedFreeBetaL(k);
      Bend b;
      b.beta = bl / L;
      const double e = std::exp(-bl), c = std::cos(bl), s = std::sin(bl);
      // sigma = (sinh bL - sin bL) / (cosh bL + cos bL), written without overflow.
      const double ch_plus_c = 0.5 * (1.0 + e * e) + c * e;  // (cosh bL + cos bL) e^{-bL}
      b.sigma = (0.5 * (1.0 - e * e) - s * e) / ch_plus_c;
      b.A = 0.5 * (e + c + s) / ch_plus_c;  // coefficient of e^{beta (x - L)}: (1 - sigma) e^{bL} / 2
      b.B = 0.5 * (1.0 + b.sigma);          // coefficient of e^{-beta x}
      bend_.push_back(b);
    }
  }
  int size() const override { return na_ + nv_ + nw_ + nt_; }

  void evaluate(double x, ShapeRows& r) const override {
    r.resize(size());
    int k = 0;
    for (int j = 1; j <= na_; ++j, ++k) {  // clamped-free rod: sin((2j-1) pi x / 2L)
      const double a = (2 * j - 1) * kPi / (2 * L_);
      r.u(k) = std::sin(a * x);
      r.u1(k) = a * std::cos(a * x);
    }
    for (int j = 0; j < nv_; ++j, ++k) bending(j, x, r.v(k), r.v1(k), r.v2(k));
    for (int j = 0; j < nw_; ++j, ++k) bending(j, x, r.w(k), r.w1(k), r.w2(k));
    for (int j = 1; j <= nt_; ++j, ++k) {
      const double a = (2 * j - 1) * kPi / (2 * L_);
      r.phi(k) = std::sin(a * x);
      r.phi1(k) = a * std::cos(a * x);
    }
  }

  std::vector<double> breakpoints() const override {
    const int highest = std::max({na_, nv_, nw_, nt_, 1});
    const int cells = std::max(4, 2 * highest);  // 6-point Gauss per cell: about 1e-10 for these smooth modes
    std::vector<double> b;
    for (int c = 0; c <= cells; ++c) b.push_back(L_ * c / cells);
    return b;
  }

  std::string coordinateName(int k) const override {
    if (k < na_) return "axial " + std::to_string(k + 1);
    k -= na_;
    if (k < nv_) return "bending_y " + std::to_string(k + 1);
    k -= nv_;
    if (k < nw_) return "bending_z " + std::to_string(k + 1);
    k -= nw_;
    return "torsion " + std::to_string(k + 1);
  }

 private:
  struct Bend {
    double beta, sigma, A, B;
  };
  // phi = cosh bx - cos bx - sigma (sinh bx - sin bx) = A e^{b(x-L)} + B e^{-bx} - cos bx + sigma sin bx
  void bending(int j, double x, double& f, double& f1, double& f2) const {
    const Bend& b = bend_[j];
    const double ep = b.A * std::exp(b.beta * (x - L_)), em = b.B * std::exp(-b.beta * x);
    const double c = std::cos(b.beta * x), s = std::sin(b.beta * x);
    f = ep + em - c + b.sigma * s;
    f1 = b.beta * (ep - em + s + b.sigma * c);
    f2 = b.beta * b.beta * (ep + em + c - b.sigma * s);
  }
  double L_;
  int na_, nv_, nw_, nt_;
  std::vector<Bend> bend_;
};

// ------------------------------------------------------------------ finite elements
class FiniteElementBasis final : public LinkBasis {
 public:
  FiniteElementBasis(const LinkDiscretization& d, double L) : planar_(d.planar), first_(d.planar && d.free_root ? 0 : 1) {
    nodes_.push_back(0.0);
    if (!d.nodes.empty()) {
      for (double x : d.nodes) nodes_.push_back(x);
      if (nodes_.back() < L * (1 - 1e-12)) nodes_.push_back(L);
    } else {
      for (int e = 1; e <= d.elements; ++e) nodes_.push_back(L * e / d.elements);
    }
  }
  int dofsPerNode() const { return planar_ ? 2 : 6; }
  int size() const override { return dofsPerNode() * (static_cast<int>(nodes_.size()) - first_); }

  // DOF offsets of nodes n >= first_ (node 0 is clamped unless the root is free): planar (v, v');
  // spatial (u, v, w, phi, v', w').
  int dof(int node, int local) const { return (node - first_) * dofsPerNode() + local; }

  void evaluate(double x, ShapeRows& r) const override {
    r.resize(size());
    const int ne = static_cast<int>(nodes_.size()) - 1;
    int e = 0;
    while (e < ne - 1 && x > nodes_[e + 1]) ++e;
    const double xa = nodes_[e], h = nodes_[e + 1] - xa;
    const double xi = std::min(1.0, std::max(0.0, (x - xa) / h));
    // Hermite cubics (value, d/dx, d2/dx2) for [q_a, q'_a, q_b, q'_b].
    const double H[4] = {1 - 3 * xi * xi + 2 * xi * xi * xi, h * (xi - 2 * xi * xi + xi * xi * xi),
                         3 * xi * xi - 2 * xi * xi * xi, h * (-xi * xi + xi * xi * xi)};
    const double H1[4] = {(-6 * xi + 6 * xi * xi) / h, 1 - 4 * xi + 3 * xi * xi, (6 * xi - 6 * xi * xi) / h,
                          -2 * xi + 3 * xi * xi};
    const double H2[4] = {(-6 + 12 * xi) / (h * h), (-4 + 6 * xi) / h, (6 - 12 * xi) / (h * h), (-2 + 6 * xi) / h};
    const double N[2] = {1 - xi, xi};
    const double N1[2] = {-1 / h, 1 / h};
    const int na = e, nb = e + 1;
    auto put = [&](Eigen::RowVectorXd& row, int node, int local, double value) {
      if (node >= first_) row(dof(node, local)) += value;
    };
    const int lv = planar_ ? 0 : 1, lv1 = planar_ ? 1 : 4;
    for (int k = 0; k < 2; ++k) {
      const int node = k == 0 ? na : nb;
      put(r.v, node, lv, H[2 * k]);
      put(r.v, node, lv1, H[2 * k + 1]);
      put(r.v1, node, lv, H1[2 * k]);
      put(r.v1, node, lv1, H1[2 * k + 1]);
      put(r.v2, node, lv, H2[2 * k]);
      put(r.v2, node, lv1, H2[2 * k + 1]);
      if (planar_) continue;
      put(r.w, node, 2, H[2 * k]);
      put(r.w, node, 5, H[2 * k + 1]);
      put(r.w1, node, 2, H1[2 * k]);
      put(r.w1, node, 5, H1[2 * k + 1]);
      put(r.w2, node, 2, H2[2 * k]);
      put(r.w2, node, 5, H2[2 * k + 1]);
      put(r.u, node, 0, N[k]);
      put(r.u1, node, 0, N1[k]);
      put(r.phi, node, 3, N[k]);
      put(r.phi1, node, 3, N1[k]);
    }
  }

  std::vector<double> breakpoints() const override { return nodes_; }

  std::string coordinateName(int k) const override {
    static const char* planar_names[] = {"v", "v'"};
    static const char* spatial_names[] = {"u", "v", "w", "phi", "v'", "w'"};
    const int node = k / dofsPerNode() + first_, local = k % dofsPerNode();
    return "node " + std::to_string(node) + " " + (planar_ ? planar_names[local] : spatial_names[local]);
  }

 private:
  bool planar_;
  int first_;  // first node with coordinates
  std::vector<double> nodes_;
};

// ------------------------------------------------------------------ modal reduction
class ReducedBasis final : public LinkBasis {
 public:
  ReducedBasis(std::unique_ptr<LinkBasis> full, Eigen::MatrixXd T) : full_(std::move(full)), T_(std::move(T)) {}
  int size() const override { return static_cast<int>(T_.cols()); }
  void evaluate(double x, ShapeRows& r) const override {
    thread_local ShapeRows f;
    full_->evaluate(x, f);
    r.u = f.u * T_;
    r.u1 = f.u1 * T_;
    r.v = f.v * T_;
    r.v1 = f.v1 * T_;
    r.v2 = f.v2 * T_;
    r.w = f.w * T_;
    r.w1 = f.w1 * T_;
    r.w2 = f.w2 * T_;
    r.phi = f.phi * T_;
    r.phi1 = f.phi1 * T_;
  }
  std::vector<double> breakpoints() const override { return full_->breakpoints(); }
  std::string coordinateName(int k) const override { return "mode " + std::to_string(k + 1); }

 private:
  std::unique_ptr<LinkBasis> full_;
  Eigen::MatrixXd T_;
};

}  // namespace

double clampedFreeBetaL(int k) {
  // Newton on f(b) = 1 + cos b cosh b, written as cos b + 1/cosh b = 0 to stay bounded.
  double b = (k == 1) ? 1.8751 : (k == 2) ? 4.6941 : (2 * k - 1) * kPi / 2;
  for (int it = 0; it < 50; ++it) {
    const double f = std::cos(b) + 1.0 / std::cosh(b);
    const double df = -std::sin(b) - std::tanh(b) / std::cosh(b);
    const double step = f / df;
    b -= step;
    if (std::abs(step) < 1e-15 * b) break;
  }
  return b;
}

std::unique_ptr<LinkBasis> makeLinkBasis(const FlexibleLink& link, double length) {
  if (link.discretization.kind == LinkDiscretization::Kind::AssumedModes)
    return std::make_unique<AssumedModesBasis>(link.discretization, length);
  return std::make_unique<FiniteElementBasis>(link.discretization, length);
}

std::unique_ptr<LinkBasis> makeReducedBasis(std::unique_ptr<LinkBasis> full, const Eigen::MatrixXd& T) {
  return std::make_unique<ReducedBasis>(std::move(full), T);
}

}  // namespace flexarm
