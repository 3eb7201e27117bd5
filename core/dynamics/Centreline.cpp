#include "dynamics/Centreline.hpp"

#include <cmath>

#include "dynamics/EquationsOfMotion.hpp"

namespace flexarm {

std::vector<std::vector<Eigen::Vector3d>> deformedCentrelines(const MultibodySystem& sys, DynamicsData& data,
                                                              const Eigen::VectorXd& q, int samples) {
  samples = std::max(samples, 2);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(sys.nq);
  compositeEquations(sys, data, q, zero, zero, false);  // body frames of the deformed chain
  const bool high = sys.coupling == CouplingOrder::High;
  std::vector<std::vector<Eigen::Vector3d>> lines(sys.bodies.size());
  ShapeRows rows;
  std::vector<double> gx, gw;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    const Eigen::Isometry3d& X = data.frames[i].X_world_body;
    for (int k = 0; k < samples; ++k) {
      const double x = b.length * k / (samples - 1);
      if (!b.isFlexible()) {
        lines[i].push_back(X * Eigen::Vector3d(x, 0.0, 0.0));
        continue;
      }
      const FlexibleBody& fb = *b.flexible;
      const auto e = q.segment(b.e_index, fb.m);
      double s = 0.0;
      if (high) {  // s(x) = 1/2 int_0^x (v'^2 + w'^2), Gauss per element (or cell) piece
        for (const FlexibleBody::Interval& iv : fb.intervals) {
          if (iv.a >= x) break;
          gaussLegendre(6, iv.a, std::min(iv.b, x), gx, gw);
          for (std::size_t g = 0; g < gx.size(); ++g) {
            fb.evaluate(gx[g], rows);
            const double v1 = rows.v1.dot(e), w1 = rows.w1.dot(e);
            s += 0.5 * gw[g] * (v1 * v1 + w1 * w1);
          }
        }
      }
      fb.evaluate(x, rows);
      lines[i].push_back(X * Eigen::Vector3d(x + rows.u.dot(e) - s, rows.v.dot(e), rows.w.dot(e)));
    }
  }
  return lines;
}

std::vector<std::vector<double>> sampleLinkField(const MultibodySystem& sys, const Eigen::VectorXd& q, int samples,
                                                 LinkField field) {
  samples = std::max(samples, 2);
  std::vector<std::vector<double>> out(sys.bodies.size());
  ShapeRows rows;
  for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
    const Body& b = sys.bodies[i];
    out[i].assign(static_cast<std::size_t>(samples), 0.0);
    if (!b.isFlexible()) continue;
    const auto e = q.segment(b.e_index, b.e_count);
    for (int k = 0; k < samples; ++k) {
      const FlexibleBody& fb = *b.flexible;
      fb.evaluate(b.length * k / (samples - 1), rows);
      const double kv = rows.v2.dot(e), kw = rows.w2.dot(e);
      double value = std::hypot(kv, kw);
      if (field == LinkField::Strain)
        value = std::abs(rows.u1.dot(e)) +
                (fb.round_section ? fb.fibre_y * value : std::abs(kv) * fb.fibre_y + std::abs(kw) * fb.fibre_z);
      out[i][static_cast<std::size_t>(k)] = value;
    }
  }
  return out;
}

}  // namespace flexarm
