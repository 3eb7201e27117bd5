#pragma once
// The generalized forces Q of the equations of motion  M(q) qdd + b(q, qd) = Q, term by term, each with
// one small contract (as Drake's ForceElement: CalcAndAddForceContribution, CalcPotentialEnergy; or
// Exudyn's objects: ComputeODE2LHS, ComputeJacobianODE2_ODE2): a term adds its generalized force,
// says its potential energy where it has one, and adds its tangent stiffness K_t = -dQ/dq and damping
// C_t = -dQ/dqd, which the implicit integrators put in their iteration matrix M + c_v C_t + c_q K_t.
//
//   term                    file                       force                                potential
//   gravity                 Gravity.cpp                the weight m g of every mass element  -sum m g . r
//   structural elasticity   StructuralElasticity.cpp   -K e - C ed of every flexible link    1/2 e^T K e
//   joint flexibility       JointFlexibility.cpp       the spring and damper of a geared     1/2 k torsion^2
//                                                      flexible joint, on link and motor
//   joint damping           JointFlexibility.cpp       -c qd of each joint's viscous damper  none
//   geometric stiffening    GeometricStiffness.cpp     `geometric` coupling's axial-force    1/2 int P (v'^2 + w'^2)
//                                                      term (Pan et al. 1990 eq. (16))
//   drives                  Drives.cpp                 the free drives' efforts (laws, PD)   none (time-dependent)
//
// The left-hand side is the inertia: M and the bias b (Coriolis, centrifugal), one pass of the equations
// of motion over the mass elements (EquationsOfMotion.hpp) with the kinetic energy;
// its tangent's leading part, the dynamic stiffening of `high` coupling, is addInertiaTangent()
// (GeometricStiffness.cpp). The loads on links (ExternalLoads.hpp) need the frames' Jacobians of that
// pass and go into DynamicsData::external. DynamicsData keeps each term's force in its own vector
// (ForceTerm::of) and their sum in `internal` (all but the drives). The terms read the frames of that
// pass (poses, Jacobians, the links' first moments, the geometric term's axial force).
#include <vector>

#include "dynamics/TangentStiffness.hpp"

namespace flexarm {

// The state a term's force is taken at: the full coordinates and rates at time t; `frozen` for statics
// (a drive's set-point stands still at its value at t).
struct TermState {
  double t = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& qd;
  bool frozen = false;
};

class ForceTerm {
 public:
  virtual ~ForceTerm() = default;
  virtual const char* name() const = 0;
  // The vector of DynamicsData that holds this term's force.
  virtual Eigen::VectorXd& of(DynamicsData& data) const = 0;
  // The same, to read.
  const Eigen::VectorXd& of(const DynamicsData& data) const { return of(const_cast<DynamicsData&>(data)); }
  // Adds the term's generalized force at the state to `force` (nq) and returns its potential energy [J]
  // (0 for a term without one). May read the frames of a pass of the equations at the same state
  // (data.frames: the geometric term's axial force). No heap allocation.
  virtual double addForce(const MultibodySystem& sys, const DynamicsData& data, const TermState& state,
                          Eigen::Ref<Eigen::VectorXd> force) const = 0;
  // Adds K_t = -dQ/dq and C_t = -dQ/dqd of its force to `sink`, at the state of data's last pass. A term
  // whose force depends on the motion of other links through that pass (the geometric term's axial
  // force) gives the derivative with the pass held.
  virtual void addTangent(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink) const = 0;
};

// Every term, in the order their forces are summed.
const std::vector<const ForceTerm*>& forceTerms();
const ForceTerm& gravity();
const ForceTerm& structuralElasticity();
const ForceTerm& jointFlexibility();
const ForceTerm& jointDamping();
const ForceTerm& geometricStiffening();
const ForceTerm& drives();

// The leading part of the inertia's tangent stiffness: for `high` coupling, the dynamic stiffening of a
// spinning, accelerated or hanging link, the geometric stiffness of the axial force of the rigid motion
// and the weight (the foreshortening terms' derivative, GeometricStiffness.hpp; the gravity term's
// stiffening is this axial force's share); nothing for the other orders. The rest of the inertial forces'
// derivatives (M(q) qdd, Coriolis and centrifugal forces of the rigid motion, the weight's torques) is
// left out: small against M / (beta h^2) at the steps the integrators take, and their Newton iteration
// converges on the exact residual anyway.
void addInertiaTangent(const MultibodySystem& sys, const DynamicsData& data, TangentSink& sink);

// The effort body b's drive applies at the state (on its driven coordinate: the motor of a flexible
// joint), for a drive that is not a prescribed motion: the drives term's force at that coordinate.
double driveEffort(const Body& b, const TermState& state);

// The internal terms' forces (all but the drives) at (q, qd), each into its own vector of `data` and their
// sum into data.internal, gravity's potential into data.gravity_potential and the others' sum into
// data.elastic_potential. Needs the frames of a pass of the equations at the same state (compositeEquations,
// or rnea for a rigid system). No heap allocation.
void internalForces(const MultibodySystem& sys, DynamicsData& data, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

}  // namespace flexarm
