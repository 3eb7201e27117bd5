// Gravity (ForceTerms.hpp): the weight m g of every mass element, applied where the element is.
//
// A mass element with mass m and first moment m c about the origin of a frame with world pose (R, p)
// weighs the wrench [m c x gamma; m gamma] about that origin, in the frame's axes, gamma = R^T g. Its
// generalized force is J^T of that wrench through the frame's Jacobian J (a body, a distal frame, a
// payload's section), and its potential -m g . (p + R c).
//
// The Gauss stations of a flexible link weigh together: the body frame carries the wrench of their
// total mass and first moment c = sum dm r, and the link's own elastic coordinates receive gamma . dc/de
// with dc/de = [Psi_u - c_f D e; Psi_v; Psi_w] summed as FlexibleBody::mass_shape, D = FlexibleBody::mass_slopes,
// c_f = 1 under `high` coupling (r_x = x + u - s(x)), 0 otherwise. The pass of the equations gives c
// and D e with the frames (BodyFrames::first_moment, foreshortening_moment), as it gives their poses.
//
// Tangent: the term reads the configuration from the pass, so with the pass held its force is
// constant. Its stiffening of a link under `high` coupling, the weight's axial force through the
// foreshortening, is the geometric stiffness of the axial force that the inertia's tangent takes with
// gravity in it (addInertiaTangent, GeometricStiffness.hpp): one axial force for the motion and the
// weight, as Pan et al. write it.
//
// A rigid system (the recursive algorithms, DynamicsData::composite_frames false) takes the bodies'
// weights up the tree with the motion transforms, as the recursive Newton-Euler algorithm takes its forces.
#include "dynamics/ForceTerms.hpp"

namespace flexarm {
namespace {

// The weight of mass m with first moment `moment` (m c) in a frame of world rotation R, about its origin.
Vector6d weight(const Eigen::Matrix3d& R, const Eigen::Vector3d& g, double m, const Eigen::Vector3d& moment) {
  const Eigen::Vector3d gamma = R.transpose() * g;
  Vector6d w;
  w.head<3>() = moment.cross(gamma);
  w.tail<3>() = m * gamma;
  return w;
}

class Gravity final : public ForceTerm {
 public:
  const char* name() const override { return "gravity"; }
  Eigen::VectorXd& of(DynamicsData& d) const override { return d.gravity_force; }

  double addForce(const MultibodySystem& sys, const DynamicsData& d, const TermState&,
                  Eigen::Ref<Eigen::VectorXd> force) const override {
    if (sys.gravity.isZero(0.0)) return 0.0;
    return d.composite_frames ? addComposite(sys, d, force) : addRecursive(sys, d, force);
  }

  void addTangent(const MultibodySystem&, const DynamicsData&, TangentSink&) const override {}

 private:
  static double addComposite(const MultibodySystem& sys, const DynamicsData& d, Eigen::Ref<Eigen::VectorXd> force) {
    const Eigen::Vector3d& g = sys.gravity;
    double potential = 0.0;
    // One mass element on a frame: its wrench through the frame's Jacobian (columns below p).
    auto element = [&](const Eigen::Isometry3d& X, const Eigen::MatrixXd& J, int p, double m, const Eigen::Vector3d& moment) {
      addProjectedForce(J, sys.jacobianColumns(p), weight(X.linear(), g, m, moment), force);
      potential -= g.dot(m * X.translation() + X.linear() * moment);
    };
    for (std::size_t i = 0; i < sys.bodies.size(); ++i) {
      const Body& b = sys.bodies[i];
      const BodyFrames& fr = d.frames[i];
      if (b.mass > 0.0) element(fr.X_world_body, fr.J_body, b.e_index, b.mass, b.mass * b.com);
      if (!b.isFlexible()) continue;
      const FlexibleBody& fb = *b.flexible;
      element(fr.X_world_body, fr.J_body, b.e_index, fb.station_mass, fr.first_moment);
      const Eigen::Vector3d gamma = fr.X_world_body.linear().transpose() * g;
      auto out = force.segment(b.e_index, fb.m);
      out.noalias() += fb.mass_shape.transpose() * gamma;
      if (sys.coupling == CouplingOrder::High)
        out.noalias() -= gamma.x() * fr.foreshortening_moment;  // the stations' foreshortening
      if (b.distal_mass > 0.0) element(fr.X_world_distal, fr.J_distal, b.end_index, b.distal_mass, b.distal_mass * b.distal_com);
      for (std::size_t k = 0; k < b.section_masses.size(); ++k) {
        const Body::SectionMass& sm = b.section_masses[k];
        element(fr.X_world_section[k], fr.J_section[k], b.end_index, sm.mass, sm.mass * sm.com);
      }
    }
    return potential;
  }

  // Rigid bodies: each body's weight in its frame, summed from the leaves to the root through the
  // motion transforms (X_up^T), projected on each joint's motion subspace.
  static double addRecursive(const MultibodySystem& sys, const DynamicsData& d, Eigen::Ref<Eigen::VectorXd> force) {
    const Eigen::Vector3d& g = sys.gravity;
    std::vector<Vector6d>& w = d.subtree_weight;
    const int n = static_cast<int>(sys.bodies.size());
    double potential = 0.0;
    for (int i = 0; i < n; ++i) {
      const Body& b = sys.bodies[static_cast<std::size_t>(i)];
      const Eigen::Isometry3d& X = d.X_world_body[static_cast<std::size_t>(i)];
      w[static_cast<std::size_t>(i)] = weight(X.linear(), g, b.mass, b.mass * b.com);
      potential -= b.mass * g.dot(X * b.com);
    }
    for (int i = n - 1; i >= 0; --i) {
      const Body& b = sys.bodies[static_cast<std::size_t>(i)];
      force(b.q_index) += b.S.dot(w[static_cast<std::size_t>(i)]);
      if (b.parent >= 0)
        w[static_cast<std::size_t>(b.parent)] += d.X_up[static_cast<std::size_t>(i)].transpose() * w[static_cast<std::size_t>(i)];
    }
    return potential;
  }
};

}  // namespace

const ForceTerm& gravity() {
  static const Gravity term;
  return term;
}

}  // namespace flexarm
