#include "dynamics/SectionPoint.hpp"

#include <algorithm>

namespace flexarm {

SectionPoint SectionPoint::build(const FlexibleBody& fb, double x_asked) {
  SectionPoint sp;
  sp.x = std::clamp(x_asked, 0.0, fb.length);
  fb.evaluate(sp.x, sp.rows);
  const int m = fb.m;
  sp.rotation.resize(3, m);
  sp.rotation.row(0) = sp.rows.phi;
  sp.rotation.row(1) = -sp.rows.w1;
  sp.rotation.row(2) = sp.rows.v1;
  int first = m, last = -1;
  for (int c = 0; c < m; ++c)
    if (!sp.rotation.col(c).isZero(0.0)) first = std::min(first, c), last = c;
  sp.rotation_first = last >= 0 ? first : 0;
  sp.rotation_count = last >= 0 ? last - first + 1 : 0;
  ShapeRows r;
  std::vector<double> xi, wi;
  for (const FlexibleBody::Interval& iv : fb.intervals) {
    if (!(iv.a < sp.x)) break;
    gaussLegendre(FlexibleBody::kSlopePoints, iv.a, std::min(iv.b, sp.x), xi, wi);
    SlopeWindow sw;
    sw.first = iv.first;
    sw.weight.resize(static_cast<int>(xi.size()));
    sw.v1.resize(static_cast<int>(xi.size()), iv.count);
    sw.w1.resize(static_cast<int>(xi.size()), iv.count);
    for (std::size_t k = 0; k < xi.size(); ++k) {
      fb.evaluate(xi[k], r);
      const int row = static_cast<int>(k);
      sw.weight(row) = wi[k];
      sw.v1.row(row) = r.v1.segment(iv.first, iv.count);
      sw.w1.row(row) = r.w1.segment(iv.first, iv.count);
    }
    sp.slopes.push_back(std::move(sw));
  }
  return sp;
}

double SectionPoint::foreshortening(const Eigen::Ref<const Eigen::VectorXd>& e) const {
  double s = 0.0;
  for (const SlopeWindow& sw : slopes) {
    const auto ew = e.segment(sw.first, sw.v1.cols());
    for (int k = 0; k < sw.weight.size(); ++k) {
      const double v1 = sw.v1.row(k).dot(ew), w1 = sw.w1.row(k).dot(ew);
      s += 0.5 * sw.weight(k) * (v1 * v1 + w1 * w1);
    }
  }
  return s;
}

Eigen::Isometry3d SectionPoint::pose(const Eigen::Ref<const Eigen::VectorXd>& e, bool high) const {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.translation() = Eigen::Vector3d(x + rows.u.dot(e) - (high ? foreshortening(e) : 0.0), rows.v.dot(e), rows.w.dot(e));
  X.linear() = (Eigen::AngleAxisd(rows.v1.dot(e), Eigen::Vector3d::UnitZ()) *
                Eigen::AngleAxisd(-rows.w1.dot(e), Eigen::Vector3d::UnitY()) *
                Eigen::AngleAxisd(rows.phi.dot(e), Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  return X;
}

void SectionPoint::foreshortening(const Eigen::Ref<const Eigen::VectorXd>& e, const Eigen::Ref<const Eigen::VectorXd>& ed,
                                  double& s, double& sdd, Eigen::Ref<Eigen::VectorXd> g) const {
  s = sdd = 0.0;
  g.setZero();
  for (const SlopeWindow& sw : slopes) {
    const int n = static_cast<int>(sw.v1.cols());
    const auto ew = e.segment(sw.first, n), edw = ed.segment(sw.first, n);
    auto gw = g.segment(sw.first, n);
    for (int k = 0; k < sw.weight.size(); ++k) {
      const double w = sw.weight(k);
      const double v1 = sw.v1.row(k).dot(ew), w1 = sw.w1.row(k).dot(ew);
      const double v1d = sw.v1.row(k).dot(edw), w1d = sw.w1.row(k).dot(edw);
      s += 0.5 * w * (v1 * v1 + w1 * w1);
      sdd += w * (v1d * v1d + w1d * w1d);
      gw.noalias() += (w * v1) * sw.v1.row(k).transpose() + (w * w1) * sw.w1.row(k).transpose();
    }
  }
}

void SectionPoint::addSlopeForce(double P, const Eigen::Ref<const Eigen::VectorXd>& e, Eigen::Ref<Eigen::VectorXd> out,
                                 double& potential) const {
  for (const SlopeWindow& sw : slopes) {
    const int n = static_cast<int>(sw.v1.cols());
    const auto ew = e.segment(sw.first, n);
    auto ow = out.segment(sw.first, n);
    for (int k = 0; k < sw.weight.size(); ++k) {
      const double c = P * sw.weight(k);
      const double v1 = sw.v1.row(k).dot(ew), w1 = sw.w1.row(k).dot(ew);
      ow.noalias() -= (c * v1) * sw.v1.row(k).transpose() + (c * w1) * sw.w1.row(k).transpose();
      potential += 0.5 * c * (v1 * v1 + w1 * w1);
    }
  }
}

}  // namespace flexarm
