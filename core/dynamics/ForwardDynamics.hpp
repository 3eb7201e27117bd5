#pragma once
// Forward dynamics with prescribed (motion-driven) coordinates eliminated:
//   M_ff qdd_f = Q_f - b_f,   b = bias(q, qd, [0; qdd_p]),   Q = drive efforts + internal forces,
// where f are the free coordinates and p the prescribed ones (the joint coordinate of a
// prescribed rigid joint, the motor coordinate of a prescribed flexible joint).
// Rigid systems use the recursive algorithms (CRBA, RNEA); systems with flexible links or joints
// use the equations of motion mass element by mass element (EquationsOfMotion.hpp).
// The ODE state is y = [q_f; qd_f]; prescribed coordinates follow their law in time.
#include <string>
#include <vector>

#include "base/SymmetricSolve.hpp"
#include "dynamics/TangentStiffness.hpp"
#include "dynamics/DynamicsData.hpp"
#include "dynamics/Energy.hpp"

namespace flexarm {

class ForwardDynamics {
 public:
  // Eliminated: prescribed coordinates follow their law (the ODE form above).
  // Constrained: every coordinate is free, and the drive of a prescribed joint applies no effort:
  // the constrained solvers enforce its motion with a Lagrange multiplier (ConstraintSet) and
  // report the multiplier's effort through setEffort().
  enum class Prescribed { Eliminated, Constrained };
  explicit ForwardDynamics(const MultibodySystem& sys, Prescribed prescribed = Prescribed::Eliminated);

  const MultibodySystem& system() const { return sys_; }
  int stateSize() const { return 2 * static_cast<int>(free_.size()); }
  const std::vector<int>& freeCoordinates() const { return free_; }
  const std::vector<int>& prescribedCoordinates() const { return prescribed_; }

  // Initial ODE state from full initial coordinates and rates (free coordinates only).
  void initialState(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, double* y) const;

  // Fills q, qd (and the prescribed part of qdd) at time t from the ODE state. No allocation.
  void assemble(double t, const double* y);

  // ydot = f(t, y). Returns false when the mass matrix is not positive definite or a value is not
  // finite; error() then says what. No heap allocation below SymmetricSolve::kSparseFrom free
  // coordinates (Eigen's sparse Cholesky allocates its work arrays in each factorization).
  bool evaluate(double t, const double* y, double* ydot);
  // evaluate() for an integrator's right-hand side, without building a large dense mass matrix: where
  // evaluate() would refine the accelerations (kRefineMassFrom) and the equations can be evaluated
  // with the accelerations known (hasMassFreeResidual()), each refinement's residual f - M a comes
  // from those equations (one pass linear in the mesh, instead of the O(n^2) build of M and M a), to
  // the same backward error; a prescribed joint's effort from the last pass. Falls back to evaluate()
  // when the refinement does not contract. Afterwards massMatrix() is not that of y (solveMass()
  // builds it).
  bool evaluateWithoutMass(double t, const double* y, double* ydot);

