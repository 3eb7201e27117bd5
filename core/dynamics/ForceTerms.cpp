#include "dynamics/ForceTerms.hpp"

namespace flexarm {

const std::vector<const ForceTerm*>& forceTerms() {
  static const std::vector<const ForceTerm*> terms{&gravity(),      &structuralElasticity(), &jointFlexibility(),
                                                   &jointDamping(), &geometricStiffening(),  &drives()};
  return terms;
}

void internalForces(const MultibodySystem& sys, DynamicsData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  const TermState state{0.0, q, qd};
  d.internal.setZero();
  d.gravity_potential = 0.0;
  d.elastic_potential = 0.0;
  for (const ForceTerm* term : forceTerms()) {
    if (term == &drives()) continue;  // applied by the forward dynamics, which records each joint's effort
    Eigen::VectorXd& force = term->of(d);
    force.setZero();
    const double potential = term->addForce(sys, d, state, force);
    (term == &gravity() ? d.gravity_potential : d.elastic_potential) += potential;
    d.internal += force;
  }
}

}  // namespace flexarm
