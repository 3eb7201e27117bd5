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

  // What an evaluation computes. Every evaluation runs the same stages (evaluate()):
  //   1. positions and velocities: the free ones from the ODE state y, the prescribed ones from their laws;
  //   2. accelerations known before the pass: the prescribed ones', and the free ones where given (a);
  //   3. one pass of the equations of motion: the frames' kinematics, the bias b, and M where asked;
  //   4. the forces Q, term by term (ForceTerms.hpp), the drives' efforts and the loads;
  //   5. what was asked for, below.
  enum class Output {
    // ydot = [qd_f; qdd_f], qdd_f = M_ff^-1 (Q_f - b_f): an ODE's right-hand side. Returns false when the
    // mass matrix is not positive definite or a value is not finite; error() says what. No heap
    // allocation below SymmetricSolve::kSparseFrom free coordinates (Eigen's sparse Cholesky allocates
    // its work arrays in each factorization).
    Accelerations,
    // M_ff and Q_f - b_f without solving (massMatrix(), residualForce()): the constrained solvers' and the
    // implicit integrators' matrices. No heap allocation.
    Terms,
    // r = M_ff a - (Q_f - b_f) for the free accelerations a, from a pass with every acceleration known
    // (the inverse dynamics, linear in the elements of a link), without M; that is the same equation
    // where abilities().exact_residual. Afterwards massMatrix() is not that of y. No heap allocation.
    Residual,
    // What a recorded row needs (drive efforts, data().frames, energies()) with the free accelerations a
    // known to the integrator's tolerance (generalized-alpha's), from one pass linear in the mesh without
    // M or its solve: less than half of Accelerations on the 42 coordinates of Moolam et al.'s spatial RRR
    // arm. Where no prescribed joint's effort reads the forces (none, or only prescribed motors of flexible
    // joints) the pass is compositeKinematics(): no forces or Jacobians (data().tau then holds only the
    // rotors' inertia terms). For flexible systems (abilities().row_from_accelerations). Returns false
    // when a value is not finite.
    Row,
  };
  struct Request {
    Output output = Output::Accelerations;
    double t = 0.0;
    const double* y = nullptr;  // the ODE state [q_f; qd_f]
    const double* a = nullptr;  // Residual, Row: the free accelerations
    double* out = nullptr;      // Accelerations: ydot (2 nf); Residual: r (nf)
    // Accelerations: where the mass matrix is large and dense (kRefineMassFrom) and abilities().mass_free_residual,
    // solve with the factorization of an earlier state and refine on the residual's passes (each linear
    // in the mesh, instead of the O(n^2) build of M and M a), to the same backward error; a prescribed
    // joint's effort from the last pass. Falls back to the plain solve when the refinement does not
    // contract. Afterwards massMatrix() is not that of y (solveMass() builds it).
    bool reuse_mass = false;

    static Request accelerations(double t, const double* y, double* ydot, bool reuse_mass = false) {
      return {Output::Accelerations, t, y, nullptr, ydot, reuse_mass};
    }
    static Request terms(double t, const double* y) { return {Output::Terms, t, y, nullptr, nullptr, false}; }
    static Request residual(double t, const double* y, const double* a, double* r) {
      return {Output::Residual, t, y, a, r, false};
    }
    static Request row(double t, const double* y, const double* a) { return {Output::Row, t, y, a, nullptr, false}; }
  };
  bool evaluate(const Request& request);

  // What the evaluations of this system can give.
  struct Abilities {
    // Output::Residual is M a - (Q - b) exactly: not under `geometric` coupling, whose axial force is
    // that of the motion without the free accelerations.
    bool exact_residual = false;
    // ... and the prescribed coordinates are eliminated: an integrator may take Residual for M a - f.
    bool mass_free_residual = false;
    // Output::Row serves a recorded row: a flexible system with a free coordinate and mass_free_residual.
    bool row_from_accelerations = false;
  };
  const Abilities& abilities() const { return abilities_; }

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
  // Constrained solvers: the accelerations they computed, and the effort a prescribed joint's drive
  // supplies (from its multiplier), for recording.
  void setAccelerations(const Eigen::VectorXd& qdd) { qdd_ = qdd; }
  void setEffort(int joint, double effort) { effort_(joint) = effort; }
  // Output::Terms then builds M without the running-integral terms of `high` coupling
  // (DynamicsData::mass_without_running_terms): for an iteration matrix only.
  void setMassWithoutRunningTerms(bool on) { data_.mass_without_running_terms = on; }
  // Output::Terms then splits `high` coupling's foreshortening into columns of its own
  // (ForeshorteningColumns.hpp): massMatrix() is M~_xx, sparse, and splitMass() gives the rest, for the
  // structured solve of an iteration matrix (M = T^T M~ T). The bias, the forces and the frames are those
  // of the ordinary evaluation. Without foreshortening columns (foreshorteningColumns() == 0) no change.
  void setForeshorteningColumns(bool on) { data_.foreshortening.split = on; }
  int foreshorteningColumns() const { return data_.foreshortening.count(); }
  // After an Output::Terms evaluation with them, in the free coordinates' numbering: the sections'
  // gradients G (nf x L), M~_xs (nf x L) and M~_ss (L x L), and with setMassWithoutRunningTerms() the
  // running terms' rows, their unknowns numbered from nf on.
  struct SplitMass {
    Eigen::MatrixXd G, M_xs, M_ss;
    std::vector<Eigen::Triplet<double>> running;
    int running_count = 0;
    std::vector<int> running_place;  // each unknown's place among the free coordinates (ForeshorteningColumns)
  };
  void splitMass(SplitMass& out) const;
  // Frozen in time, for statics: the prescribed coordinates stand still at their laws' values (no rate,
  // no acceleration), so that residualForce() at zero free rates is the static force balance.
  void setFrozen(bool on) { frozen_ = on; }

  // Results of the last evaluation: full coordinates, rates, accelerations, and per joint the
  // drive effort (applied by the drive for a free joint, needed to follow the motion for a
  // prescribed one; on the motor side for a flexible joint).
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qd() const { return qd_; }
  const Eigen::VectorXd& qdd() const { return qdd_; }
  const Eigen::VectorXd& effort() const { return effort_; }
  // Generalized force balance of the free coordinates at zero free acceleration, Q_f - b_f.
  const Eigen::VectorXd& residualForce() const { return force_f_; }
  // The largest single force of the last evaluation on a free coordinate: the bias, the loads, each force
  // term on its own (ForceTerms.hpp) and the drives' efforts. Their sum is what a residual leaves, as
  // small as the residual itself at a balance, so this is the scale a balance is measured against.
  double largestForceTerm() const;
  DynamicsData& data() { return data_; }
  // The energies at the state of the last evaluation, and data().frames at that state: a flexible
  // system's from that evaluation's pass of the equations (DynamicsData::kinetic and the potentials; no
  // second evaluation); a rigid system's from the recursive kinematics (systemEnergies).
  Energies energies();
  // The tangent stiffness and damping of the free coordinates (TangentStiffness.hpp) at the state of
  // the last evaluation with Output::Accelerations or Terms, for the implicit integrators' iteration matrix.
  void tangent(Eigen::MatrixXd& K_ff, Eigen::MatrixXd& C_ff);
  // The same stored sparse: built from the terms' entries, without any dense n x n pass.
  void tangent(Eigen::SparseMatrix<double>& K_ff, Eigen::SparseMatrix<double>& C_ff);
  // Solves M_ff x = b in place with a factorization of the last evaluation's mass matrix (made now
  // when the evaluation refined the accelerations with an earlier one, see kRefineMassFrom).
  void solveMass(Eigen::Ref<Eigen::MatrixXd> b);
  // From this many free coordinates, while the mass matrix is factorized densely (n^3 / 3),
  // Output::Accelerations first solves for them with the factorization of an earlier state and
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
  // The stages of evaluate(): the pass of the equations it needs, the pass, and what follows it.
  enum class Pass { WithMass, Bias, Kinematics };  // M and the bias; the bias; the frames' kinematics only
  Pass passFor(const Request& request) const;
  void equationsPass(Pass pass);
  // applied_ = internal forces + the free drives' efforts (effort_) + the loads' forces (when the last
  // pass computed the frames' Jacobians: `frames_with_forces`; data_.external is left as it was otherwise).
  void applyForces(double t, bool frames_with_forces);
  void collectTerms();                       // M_ff_, force_f_ = rhs_f_ from the pass and the forces
  bool solve(double t, double* ydot);        // Output::Accelerations with a fresh M
  bool massReusable() const;                 // Request::reuse_mass can refine
  bool refineWithoutMass(const Request& r);  // Output::Accelerations with reuse_mass
  bool keepRow(double t, const double* a);   // Output::Row
  bool factorMass();                         // mass_solve_ of massMatrix(), false when not positive definite
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
  Abilities abilities_;
};

}  // namespace flexarm
