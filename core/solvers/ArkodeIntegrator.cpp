#include "solvers/ArkodeIntegrator.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>
#include <cvode/cvode.h>

#include <cstdlib>
#include <cstring>

#include "solvers/SundialsOde.hpp"

namespace flexarm {

struct ArkodeIntegrator::Impl : SundialsOde {
  void* mem = nullptr;

  ~Impl() {
    if (mem) ARKStepFree(&mem);
  }
};

// odeFlagWords() speaks CVODE's flags: ARKODE's must have the same values.
static_assert(ARK_TOO_MUCH_WORK == CV_TOO_MUCH_WORK && ARK_TOO_MUCH_ACC == CV_TOO_MUCH_ACC && ARK_ERR_FAILURE == CV_ERR_FAILURE &&
                  ARK_CONV_FAILURE == CV_CONV_FAILURE && ARK_LINIT_FAIL == CV_LINIT_FAIL && ARK_LSETUP_FAIL == CV_LSETUP_FAIL &&
                  ARK_LSOLVE_FAIL == CV_LSOLVE_FAIL && ARK_RHSFUNC_FAIL == CV_RHSFUNC_FAIL &&
                  ARK_FIRST_RHSFUNC_ERR == CV_FIRST_RHSFUNC_ERR && ARK_REPTD_RHSFUNC_ERR == CV_REPTD_RHSFUNC_ERR &&
                  ARK_UNREC_RHSFUNC_ERR == CV_UNREC_RHSFUNC_ERR && ARK_ILL_INPUT == CV_ILL_INPUT && ARK_MEM_FAIL == CV_MEM_FAIL,
              "ARKODE and CVODE return flags differ");

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

ButcherTable esdirkTable(int max_order) {
  ARKodeButcherTable B = ARKodeButcherTable_LoadDIRK(dirkTable(max_order));
  ButcherTable t;
  if (!B) return t;
  const int s = B->stages;
  t.order = B->q;
  t.embedded_order = B->p;
  t.A.assign(static_cast<std::size_t>(s), std::vector<double>(static_cast<std::size_t>(s)));
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < s; ++j) t.A[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = B->A[i][j];
  t.b.assign(B->b, B->b + s);
  t.c.assign(B->c, B->c + s);
  if (B->d) t.d.assign(B->d, B->d + s);
  ARKodeButcherTable_Free(B);
  return t;
}

ArkodeIntegrator::ArkodeIntegrator() : impl_(std::make_unique<Impl>()) {}
ArkodeIntegrator::~ArkodeIntegrator() = default;

Status ArkodeIntegrator::init(OdeRhs& rhs, int n, const double* y0, double t0, double t_stop, const SimulationSettings& s) {
  Impl& m = *impl_;
  if (Status e = m.start(rhs, n, y0); !e) return e;
  m.mem = ARKStepCreate(nullptr, &SundialsOde::rhsFn, t0, m.y, m.ctx);  // fully implicit: no explicit part
  if (!m.mem) return error("cannot create the ARKODE solver");
  ARKStepSetErrHandlerFn(m.mem, &SundialsOde::errHandler, static_cast<SundialsOde*>(&m));
  ARKStepSetUserData(m.mem, static_cast<SundialsOde*>(&m));
  int flag = ARKStepSStolerances(m.mem, s.rtol, s.atol);
  if (flag != ARK_SUCCESS) return errorAt("tolerances", describe(flag));
  flag = ARKStepSetTableNum(m.mem, dirkTable(s.max_order), ARKODE_ERK_NONE);
  if (flag != ARK_SUCCESS) return errorAt("method table", describe(flag));
  const bool analytic = s.jacobian == SimulationSettings::Jacobian::Analytic;
  if (Status e = rhs.hasNewtonSolver() && analytic ? m.newtonSolver() : m.denseSolver(); !e) return e;
  flag = ARKStepSetLinearSolver(m.mem, m.LS, m.A);
  if (flag != ARK_SUCCESS) return errorAt("linear solver", describe(flag));
  if (rhs.hasNewtonSolver() && analytic) {
    flag = ARKStepSetLinSysFn(m.mem, &SundialsOde::arkLinSysFn);
    if (flag != ARK_SUCCESS) return errorAt("Newton system", describe(flag));
  } else if (rhs.hasJacobian() && analytic) {
    flag = ARKStepSetJacFn(m.mem, &SundialsOde::jacFn);
    if (flag != ARK_SUCCESS) return errorAt("Jacobian", describe(flag));
  }
  if (s.max_step > 0.0) ARKStepSetMaxStep(m.mem, s.max_step);
  if (s.initial_step > 0.0) ARKStepSetInitStep(m.mem, s.initial_step);
  ARKStepSetMaxHnilWarns(m.mem, -1);
  // Stage predictor: the interpolant of the last step at its highest order (ARKODE's option 1); on
  // the spatial RRR arm (Moolam et al.) it halves the Newton iterations of the trivial predictor.
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

bool ArkodeIntegrator::localError(double* le) {
  Impl& m = *impl_;
  if (ARKStepGetEstLocalErrors(m.mem, m.ytmp) != ARK_SUCCESS) return false;
  std::memcpy(le, N_VGetArrayPointer(m.ytmp), sizeof(double) * static_cast<std::size_t>(m.n));
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
  std::string words = odeFlagWords(flag);
  if (words.empty()) {
    char* name = ARKStepGetReturnFlagName(flag);  // malloc'd by SUNDIALS
    words = name ? name : "unknown ARKODE error";
    std::free(name);
  }
  if (!impl_->last_message.empty()) words += " [" + impl_->last_message + "]";
  return words;
}

}  // namespace flexarm
