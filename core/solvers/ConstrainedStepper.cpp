#include "solvers/ConstrainedStepper.hpp"

namespace flexarm {

ConstrainedStepper::ConstrainedStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs)
    : cs_(std::move(cs)), cd_(sys, *cs_), recorder_(sys, cs_.get()) {
  slots_.resize(static_cast<std::size_t>(sys.nq));
  for (int i = 0; i < sys.nq; ++i) slots_[static_cast<std::size_t>(i)] = i;  // q leads the state
  violations_.assign(2 * cs_->groups().size(), 0.0);
}

bool ConstrainedStepper::recordState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Results& results) {
  cd_.evaluate(t, q, qd);
  if (!cd_.rows().error.empty()) {
    error_ = cd_.rows().error;
    return false;
  }
  if (!cd_.solveAccelerations(cd_.rows().h, qdd_, lambda_)) {
    error_ = "the constraint equations became singular (redundant constraints?)";
    return false;
  }
  cd_.prepareRecord(qdd_, lambda_);
  for (std::size_t g = 0; g < cd_.constraints().groups().size(); ++g) {
    violations_[2 * g] = cd_.positionViolation(static_cast<int>(g));
    violations_[2 * g + 1] = cd_.velocityViolation(static_cast<int>(g), qd);
  }
  recorder_.record(t, cd_.forward(), results, &violations_);
  return true;
}

Result<std::shared_ptr<const ConstraintSet>> runConstraints(const RunSetup& run) {
  auto cs = std::make_shared<ConstraintSet>();
  if (Status built = cs->build(run.sys, run.model(), true); !built) return built.error();
  return std::shared_ptr<const ConstraintSet>(std::move(cs));
}

}  // namespace flexarm
