#include "solvers/IdaIntegrator.hpp"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/LU>
#include <cstdlib>
#include <cstring>

#include "solvers/SundialsLinearSolver.hpp"

namespace flexarm {

struct IdaIntegrator::Impl {
  SUNContext ctx = nullptr;
  void* mem = nullptr;
  N_Vector y = nullptr, yp = nullptr, id = nullptr, tmp = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  DaeResidual* res = nullptr;
  int n = 0;
  std::string last_message;
  // The Newton systems: IDA fills the dense matrix A (cj dF/dy' + dF/dy, from the residual's Jacobian
  // or its own difference quotients) and this solver factorizes it with Eigen's blocked LU. SUNDIALS'
  // own dense LU took 20 % of a sliding beam's run in its solves alone (column by column, 28 x 28).
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::VectorXd rhs;

  ~Impl() {
    if (mem) IDAFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    for (N_Vector v : {y, yp, id, tmp})
      if (v) N_VDestroy(v);
    if (ctx) SUNContext_Free(&ctx);
  }

  static int resFn(realtype t, N_Vector y, N_Vector yp, N_Vector r, void* user) {
    auto* self = static_cast<Impl*>(user);
    return self->res->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
  }

  static int jacFn(realtype t, realtype cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector,
                   N_Vector) {
    auto* self = static_cast<Impl*>(user);
    return self->res->jacobian(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                               Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(J), self->n, self->n));
  }

  Status eigenSolver() {
    A = SUNDenseMatrix(n, n, ctx);
    lu = Eigen::PartialPivLU<Eigen::MatrixXd>(n);
    rhs = Eigen::VectorXd::Zero(n);
    LS = newDirectLinearSolver(
        ctx, this,
        [](SUNLinearSolver S, SUNMatrix J) {
          auto* self = static_cast<Impl*>(S->content);
          self->lu.compute(Eigen::Map<const Eigen::MatrixXd>(SM_DATA_D(J), self->n, self->n));
          // A zero or non-finite pivot: recoverable, as SUNDIALS' dense LU reports it (IDA shrinks the step).
          const auto pivots = self->lu.matrixLU().diagonal();
          const bool usable = pivots.allFinite() && (pivots.array() != 0.0).all();
          return usable ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
        },
        [](SUNLinearSolver S, SUNMatrix, N_Vector x, N_Vector b, realtype) {
          auto* self = static_cast<Impl*>(S->content);
          self->rhs = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(b), self->n);  // x and b may be one vector
          Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(x), self->n) = self->lu.solve(self->rhs);
          return SUNLS_SUCCESS;
        });
    if (!A || !LS) return error("cannot create the dense linear solver");
    return {};
  }

  static void errHandler(int, const char* module, const char* function, char* msg, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->last_message = std::string(module ? module : "") + "::" + (function ? function : "") + ": " + (msg ? msg : "");
  }
};

IdaIntegrator::IdaIntegrator() : impl_(std::make_unique<Impl>()) {}
IdaIntegrator::~IdaIntegrator() = default;

Status IdaIntegrator::init(DaeResidual& res, int n, const double* y0, const double* yp0, const std::vector<bool>& differential,
                           double t0, double t_stop, const SimulationSettings& s) {
  Impl& m = *impl_;
  m.res = &res;
  m.n = n;
  if (SUNContext_Create(nullptr, &m.ctx) != 0) return error("cannot create the SUNDIALS context");
  m.y = N_VNew_Serial(n, m.ctx);
  m.yp = N_VNew_Serial(n, m.ctx);
  m.id = N_VNew_Serial(n, m.ctx);
  m.tmp = N_VNew_Serial(n, m.ctx);
  if (!m.y || !m.yp || !m.id || !m.tmp) return error("cannot allocate the solver state");
  std::memcpy(N_VGetArrayPointer(m.y), y0, sizeof(double) * static_cast<std::size_t>(n));
  std::memcpy(N_VGetArrayPointer(m.yp), yp0, sizeof(double) * static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) N_VGetArrayPointer(m.id)[k] = differential[static_cast<std::size_t>(k)] ? 1.0 : 0.0;
  m.mem = IDACreate(m.ctx);
  if (!m.mem) return error("cannot create the IDA solver");
  IDASetErrHandlerFn(m.mem, &Impl::errHandler, &m);
  int flag = IDAInit(m.mem, &Impl::resFn, t0, m.y, m.yp);
  if (flag != IDA_SUCCESS) return errorAt("IDAInit", describe(flag));
  IDASetUserData(m.mem, &m);
  // rtol and atol hold the differential variables. The algebraic ones (the multipliers of an index-2
  // system) are out of the error test (IDASetSuppressAlg below) and must be out of the Newton
  // iteration's convergence test too: a step of length h determines them to round-off / h only, which
  // exceeds atol of the order of the positions' (1e-11) on any step, and any atol on a short one (the
  // first steps, the one that lands on t_stop), however exact the iteration matrix. Weighted by
  // 1 / kAlgebraicAtol they converge with the positions and velocities they act on. IDA's difference
  // quotients step each variable by at least its absolute tolerance: exact for a residual linear in
  // the multipliers.
  constexpr double kAlgebraicAtol = 1e6;
  for (int k = 0; k < n; ++k) N_VGetArrayPointer(m.tmp)[k] = differential[static_cast<std::size_t>(k)] ? s.atol : kAlgebraicAtol;
  flag = IDASVtolerances(m.mem, s.rtol, m.tmp);
  if (flag != IDA_SUCCESS) return errorAt("tolerances", describe(flag));
  if (Status ls = m.eigenSolver(); !ls) return ls;
  flag = IDASetLinearSolver(m.mem, m.LS, m.A);
  if (flag != IDA_SUCCESS) return errorAt("linear solver", describe(flag));
  if (res.hasJacobian() && s.jacobian == SimulationSettings::Jacobian::Analytic) {
    flag = IDASetJacFn(m.mem, &Impl::jacFn);
    if (flag != IDA_SUCCESS) return errorAt("Jacobian", describe(flag));
  }
  if (s.max_order > 0) {
    flag = IDASetMaxOrd(m.mem, s.max_order);
    if (flag != IDA_SUCCESS) return errorAt("max_order", describe(flag));
  }
  IDASetId(m.mem, m.id);
  IDASetSuppressAlg(m.mem, SUNTRUE);  // multipliers: index 2, kept out of the error test
  if (s.max_step > 0.0) IDASetMaxStep(m.mem, s.max_step);
  if (s.initial_step > 0.0) IDASetInitStep(m.mem, s.initial_step);
  IDASetStopTime(m.mem, t_stop);
  return {};
}