  // The terms of M(q) qdd = Q - b(q, qd) at state y without solving: massMatrix() and
  // residualForce() of the free coordinates. For the constrained solvers. No heap allocation.
  void evaluateTerms(double t, const double* y);
  // Where massMatrix() may hold non-zeros (in its own numbering), from the last evaluation with it;
  // nullptr when that is not known (then anywhere). Valid until the next evaluation.
  const std::vector<MatrixRegion>* massRegions();
  // A view, not a copy, when the free coordinates are consecutive (every one free, or the prescribed
  // ones all before or after them, as a driven base joint): the block of the whole mass matrix.
  Eigen::Ref<const Eigen::MatrixXd> massMatrix() const {
    if (!consecutive_) return M_ff_;
    const int nf = static_cast<int>(free_.size());
    return data_.M.block(nf > 0 ? free_.front() : 0, nf > 0 ? free_.front() : 0, nf, nf);
  }
  // r = M_ff a - (Q_f - b_f) at state y for the free accelerations a, without the mass matrix: the
  // equations evaluated with every acceleration known (the inverse dynamics, linear in the elements of
  // a link). Only where that is the same equation: eliminated prescribed coordinates, and no
  // `geometric` coupling (whose axial force is that of the motion without the free accelerations).
  // Afterwards massMatrix() is not that of y. No heap allocation.
  bool hasMassFreeResidual() const;
  // massFreeResidual() equals M a - f in either mode unless the geometric axial force would follow the
  // unknown accelerations (`geometric` coupling takes that of the motion without them).
  bool residualWithoutMass() const;
  void massFreeResidual(double t, const double* y, const double* a, double* r);
  // What a recorded row needs at state y when an integrator already knows the free accelerations a
  // (generalized-alpha's, to its Newton tolerance): the drive efforts (a prescribed joint's from the
  // equations with every acceleration known), data().frames and energies(), from one pass of the
  // equations linear in the mesh (the kinetic energy from its mass elements and stations), without the
  // mass matrix or its solve: less than half of evaluate() on the 42 coordinates of Moolam et al.'s spatial RRR arm. Where no
  // prescribed joint's effort reads the forces (none, or only prescribed motors of flexible joints) the
  // pass is compositeKinematics(): no forces or Jacobians (data().tau then holds only the rotors'
  // inertia terms). Where
  // hasMassFreeResidual() and for a flexible system with a free coordinate (outputsFromAccelerations()).
  // Returns false when a value is not finite.
  bool evaluateWithAccelerations(double t, const double* y, const double* a);
  bool outputsFromAccelerations() const { return !rigid_ && !free_.empty() && hasMassFreeResidual(); }
  // Constrained solvers: the accelerations they computed, and the effort a prescribed joint's drive
  // supplies (from its multiplier), for recording.
  void setAccelerations(const Eigen::VectorXd& qdd) { qdd_ = qdd; }
  void setEffort(int joint, double effort) { effort_(joint) = effort; }
  // evaluateTerms() then builds M without the running-integral terms of `high` coupling
  // (DynamicsData::mass_without_running_terms): for an iteration matrix only.
  void setMassWithoutRunningTerms(bool on) { data_.mass_without_running_terms = on; }
  // Frozen in time, for statics: the prescribed coordinates stand still at their laws' values (no rate,
  // no acceleration), so that residualForce() at zero free rates is the static force balance.
  void setFrozen(bool on) { frozen_ = on; }

  // Results of the last evaluate(): full coordinates, rates, accelerations, and per joint the
  // drive effort (applied by the drive for a free joint, needed to follow the motion for a
  // prescribed one; on the motor side for a flexible joint).
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qd() const { return qd_; }
  const Eigen::VectorXd& qdd() const { return qdd_; }
  const Eigen::VectorXd& effort() const { return effort_; }
  // Generalized force balance of the free coordinates at zero free acceleration, Q_f - b_f.
  const Eigen::VectorXd& residualForce() const { return force_f_; }
  DynamicsData& data() { return data_; }
  // The energies at the state of the last evaluation, and data().frames at that state: a flexible
  // system's from that evaluation's pass of the equations (DynamicsData::kinetic and the potentials; no
  // second evaluation); a rigid system's from the recursive kinematics (systemEnergies).
  Energies energies();
  // The tangent stiffness and damping of the free coordinates (TangentStiffness.hpp) at the state of
  // the last evaluate() or evaluateTerms(), for the implicit integrators' iteration matrix.
  void tangent(Eigen::MatrixXd& K_ff, Eigen::MatrixXd& C_ff);
  // The same stored sparse: built from the terms' entries, without any dense n x n pass.
  void tangent(Eigen::SparseMatrix<double>& K_ff, Eigen::SparseMatrix<double>& C_ff);
  // Solves M_ff x = b in place with a factorization of the last evaluate()'s mass matrix (made now
  // when evaluate() refined the accelerations with an earlier one, see kRefineMassFrom).
  void solveMass(Eigen::Ref<Eigen::MatrixXd> b);
  // From this many free coordinates, while the mass matrix is factorized densely (n^3 / 3),
  // evaluate() first solves for the accelerations with the factorization of an earlier state and
  // refines them (x += L^-T L^-1 (f - M x), each n^2): accepted when their backward error
  // |f - M x| / (|M| |x| + |f|) is within 4 times that of the direct solve at the factorized state,
  // else M is factorized anew. M changes little from one evaluation to the next.
  static constexpr int kRefineMassFrom = 100;
  // Evaluations whose accelerations came from refinement, and factorizations made (for the tests).
  long refinedSolves() const { return refined_solves_; }
  long massFactorizations() const { return mass_factorizations_; }
  std::string error() const;

