#include "solvers/ArkodeIntegrator.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cstdlib>
#include <cstring>

namespace flexarm {

struct ArkodeIntegrator::Impl {
  SUNContext ctx = nullptr;
  void* mem = nullptr;
  N_Vector y = nullptr;
  N_Vector ytmp = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  OdeRhs* rhs = nullptr;
  int n = 0;
  std::string last_message;

  ~Impl() {
    if (mem) ARKStepFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (ytmp) N_VDestroy(ytmp);
    if (ctx) SUNContext_Free(&ctx);
  }

  static int rhsFn(realtype t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<Impl*>(user);
    return self->rhs->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  }

  static int jacFn(realtype t, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<Impl*>(user);
    return self->rhs->jacobian(t, N_VGetArrayPointer(y), Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(J), self->n, self->n));
  }

  static void errHandler(int, const char* module, const char* function, char* msg, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->last_message = std::string(module ? module : "") + "::" + (function ? function : "") + ": " + (msg ? msg : "");
  }
};

namespace {
// The L-stable, stiffly accurate ESDIRK table of each order (Kennedy & Carpenter). Order 4 is the
// default: on the shipped arms the order-5 table needs two to ten times more Newton iterations per
// step for the same accuracy (bench/flexarm_bench_solvers).
ARKODE_DIRKTableID dirkTable(int order) {
  switch (order) {
    case 3: return ARKODE_ESDIRK325L2SA_5_2_3;
    case 5: return ARKODE_ESDIRK547L2SA_7_4_5;
    default: return ARKODE_ESDIRK436L2SA_6_3_4;
  }
}
}  // namespace

ArkodeIntegrator::ArkodeIntegrator() : impl_(std::make_unique<Impl>()) {}
ArkodeIntegrator::~ArkodeIntegrator() = default;

std::string ArkodeIntegrator::init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop,
                                   const SimulationSettings& s) {
  Impl& m = *impl_;
  m.rhs = &rhs;
  m.n = n;
  if (SUNContext_Create(nullptr, &m.ctx) != 0) return "cannot create the SUNDIALS context";
  m.y = N_VNew_Serial(n, m.ctx);
  m.ytmp = N_VNew_Serial(n, m.ctx);
  if (!m.y || !m.ytmp) return "cannot allocate the solver state";
  std::memcpy(N_VGetArrayPointer(m.y), y0, sizeof(double) * static_cast<std::size_t>(n));
  m.mem = ARKStepCreate(nullptr, &Impl::rhsFn, t0, m.y, m.ctx);  // fully implicit: no explicit part
  if (!m.mem) return "cannot create the ARKODE solver";
  ARKStepSetErrHandlerFn(m.mem, &Impl::errHandler, &m);
  ARKStepSetUserData(m.mem, &m);
  int flag = ARKStepSStolerances(m.mem, s.rtol, s.atol);
  if (flag != ARK_SUCCESS) return "tolerances: " + describe(flag);
  flag = ARKStepSetTableNum(m.mem, dirkTable(s.max_order), ARKODE_ERK_NONE);
  if (flag != ARK_SUCCESS) return "method table: " + describe(flag);
  m.A = SUNDenseMatrix(n, n, m.ctx);
  m.LS = SUNLinSol_Dense(m.y, m.A, m.ctx);
  if (!m.A || !m.LS) return "cannot create the dense linear solver";
  flag = ARKStepSetLinearSolver(m.mem, m.LS, m.A);
  if (flag != ARK_SUCCESS) return "linear solver: " + describe(flag);
  if (rhs.hasJacobian() && s.jacobian == SimulationSettings::Jacobian::Analytic) {
    flag = ARKStepSetJacFn(m.mem, &Impl::jacFn);
    if (flag != ARK_SUCCESS) return "Jacobian: " + describe(flag);
  }
  if (s.max_step > 0.0) ARKStepSetMaxStep(m.mem, s.max_step);
  if (s.initial_step > 0.0) ARKStepSetInitStep(m.mem, s.initial_step);
  ARKStepSetMaxHnilWarns(m.mem, -1);
  // Stage predictor: the interpolant of the last step at its highest order (ARKODE's option 1); on
  // seed 004's arm it halves the Newton iterations of the trivial predictor.
  ARKStepSetPredictorMethod(m.mem, 1);
  ARKStepSetStopTime(m.mem, t_stop);
  return {};
}

