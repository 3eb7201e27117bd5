#include "solvers/CvodeIntegrator.hpp"

#include <cvode/cvode.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cstdlib>
#include <cstring>

#include "solvers/SundialsOde.hpp"

namespace flexarm {

std::string odeFlagWords(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_WORK: return "the solver took the maximum number of steps (raise simulation.solver.max_steps)";
    case CV_TOO_MUCH_ACC: return "the requested accuracy cannot be reached (loosen rtol/atol)";
    case CV_ERR_FAILURE:
      return "the error test failed repeatedly or with the minimum step (the motion may be diverging or discontinuous)";
    case CV_CONV_FAILURE: return "the Newton iteration failed to converge repeatedly (a stiff or diverging model?)";
    case CV_LINIT_FAIL:
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL: return "the linear solver failed (singular iteration matrix)";
    case CV_RHSFUNC_FAIL: return "the equations of motion could not be evaluated";
    case CV_FIRST_RHSFUNC_ERR: return "the equations of motion failed at the initial state";
    case CV_REPTD_RHSFUNC_ERR: return "the equations of motion failed repeatedly (non-finite values)";
    case CV_UNREC_RHSFUNC_ERR: return "the equations of motion failed and the solver could not recover";
    case CV_ILL_INPUT: return "invalid solver input";
    case CV_MEM_FAIL: return "out of memory";
    default: return {};
  }
}

struct CvodeIntegrator::Impl : SundialsOde {
  void* mem = nullptr;
  SUNNonlinearSolver NLS = nullptr;
  bool bdf = true;
  ~Impl() {
    if (mem) CVodeFree(&mem);
    if (NLS) SUNNonlinSolFree(NLS);
  }
};

CvodeIntegrator::CvodeIntegrator() : impl_(std::make_unique<Impl>()) {}
CvodeIntegrator::~CvodeIntegrator() = default;

Status CvodeIntegrator::init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop, const SimulationSettings& s) {
  Impl& m = *impl_;
  m.bdf = s.method == SimulationSettings::Method::Bdf;
  if (Status e = m.start(rhs, n, y0); !e) return e;
  m.mem = CVodeCreate(m.bdf ? CV_BDF : CV_ADAMS, m.ctx);
  if (!m.mem) return error("cannot create the CVODE solver");
  CVodeSetErrHandlerFn(m.mem, &SundialsOde::errHandler, static_cast<SundialsOde*>(&m));
  int flag = CVodeInit(m.mem, &SundialsOde::rhsFn, t0, m.y);
  if (flag != CV_SUCCESS) return errorAt("CVodeInit", describe(flag));
  CVodeSetUserData(m.mem, static_cast<SundialsOde*>(&m));
  flag = CVodeSStolerances(m.mem, s.rtol, s.atol);
  if (flag != CV_SUCCESS) return errorAt("tolerances", describe(flag));
  if (m.bdf && rhs.hasNewtonSolver() && s.jacobian == SimulationSettings::Jacobian::Analytic) {
    if (Status e = m.newtonSolver(); !e) return e;
    flag = CVodeSetLinearSolver(m.mem, m.LS, m.A);
    if (flag != CV_SUCCESS) return errorAt("linear solver", describe(flag));
    flag = CVodeSetLinSysFn(m.mem, &SundialsOde::cvLinSysFn);
    if (flag != CV_SUCCESS) return errorAt("Newton system", describe(flag));
  } else if (m.bdf) {
    if (Status e = m.denseSolver(); !e) return e;
    flag = CVodeSetLinearSolver(m.mem, m.LS, m.A);
    if (flag != CV_SUCCESS) return errorAt("linear solver", describe(flag));
    if (rhs.hasJacobian() && s.jacobian == SimulationSettings::Jacobian::Analytic) {
      flag = CVodeSetJacFn(m.mem, &SundialsOde::jacFn);
      if (flag != CV_SUCCESS) return errorAt("Jacobian", describe(flag));
    }
  } else {
    m.NLS = SUNNonlinSol_FixedPoint(m.y, 0, m.ctx);
    if (!m.NLS) return error("cannot create the fixed-point iteration");
    flag = CVodeSetNonlinearSolver(m.mem, m.NLS);
    if (flag != CV_SUCCESS) return errorAt("nonlinear solver", describe(flag));
  }
  if (s.max_step > 0.0) CVodeSetMaxStep(m.mem, s.max_step);
  if (s.initial_step > 0.0) CVodeSetInitStep(m.mem, s.initial_step);
  if (s.max_order > 0) {
    flag = CVodeSetMaxOrd(m.mem, s.max_order);
    if (flag != CV_SUCCESS) return errorAt("max_order", describe(flag));
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

bool CvodeIntegrator::localError(double* le) {
  Impl& m = *impl_;
  if (CVodeGetEstLocalErrors(m.mem, m.ytmp) != CV_SUCCESS) return false;
  std::memcpy(le, N_VGetArrayPointer(m.ytmp), sizeof(double) * static_cast<std::size_t>(m.n));
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
  std::string words = odeFlagWords(flag);
  if (words.empty()) {
    char* name = CVodeGetReturnFlagName(flag);  // malloc'd by SUNDIALS
    words = name ? name : "unknown CVODE error";
    std::free(name);
  }
  if (!impl_->last_message.empty()) words += " [" + impl_->last_message + "]";
  return words;
}

}  // namespace flexarm