 private:
  enum class Failure { None, NotPositiveDefinite, NonFinite };
  void computeTerms(double t);  // M_ff_, force_f_ = rhs_f_, efforts of the free drives
  // applied_ = internal forces + the free drives' efforts (effort_) + the loads' forces (when the last
  // pass computed the frames' Jacobians: `frames_with_forces`; data_.external is left as it was otherwise).
  void applyForces(double t, bool frames_with_forces);
  bool factorMass();  // mass_solve_ of massMatrix(), false when not positive definite
  // rhs_f_ <- massMatrix()^-1 rhs_f_: refined with an earlier factorization, or factorized anew.
  bool solveAccelerations();
  bool refineAccelerations();  // true when the refinement met its backward error
  // qdd_ and ydot from rhs_f_ (the free accelerations); false with failure_ set when one is not finite.
  bool storeAccelerations(double t, double* ydot);
  // A prescribed joint's effort (M qdd + b - internal at its coordinate) from data_.tau of a pass of the
  // equations with every acceleration known, and data_.internal.
  void prescribedEffortsFromPass();
  // After such a pass without M at time t, with the free accelerations in refined_: rhs_f_ takes them,
  // M and its factorization are marked as of an earlier state (solveMass() rebuilds them at t), and a
  // prescribed joint's effort comes from the pass.
  void keepPassWithoutMass(double t);
  static constexpr int kMaxRefinements = 6;
  const MultibodySystem& sys_;
  Prescribed mode_;
  bool rigid_;
  bool frozen_ = false;
  // A prescribed joint without joint flexibility (its effort reads the forces of a pass). One that
  // drives a motor does not: the motor's equation holds only its rotor's inertia and the joint spring.
  bool effort_from_forces_ = false;
  DynamicsData data_;
  std::vector<int> free_, prescribed_;
  std::vector<int> free_number_;  // per coordinate: its place among the free ones, or -1
  Eigen::VectorXd q_, qd_, qdd_, effort_, rhs_f_, force_f_, applied_;
  bool mass_stale_ = false;                 // a pass without M (keepPassWithoutMass) left M of an earlier state
  double evaluated_t_ = 0.0;                // time of the last evaluation
  bool consecutive_ = false;                // the free coordinates are consecutive: massMatrix() is a block of data_.M
  Eigen::MatrixXd M_ff_;                    // the free coordinates' mass matrix when they are not consecutive
  MatrixEntries K_entries_, C_entries_;     // work memory of the sparse tangent()
  Eigen::MatrixXd window_;                  // and of its geometric stiffness
  std::vector<MatrixRegion> free_regions_;  // where massMatrix() may hold non-zeros, in its numbering
  SymmetricSolve mass_solve_;               // Cholesky of massMatrix()
  bool mass_factor_current_ = false;        // mass_solve_ is of the last evaluation's massMatrix()
  bool mass_factor_refinable_ = false;      // mass_solve_ is dense, of kRefineMassFrom or more coordinates
  double factored_backward_error_ = 0.0;    // of the direct solve at the factorized state
  double factored_norm_ = 0.0;              // |M|_inf there
  Eigen::VectorXd refined_, correction_;    // work memory of refineAccelerations()
  long refined_solves_ = 0, mass_factorizations_ = 0;
  Failure failure_ = Failure::None;
  double failure_t_ = 0.0;
};

}  // namespace flexarm