int ArkodeIntegrator::step(double& t) {
  Impl& m = *impl_;
  realtype tret = t;
  const int flag = ARKStepEvolve(m.mem, t + 1.0, m.y, &tret, ARK_ONE_STEP);
  t = tret;
  return flag;
}

const double* ArkodeIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

bool ArkodeIntegrator::interpolate(double t, double* y_out) {
  Impl& m = *impl_;
  if (ARKStepGetDky(m.mem, t, 0, m.ytmp) != ARK_SUCCESS) return false;
  std::memcpy(y_out, N_VGetArrayPointer(m.ytmp), sizeof(double) * static_cast<std::size_t>(m.n));
  return true;
}

double ArkodeIntegrator::currentTime() const {
  realtype t = 0.0;
  ARKStepGetCurrentTime(impl_->mem, &t);
  return t;
}

SolverStats ArkodeIntegrator::stats() const {
  const Impl& m = *impl_;
  SolverStats s;
  if (!m.mem) return s;
  long v = 0, fe = 0, fi = 0;
  ARKStepGetNumSteps(m.mem, &v);
  s.steps = v;
  ARKStepGetNumRhsEvals(m.mem, &fe, &fi);
  s.rhs_evaluations = fe + fi;
  ARKStepGetNumLinRhsEvals(m.mem, &v);
  s.rhs_evaluations += v;
  ARKStepGetNumJacEvals(m.mem, &v);
  s.jacobian_evaluations = v;
  ARKStepGetNumLinSolvSetups(m.mem, &v);
  s.linear_setups = v;
  ARKStepGetNumErrTestFails(m.mem, &v);
  s.error_test_failures = v;
  ARKStepGetNumNonlinSolvIters(m.mem, &v);
  s.nonlinear_iterations = v;
  ARKStepGetNumNonlinSolvConvFails(m.mem, &v);
  s.nonlinear_convergence_failures = v;
  realtype h = 0.0;
  ARKStepGetLastStep(m.mem, &h);
  s.last_step = h;
  return s;
}

std::string ArkodeIntegrator::describe(int flag) const {
  std::string words;
  switch (flag) {
    case ARK_TOO_MUCH_WORK: words = "the solver took the maximum number of steps (raise simulation.solver.max_steps)"; break;
    case ARK_TOO_MUCH_ACC: words = "the requested accuracy cannot be reached (loosen rtol/atol)"; break;
    case ARK_ERR_FAILURE: words = "the error test failed repeatedly or with the minimum step (the motion may be diverging or discontinuous)"; break;
    case ARK_CONV_FAILURE: words = "the Newton iteration failed to converge repeatedly (a stiff or diverging model?)"; break;
    case ARK_LINIT_FAIL: case ARK_LSETUP_FAIL: case ARK_LSOLVE_FAIL: words = "the linear solver failed (singular iteration matrix)"; break;
    case ARK_RHSFUNC_FAIL: words = "the equations of motion could not be evaluated"; break;
    case ARK_FIRST_RHSFUNC_ERR: words = "the equations of motion failed at the initial state"; break;
    case ARK_REPTD_RHSFUNC_ERR: words = "the equations of motion failed repeatedly (non-finite values)"; break;
    case ARK_UNREC_RHSFUNC_ERR: words = "the equations of motion failed and the solver could not recover"; break;
    case ARK_ILL_INPUT: words = "invalid solver input"; break;
    case ARK_MEM_FAIL: words = "out of memory"; break;
    default: {
      char* name = ARKStepGetReturnFlagName(flag);  // malloc'd by SUNDIALS
      words = name ? name : "unknown ARKODE error";
      std::free(name);
      break;
    }
  }
  if (!impl_->last_message.empty()) words += " [" + impl_->last_message + "]";
  return words;
}

}  // namespace flexarm
