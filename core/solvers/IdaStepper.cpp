// IDA on the constrained equations in their stabilized index-2 form (GglResidual.hpp).
#include "solvers/ConstrainedStepper.hpp"
#include "solvers/GglResidual.hpp"
#include "solvers/IdaIntegrator.hpp"

namespace flexarm {
namespace {

// The stepper: IDA on the residual and iteration matrix of GglResidual.
class IdaStepper final : public ConstrainedStepper {
 public:
  IdaStepper(const MultibodySystem& sys, std::shared_ptr<const ConstraintSet> cs)
      : ConstrainedStepper(sys, cs), n_(sys.nq), ggl_(cd_) {}

  Status init(const Model& model, double t0, double t_end, const SimulationSettings& s) {
    Eigen::VectorXd q, qd, qdd, lambda;
    if (Status consistent = cd_.initialConditions(model, t0, q, qd, qdd, lambda); !consistent) return consistent;
    ggl_.assemble(q, qd, qdd, lambda, y_, yp_);
    yout_ = ypout_ = Eigen::VectorXd::Zero(ggl_.size());
    const Status e = ida_.init(ggl_, ggl_.size(), y_.data(), yp_.data(), ggl_.differential(), t0, t_end, s);
    if (!e) return errorAt("solver set-up failed", e.error().text());
    return {};
  }

  int step(double& t) override {
    ++steps_;
    return ida_.step(t);
  }
  const double* state() const override { return ida_.state(); }
  int stateSize() const override { return ggl_.size(); }
  std::string modelError() const override { return ggl_.error().empty() ? error_ : ggl_.error(); }
  bool record(double t, Results& results) override {
    if (steps_ == 0) return recordState(t, y_.head(n_), y_.segment(n_, n_), results);
    if (!ida_.interpolate(t, yout_.data(), ypout_.data())) {
      error_ = "could not interpolate the state";
      return false;
    }
    return recordState(t, yout_.head(n_), yout_.segment(n_, n_), results);
  }
  std::string describe(int flag) const override { return ida_.describe(flag); }
  double currentTime() const override { return ida_.currentTime(); }
  bool localError(double* le) override { return ida_.localError(le); }
  SolverStats stats() const override { return ida_.stats(); }

 private:
  int n_;
  long steps_ = 0;
  GglResidual ggl_;
  IdaIntegrator ida_;
  Eigen::VectorXd y_, yp_, yout_, ypout_;
};

}  // namespace

Result<std::unique_ptr<Stepper>> makeIdaStepper(const RunSetup& run, std::vector<Channel>& channels) {
  Result<std::shared_ptr<const ConstraintSet>> cs = runConstraints(run);
  if (!cs) return cs.error();
  auto ida = std::make_unique<IdaStepper>(run.sys, cs.value());
  channels = ida->channels();
  if (Status started = ida->init(run.model(), run.t0, run.t_end, run.settings); !started) return started.error();
  return std::unique_ptr<Stepper>(std::move(ida));
}

}  // namespace flexarm
