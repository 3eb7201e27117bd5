#include "solvers/CvodeIntegrator.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cstdlib>
#include <cstring>

namespace flexarm {

struct CvodeIntegrator::Impl {
  SUNContext ctx = nullptr;
  void* mem = nullptr;
  N_Vector y = nullptr;
  N_Vector ytmp = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  SUNNonlinearSolver NLS = nullptr;
  OdeRhs* rhs = nullptr;
  int n = 0;
  bool bdf = true;
  std::string last_message;

  ~Impl() {
    if (mem) CVodeFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (NLS) SUNNonlinSolFree(NLS);
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

CvodeIntegrator::CvodeIntegrator() : impl_(std::make_unique<Impl>()) {}
CvodeIntegrator::~CvodeIntegrator() = default;

std::string CvodeIntegrator::init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop,
                                  const SimulationSettings& s) {
  Impl& m = *impl_;
  m.rhs = &rhs;
  m.n = n;
  m.bdf = s.method == SimulationSettings::Method::Bdf;
  if (SUNContext_Create(nullptr, &m.ctx) != 0) return "cannot create the SUNDIALS context";
  m.y = N_VNew_Serial(n, m.ctx);
  m.ytmp = N_VNew_Serial(n, m.ctx);
  if (!m.y || !m.ytmp) return "cannot allocate the solver state";
  std::memcpy(N_VGetArrayPointer(m.y), y0, sizeof(double) * static_cast<std::size_t>(n));
  m.mem = CVodeCreate(m.bdf ? CV_BDF : CV_ADAMS, m.ctx);
  if (!m.mem) return "cannot create the CVODE solver";
  CVodeSetErrHandlerFn(m.mem, &Impl::errHandler, &m);
  int flag = CVodeInit(m.mem, &Impl::rhsFn, t0, m.y);
  if (flag != CV_SUCCESS) return "CVodeInit: " + describe(flag);
  CVodeSetUserData(m.mem, &m);
  flag = CVodeSStolerances(m.mem, s.rtol, s.atol);
  if (flag != CV_SUCCESS) return "tolerances: " + describe(flag);
  if (m.bdf) {
    m.A = SUNDenseMatrix(n, n, m.ctx);
    m.LS = SUNLinSol_Dense(m.y, m.A, m.ctx);
    if (!m.A || !m.LS) return "cannot create the dense linear solver";
    flag = CVodeSetLinearSolver(m.mem, m.LS, m.A);
    if (flag != CV_SUCCESS) return "linear solver: " + describe(flag);
    if (rhs.hasJacobian() && s.jacobian == SimulationSettings::Jacobian::Analytic) {
      flag = CVodeSetJacFn(m.mem, &Impl::jacFn);
      if (flag != CV_SUCCESS) return "Jacobian: " + describe(flag);
    }
  } else {
    m.NLS = SUNNonlinSol_FixedPoint(m.y, 0, m.ctx);
    if (!m.NLS) return "cannot create the fixed-point iteration";
    flag = CVodeSetNonlinearSolver(m.mem, m.NLS);
    if (flag != CV_SUCCESS) return "nonlinear solver: " + describe(flag);
  }
  if (s.max_step > 0.0) CVodeSetMaxStep(m.mem, s.max_step);
  if (s.initial_step > 0.0) CVodeSetInitStep(m.mem, s.initial_step);
  if (s.max_order > 0) {
    flag = CVodeSetMaxOrd(m.mem, s.max_order);
    if (flag != CV_SUCCESS) return "max_order: " + describe(flag);
  }
  CVodeSetMaxHnilWarns(m.mem, -1);  // the "t + h = t" warnings become a failure we report, not noise
  CVodeSetStopTime(m.mem, t_stop);
  return {};
}

int CvodeIntegrator::step(double& t) {
  Impl& m = *impl_;
  realtype tret = t;
  const int flag = CVode(m.mem, t + 1.0, m.y, &tret, CV_ONE_STEP);  // tout only sets the direction; tstop bounds it
  t = tret;
  return flag;
}

const double* CvodeIntegrator::state() const { return N_VGetArrayPointer(impl_->y); }

bool CvodeIntegrator::interpolate(double t, double* y_out) {
  Impl& m = *impl_;
  if (CVodeGetDky(m.mem, t, 0, m.ytmp) != CV_SUCCESS) return false;
  std::memcpy(y_out, N_VGetArrayPointer(m.ytmp), sizeof(double) * static_cast<std::size_t>(m.n));
  return true;
}

double CvodeIntegrator::currentTime() const {
  realtype t = 0.0;
  CVodeGetCurrentTime(impl_->mem, &t);
  return t;
}

SolverStats CvodeIntegrator::stats() const {
  const Impl& m = *impl_;
  SolverStats s;
  if (!m.mem) return s;
  long v = 0;
  CVodeGetNumSteps(m.mem, &v);
  s.steps = v;
  CVodeGetNumRhsEvals(m.mem, &v);
  s.rhs_evaluations = v;
  if (m.bdf) {
    CVodeGetNumLinRhsEvals(m.mem, &v);
    s.rhs_evaluations += v;
    CVodeGetNumJacEvals(m.mem, &v);
    s.jacobian_evaluations = v;
  }
  CVodeGetNumLinSolvSetups(m.mem, &v);
  s.linear_setups = v;
  CVodeGetNumErrTestFails(m.mem, &v);
  s.error_test_failures = v;
  CVodeGetNumNonlinSolvIters(m.mem, &v);
  s.nonlinear_iterations = v;
  CVodeGetNumNonlinSolvConvFails(m.mem, &v);
  s.nonlinear_convergence_failures = v;
  realtype h = 0.0;
  CVodeGetLastStep(m.mem, &h);
  s.last_step = h;
  return s;
}

std::string CvodeIntegrator::describe(int flag) const {
  std::string words;
  switch (flag) {
    case CV_TOO_MUCH_WORK: words = "the solver took the maximum number of steps (raise simulation.solver.max_steps)"; break;
    case CV_TOO_MUCH_ACC: words = "the requested accuracy cannot be reached (loosen rtol/atol)"; break;
    case CV_ERR_FAILURE: words = "the error test failed repeatedly or with the minimum step (the motion may be diverging or discontinuous)"; break;
    case CV_CONV_FAILURE: words = "the Newton iteration failed to converge repeatedly (a stiff or diverging model?)"; break;
    case CV_LINIT_FAIL: case CV_LSETUP_FAIL: case CV_LSOLVE_FAIL: words = "the linear solver failed (singular iteration matrix)"; break;
    case CV_RHSFUNC_FAIL: words = "the equations of motion could not be evaluated"; break;
    case CV_FIRST_RHSFUNC_ERR: words = "the equations of motion failed at the initial state"; break;
    case CV_REPTD_RHSFUNC_ERR: words = "the equations of motion failed repeatedly (non-finite values)"; break;
    case CV_UNREC_RHSFUNC_ERR: words = "the equations of motion failed and the solver could not recover"; break;
    case CV_ILL_INPUT: words = "invalid solver input"; break;
    case CV_MEM_FAIL: words = "out of memory"; break;
    default: {
      char* name = CVodeGetReturnFlagName(flag);  // malloc'd by SUNDIALS
      words = name ? name : "unknown CVODE error";
      std::free(name);
      break;
    }
  }
  if (!impl_->last_message.empty()) words += " [" + impl_->last_message + "]";
  return words;
}

}  // namespace flexarm
