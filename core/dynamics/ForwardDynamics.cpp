#include "dynamics/ForwardDynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "dynamics/Crba.hpp"
#include "dynamics/ExternalLoads.hpp"
#include "dynamics/EquationsOfMotion.hpp"
#include "dynamics/ForceTerms.hpp"
#include "dynamics/Rnea.hpp"
#include "dynamics/TangentStiffness.hpp"

namespace flexarm {

namespace {
// |f - M x|_inf / (|M|_inf |x|_inf + |f|_inf), with r = f - M x.
double backwardError(double M_norm, const Eigen::VectorXd& x, const Eigen::VectorXd& f, const Eigen::VectorXd& r) {
  const double scale = M_norm * x.cwiseAbs().maxCoeff() + f.cwiseAbs().maxCoeff();
  return scale > 0.0 ? r.cwiseAbs().maxCoeff() / scale : 0.0;
}
}  // namespace

ForwardDynamics::ForwardDynamics(const MultibodySystem& sys, Prescribed prescribed)
    : sys_(sys), mode_(prescribed), rigid_(sys.isRigid()), data_(sys) {
  std::vector<bool> is_prescribed(sys.nq, false);
  if (mode_ == Prescribed::Eliminated)
    for (const Body& b : sys.bodies)
      if (b.drive.kind == JointDrive::Kind::Prescribed) {
        is_prescribed[b.drivenIndex()] = true;
        effort_from_forces_ = effort_from_forces_ || !b.hasFlexibleJoint();
      }
  for (int i = 0; i < sys.nq; ++i) (is_prescribed[i] ? prescribed_ : free_).push_back(i);
  free_number_.assign(static_cast<std::size_t>(sys.nq), -1);
  for (std::size_t k = 0; k < free_.size(); ++k) free_number_[static_cast<std::size_t>(free_[k])] = static_cast<int>(k);
  q_ = qd_ = qdd_ = applied_ = Eigen::VectorXd::Zero(sys.nq);
  effort_ = Eigen::VectorXd::Zero(static_cast<int>(sys.bodies.size()));
  const int nf = static_cast<int>(free_.size());
  rhs_f_ = force_f_ = Eigen::VectorXd::Zero(nf);
  // Preallocate the factorization by factorizing once (Eigen's sized constructor leaves its status
  // uninitialized, so it must not be copied); evaluate() then never allocates.
  consecutive_ = nf == 0 || free_.back() - free_.front() + 1 == nf;
  M_ff_ = Eigen::MatrixXd::Identity(nf, nf);
  mass_solve_.computeCholesky(M_ff_);
  if (consecutive_) M_ff_.resize(0, 0);  // massMatrix() is a block of data_.M
  abilities_.exact_residual = rigid_ || sys.coupling != CouplingOrder::Geometric;
  abilities_.mass_free_residual = mode_ == Prescribed::Eliminated && abilities_.exact_residual;
  abilities_.row_from_accelerations = !rigid_ && nf > 0 && abilities_.mass_free_residual;
}

void ForwardDynamics::initialState(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, double* y) const {
  const std::size_t nf = free_.size();
  for (std::size_t k = 0; k < nf; ++k) {
    y[k] = q0(free_[k]);
    y[nf + k] = qd0(free_[k]);
  }
}

void ForwardDynamics::assemble(double t, const double* y) {
  const std::size_t nf = free_.size();
  mass_stale_ = false;
  for (std::size_t k = 0; k < nf; ++k) {
    q_(free_[k]) = y[k];
    qd_(free_[k]) = y[nf + k];
    qdd_(free_[k]) = 0.0;
  }
  for (const Body& b : sys_.bodies) {
    if (b.drive.kind != JointDrive::Kind::Prescribed) continue;
    const TimeSample s = b.drive.law.evaluate(t);
    const double gain = 1.0 / b.driveScale();  // a prescribed flexible joint drives its motor: q_m = N q(t)
    const int i = b.drivenIndex();
    qdd_(i) = frozen_ ? 0.0 : gain * s.accel;
    if (mode_ == Prescribed::Constrained) continue;  // position and rate come from the state
    q_(i) = gain * s.value;
    qd_(i) = frozen_ ? 0.0 : gain * s.rate;
  }
}

void ForwardDynamics::applyForces(double t, bool frames_with_forces) {
  applied_ = data_.internal;
  if (!sys_.loads.empty() && frames_with_forces) {
    externalForces(sys_, data_, rigid_ ? LoadFrames::Recursive : LoadFrames::Equations, t, q_, data_.external);
    applied_ += data_.external;
  }
  // The drives term's force (ForceTerms.hpp), joint by joint: their efforts are recorded.
  const TermState state{t, q_, qd_, frozen_};
  data_.drive_force.setZero();
  for (std::size_t j = 0; j < sys_.bodies.size(); ++j) {
    const Body& body = sys_.bodies[j];
    if (body.drive.kind == JointDrive::Kind::Prescribed) {
      effort_(static_cast<int>(j)) = 0.0;  // set by evaluate() (eliminated) or by the constrained solver
      continue;
    }
    const int i = body.drivenIndex();
    effort_(static_cast<int>(j)) = driveEffort(body, state);
    data_.drive_force(i) += effort_(static_cast<int>(j));
    applied_(i) += effort_(static_cast<int>(j));
  }
}

void ForwardDynamics::prescribedEffortsFromPass() {
  for (std::size_t j = 0; j < sys_.bodies.size(); ++j) {
    const Body& body = sys_.bodies[j];
    if (body.drive.kind != JointDrive::Kind::Prescribed) continue;
    const int i = body.drivenIndex();
    // as evaluate(): (M qdd + b - internal - external)_i
    effort_(static_cast<int>(j)) = data_.tau(i) - data_.internal(i) - data_.external(i);
  }
}

void ForwardDynamics::keepPassWithoutMass(double t) {
  rhs_f_ = refined_;
  mass_factor_current_ = false;
  mass_stale_ = true;
  evaluated_t_ = t;
  prescribedEffortsFromPass();
}

bool ForwardDynamics::evaluate(const Request& r) {
  if (r.output == Output::Accelerations && r.reuse_mass && !massReusable())
    return evaluate(Request::accelerations(r.t, r.y, r.out));
  failure_ = Failure::None;
  // 1. Positions and velocities: the free ones from y, the prescribed ones from their laws.
  assemble(r.t, r.y);
  // 2. The free accelerations where they are known (the prescribed ones' come from their laws).
  if (r.output == Output::Residual || r.output == Output::Row)
    for (std::size_t k = 0; k < free_.size(); ++k) qdd_(free_[k]) = r.a[k];
  // 3. One pass of the equations of motion: kinematics, the bias, M where asked.
  const Pass pass = passFor(r);
  equationsPass(pass);
  // 4. The forces, term by term, the drives and the loads (these need the frames' Jacobians).
  internalForces(sys_, data_, q_, qd_);
  applyForces(r.t, pass != Pass::Kinematics);
  // 5. What was asked for.
  switch (r.output) {
    case Output::Terms:
      mass_factor_current_ = false;
      collectTerms();
      return true;
    case Output::Residual:
      for (std::size_t k = 0; k < free_.size(); ++k) r.out[k] = data_.tau(free_[k]) - applied_(free_[k]);
      return true;
    case Output::Row: return keepRow(r.t, r.a);
    case Output::Accelerations: return r.reuse_mass ? refineWithoutMass(r) : solve(r.t, r.out);
  }
  return false;
}

ForwardDynamics::Pass ForwardDynamics::passFor(const Request& r) const {
  switch (r.output) {
    case Output::Terms: return Pass::WithMass;
    case Output::Residual: return Pass::Bias;
    // Only a prescribed joint's effort needs the forces (tau = M qdd + b), and not that of a prescribed
    // motor (tau = J_rotor qdd_m, which the kinematics pass adds too); the rest of a row is the
    // kinematics and the energies.
    case Output::Row:
      return !effort_from_forces_ && sys_.coupling != CouplingOrder::Geometric && !rigid_ ? Pass::Kinematics : Pass::Bias;
    case Output::Accelerations: return r.reuse_mass ? Pass::Bias : Pass::WithMass;
  }
  return Pass::WithMass;
}

void ForwardDynamics::equationsPass(Pass pass) {
  const bool with_mass = pass == Pass::WithMass && !free_.empty();
  if (rigid_) {
    rnea(sys_, data_, q_, qd_, qdd_, false);  // gravity is a force term (internalForces)
    if (with_mass) crba(sys_, data_, q_);
  } else if (pass == Pass::Kinematics) {
    compositeKinematics(sys_, data_, q_, qd_, qdd_);
  } else {
    compositeEquations(sys_, data_, q_, qd_, qdd_, with_mass);
  }
}

void ForwardDynamics::collectTerms() {
  const int nf = static_cast<int>(free_.size());
  mass_stale_ = false;
  const Eigen::VectorXd& b = data_.tau;
  const Eigen::MatrixXd& M = data_.M;
  for (int k = 0; k < nf; ++k) rhs_f_(k) = applied_(free_[k]) - b(free_[k]);
  for (int c = 0; c < nf && !consecutive_; ++c) {  // column by column, as both are stored
    const double* from = M.col(free_[c]).data();
    double* to = M_ff_.col(c).data();
    for (int r = 0; r < nf; ++r) to[r] = from[free_[r]];
  }
  if (mode_ == Prescribed::Constrained) {
    // The kinematics above used the nominal accelerations of the prescribed joints, so that the
    // geometric axial force follows the prescribed motion (Pan et al. 1990 eq. (17)); the multipliers
    // supply those accelerations, so they are taken out of the bias again: f = Q - h(q, qd).
    for (const Body& body : sys_.bodies)
      if (body.drive.kind == JointDrive::Kind::Prescribed)
        rhs_f_ += massMatrix().col(body.drivenIndex()) * qdd_(body.drivenIndex());
  }
  force_f_ = rhs_f_;
}

bool ForwardDynamics::solve(double t, double* ydot) {
  collectTerms();
  const int nf = static_cast<int>(free_.size());
  const Eigen::VectorXd& b = data_.tau;
  const Eigen::MatrixXd& M = data_.M;
  if (nf > 0 && !solveAccelerations()) {
    failure_ = Failure::NotPositiveDefinite;
    failure_t_ = t;
    return false;
  }
  // Effort a prescribed joint's drive must supply: (M qdd + b - internal) at its coordinate.
  for (std::size_t j = 0; j < sys_.bodies.size() && mode_ == Prescribed::Eliminated; ++j) {
    const Body& body = sys_.bodies[j];
    if (body.drive.kind != JointDrive::Kind::Prescribed) continue;
    const int i = body.drivenIndex();
    double s = b(i) - data_.internal(i) - data_.external(i);
    for (int k = 0; k < nf; ++k) s += M(i, free_[k]) * rhs_f_(k);
    effort_(static_cast<int>(j)) = s;
  }
  return storeAccelerations(t, ydot);
}

bool ForwardDynamics::massReusable() const {
  return !free_.empty() && mass_factor_refinable_ && !rigid_ && abilities_.mass_free_residual;
}

bool ForwardDynamics::refineWithoutMass(const Request& r) {
  const int nf = static_cast<int>(free_.size());
  // f = Q - b with the free accelerations zero; Q does not depend on them.
  for (int k = 0; k < nf; ++k) force_f_(k) = applied_(free_[k]) - data_.tau(free_[k]);
  refined_ = force_f_;
  mass_solve_.solveInPlace(refined_);
  double previous = std::numeric_limits<double>::infinity();
  for (int it = 0; it < kMaxRefinements; ++it) {
    for (int k = 0; k < nf; ++k) qdd_(free_[k]) = refined_(k);
    compositeEquations(sys_, data_, q_, qd_, qdd_, false);
    for (int k = 0; k < nf; ++k) correction_(k) = applied_(free_[k]) - data_.tau(free_[k]);  // f - M a
    const double size = correction_.cwiseAbs().maxCoeff();
    if (!std::isfinite(size)) break;
    if (backwardError(factored_norm_, refined_, force_f_, correction_) <= 4.0 * factored_backward_error_) {
      ++refined_solves_;
      keepPassWithoutMass(r.t);
      return storeAccelerations(r.t, r.out);
    }
    if (size > 0.5 * previous) break;  // not contracting: M has moved too far
    previous = size;
    mass_solve_.solveInPlace(correction_);
    refined_ += correction_;
  }
  return evaluate(Request::accelerations(r.t, r.y, r.out));
}

bool ForwardDynamics::keepRow(double t, const double* a) {
  refined_ = Eigen::Map<const Eigen::VectorXd>(a, static_cast<int>(free_.size()));
  keepPassWithoutMass(t);
  if (std::isfinite(data_.kinetic) && effort_.allFinite()) return true;
  failure_ = Failure::NonFinite;
  failure_t_ = t;
  return false;
}

bool ForwardDynamics::storeAccelerations(double t, double* ydot) {
  const int nf = static_cast<int>(free_.size());
  for (int k = 0; k < nf; ++k) qdd_(free_[k]) = rhs_f_(k);
  for (int k = 0; k < nf; ++k) {
    ydot[k] = qd_(free_[k]);
    ydot[nf + k] = qdd_(free_[k]);
  }
  for (int k = 0; k < 2 * nf; ++k) {
    if (!std::isfinite(ydot[k])) {
      failure_ = Failure::NonFinite;
      failure_t_ = t;
      return false;
    }
  }
  return true;
}

const std::vector<MatrixRegion>* ForwardDynamics::massRegions() {
  if (!consecutive_ || rigid_ || free_.empty() || !data_.M_regions_valid) return nullptr;
  // massMatrix() is the block of M from the first free coordinate: the regions in its numbering.
  const int first = free_.front();
  free_regions_.clear();
  for (MatrixRegion r : data_.M_regions) {
    r.row -= first;
    r.col -= first;
    free_regions_.push_back(r);
  }
  return &free_regions_;
}

bool ForwardDynamics::factorMass() {
  const std::vector<MatrixRegion>* regions = massRegions();
  ++mass_factorizations_;
  mass_factor_current_ =
      regions ? mass_solve_.computeCholesky(massMatrix(), *regions) : mass_solve_.computeCholesky(massMatrix());
  mass_factor_refinable_ = mass_factor_current_ && static_cast<int>(free_.size()) >= kRefineMassFrom && !mass_solve_.usesSparse();
  return mass_factor_current_;
}

bool ForwardDynamics::refineAccelerations() {
  const auto M = massMatrix();
  refined_ = rhs_f_;
  mass_solve_.solveInPlace(refined_);
  double previous = std::numeric_limits<double>::infinity();
  for (int it = 0; it < kMaxRefinements; ++it) {
    correction_ = rhs_f_;
    correction_.noalias() -= M * refined_;
    const double size = correction_.cwiseAbs().maxCoeff();
    if (!std::isfinite(size)) return false;
    if (backwardError(factored_norm_, refined_, rhs_f_, correction_) <= 4.0 * factored_backward_error_) {
      rhs_f_ = refined_;
      ++refined_solves_;
      return true;
    }
    if (size > 0.5 * previous) return false;  // not contracting: M has moved too far
    previous = size;
    mass_solve_.solveInPlace(correction_);
    refined_ += correction_;
  }
  return false;
}

bool ForwardDynamics::solveAccelerations() {
  if (mass_factor_refinable_ && refineAccelerations()) {
    mass_factor_current_ = false;
    return true;
  }
  if (!factorMass()) return false;
  if (!mass_factor_refinable_) {
    mass_solve_.solveInPlace(rhs_f_);
    return true;
  }
  // The direct solve's backward error, the refinement's target (|M|_inf of this state stands for the
  // next ones', which differ little).
  refined_ = rhs_f_;
  mass_solve_.solveInPlace(refined_);
  correction_ = rhs_f_;
  correction_.noalias() -= massMatrix() * refined_;
  factored_norm_ = massMatrix().cwiseAbs().rowwise().sum().maxCoeff();
  factored_backward_error_ =
      std::max(backwardError(factored_norm_, refined_, rhs_f_, correction_), std::numeric_limits<double>::epsilon());
  rhs_f_ = refined_;
  return true;
}

void ForwardDynamics::solveMass(Eigen::Ref<Eigen::MatrixXd> b) {
  if (mass_stale_) {  // after a pass without M: build M at its state (with the free accelerations zero)
    for (int k : free_) qdd_(k) = 0.0;
    equationsPass(Pass::WithMass);
    internalForces(sys_, data_, q_, qd_);
    applyForces(evaluated_t_, true);
    collectTerms();
    for (std::size_t k = 0; k < free_.size(); ++k) qdd_(free_[k]) = refined_(static_cast<int>(k));
    rhs_f_ = refined_;
  }
  if (!mass_factor_current_) factorMass();
  mass_solve_.solveColumnsInPlace(b);
}

void ForwardDynamics::splitMass(SplitMass& out) const {
  const ForeshorteningColumns& fc = data_.foreshortening;
  const int nf = static_cast<int>(free_.size()), L = fc.count();
  out.G.setZero(nf, L);
  out.M_xs.resize(nf, L);
  for (int s = 0; s < L; ++s) {
    const ForeshorteningColumns::Section& sec = fc.sections[static_cast<std::size_t>(s)];
    for (int k = 0; k < sec.e_count; ++k) out.G(free_number_[static_cast<std::size_t>(sec.e_index + k)], s) = fc.gradients(k, s);
  }
  for (int k = 0; k < nf; ++k) out.M_xs.row(k) = fc.M_xs.row(free_[k]);
  out.M_ss = fc.M_ss;
  // The running terms' rows: coordinates (elastic ones, all free) to their free numbers, unknowns after them.
  const int nq = sys_.nq;
  auto number = [&](int i) { return i < nq ? free_number_[static_cast<std::size_t>(i)] : nf + (i - nq); };
  out.running.clear();
  for (const Eigen::Triplet<double>& t : fc.running) out.running.emplace_back(number(t.row()), number(t.col()), t.value());
  out.running_count = fc.running.empty() ? 0 : fc.running_count;
  out.running_place.clear();
  for (int i = 0; i < out.running_count; ++i)
    out.running_place.push_back(free_number_[static_cast<std::size_t>(fc.running_place[static_cast<std::size_t>(i)])]);
}

void ForwardDynamics::tangent(Eigen::MatrixXd& K_ff, Eigen::MatrixXd& C_ff) {
  DenseTangent sink(free_number_, static_cast<int>(free_.size()), K_ff, C_ff);
  tangentStiffness(sys_, data_, sink);
}

void ForwardDynamics::tangent(Eigen::SparseMatrix<double>& K_ff, Eigen::SparseMatrix<double>& C_ff) {
  TangentEntries sink(free_number_, K_entries_, C_entries_, window_);
  tangentStiffness(sys_, data_, sink);
  const int nf = static_cast<int>(free_.size());
  K_ff.resize(nf, nf);
  C_ff.resize(nf, nf);
  K_ff.setFromTriplets(K_entries_.begin(), K_entries_.end());  // entries at the same place add up
  C_ff.setFromTriplets(C_entries_.begin(), C_entries_.end());
}

Energies ForwardDynamics::energies() {
  if (rigid_ || free_.empty()) return systemEnergies(sys_, data_, q_, qd_);
  Energies e;
  e.kinetic = data_.kinetic;
  e.potential = data_.gravity_potential + data_.elastic_potential;
  return e;
}

double ForwardDynamics::largestForceTerm() const {
  double scale = 0.0;
  auto largest = [&](const Eigen::VectorXd& force) {
    if (force.size() > 0)
      for (int c : free_) scale = std::max(scale, std::abs(force(c)));
  };
  largest(data_.tau);
  largest(data_.external);
  for (const ForceTerm* term : forceTerms()) largest(term->of(data_));
  return std::max(scale, effort_.size() > 0 ? effort_.cwiseAbs().maxCoeff() : 0.0);
}

std::string ForwardDynamics::error() const {
  std::ostringstream os;
  switch (failure_) {
    case Failure::None: return {};
    case Failure::NotPositiveDefinite:
      os << "the mass matrix of the free coordinates is not positive definite at t = " << failure_t_
         << " s (a massless or inertia-free body that a joint moves?)";
      break;
    case Failure::NonFinite: os << "the accelerations are not finite at t = " << failure_t_ << " s"; break;
  }
  return os.str();
}

}  // namespace flexarm