int IdaIntegrator::step(double& t) {
  Impl& m = *impl_;
  realtype tret = t;
  const int flag = IDASolve(m.mem, t + 1.0, &tret, m.y, m.yp, IDA_ONE_STEP);
  t = tret;
  return flag;
}

const double* IdaIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

bool IdaIntegrator::interpolate(double t, double* y_out, double* yp_out) {
  Impl& m = *impl_;
  if (IDAGetDky(m.mem, t, 0, m.tmp) != IDA_SUCCESS) return false;
  std::memcpy(y_out, N_VGetArrayPointer(m.tmp), sizeof(double) * static_cast<std::size_t>(m.n));
  if (IDAGetDky(m.mem, t, 1, m.tmp) != IDA_SUCCESS) return false;
  std::memcpy(yp_out, N_VGetArrayPointer(m.tmp), sizeof(double) * static_cast<std::size_t>(m.n));
  return true;
}

bool IdaIntegrator::localError(double* le) {
  Impl& m = *impl_;
  if (IDAGetEstLocalErrors(m.mem, m.tmp) != IDA_SUCCESS) return false;
  std::memcpy(le, N_VGetArrayPointer(m.tmp), sizeof(double) * static_cast<std::size_t>(m.n));
  return true;
}

double IdaIntegrator::currentTime() const {
  realtype t = 0.0;
  IDAGetCurrentTime(impl_->mem, &t);
  return t;
}

SolverStats IdaIntegrator::stats() const {
  const Impl& m = *impl_;
  SolverStats s;
  if (!m.mem) return s;
  long v = 0;
  IDAGetNumSteps(m.mem, &v);
  s.steps = v;
  IDAGetNumResEvals(m.mem, &v);
  s.rhs_evaluations = v;
  IDAGetNumLinResEvals(m.mem, &v);
  s.rhs_evaluations += v;
  IDAGetNumJacEvals(m.mem, &v);
  s.jacobian_evaluations = v;
  IDAGetNumLinSolvSetups(m.mem, &v);
  s.linear_setups = v;
  IDAGetNumErrTestFails(m.mem, &v);
  s.error_test_failures = v;
  IDAGetNumNonlinSolvIters(m.mem, &v);
  s.nonlinear_iterations = v;
  IDAGetNumNonlinSolvConvFails(m.mem, &v);
  s.nonlinear_convergence_failures = v;
  realtype h = 0.0;
  IDAGetLastStep(m.mem, &h);
  s.last_step = h;
  return s;
}

std::string IdaIntegrator::describe(int flag) const {
  std::string words;
  switch (flag) {
    case IDA_TOO_MUCH_WORK: words = "the solver took the maximum number of steps (raise simulation.solver.max_steps)"; break;
    case IDA_TOO_MUCH_ACC: words = "the requested accuracy cannot be reached (loosen rtol/atol)"; break;
    case IDA_ERR_FAIL:
      words = "the error test failed repeatedly or with the minimum step (the motion may be diverging or discontinuous)";
      break;
    case IDA_CONV_FAIL:
      words = "the Newton iteration failed to converge repeatedly (inconsistent or redundant constraints?)";
      break;
    case IDA_LINIT_FAIL:
    case IDA_LSETUP_FAIL:
    case IDA_LSOLVE_FAIL:
      words = "the linear solver failed (singular iteration matrix: redundant constraints, or a massless coordinate?)";
      break;
    case IDA_RES_FAIL: words = "the equations of motion could not be evaluated"; break;
    case IDA_REP_RES_ERR: words = "the equations of motion failed repeatedly (non-finite values)"; break;
    case IDA_CONSTR_FAIL: words = "the constraints could not be met"; break;
    case IDA_ILL_INPUT: words = "invalid solver input"; break;
    case IDA_MEM_FAIL: words = "out of memory"; break;
    default: {
      char* name = IDAGetReturnFlagName(flag);  // malloc'd by SUNDIALS
      words = name ? name : "unknown IDA error";
      std::free(name);
      break;
    }
  }
  if (!impl_->last_message.empty()) words += " [" + impl_->last_message + "]";
  return words;
}

}  // namespace flexarm
