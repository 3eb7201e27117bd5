#pragma once
// What the CVODE and ARKODE wrappers share (CvodeIntegrator.cpp, ArkodeIntegrator.cpp): the
// SUNDIALS objects around one ODE, the callbacks into the OdeRhs, and the words for the return
// flags the two solvers have in common (they have the same values; checked where ARKODE is used).
// Include only from those two files.
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cstring>
#include <string>

#include "solvers/OdeIntegrator.hpp"
#include "solvers/SundialsLinearSolver.hpp"
#include "base/Result.hpp"

namespace flexarm {

// The solver-independent part of an integrator's state. Pass `this` (as SundialsOde*) as the
// solver's user data and error-handler data. The derived destructor frees the solver memory first.
struct SundialsOde {
  SUNContext ctx = nullptr;
  N_Vector y = nullptr;
  N_Vector ytmp = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  OdeRhs* rhs = nullptr;
  int n = 0;
  std::string last_message;

  ~SundialsOde() {
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (ytmp) N_VDestroy(ytmp);
    if (ctx) SUNContext_Free(&ctx);
  }

  // Context, state vectors and the initial state y0 (n values).
  Status start(OdeRhs& ode, int size, const double* y0) {
    rhs = &ode;
    n = size;
    if (SUNContext_Create(nullptr, &ctx) != 0) return error("cannot create the SUNDIALS context");
    y = N_VNew_Serial(n, ctx);
    ytmp = N_VNew_Serial(n, ctx);
    if (!y || !ytmp) return error("cannot allocate the solver state");
    std::memcpy(N_VGetArrayPointer(y), y0, sizeof(double) * static_cast<std::size_t>(n));
    return {};
  }

  // The dense matrix and direct solver of the Newton iteration.
  Status denseSolver() {
    A = SUNDenseMatrix(n, n, ctx);
    LS = SUNLinSol_Dense(y, A, ctx);
    if (!A || !LS) return error("cannot create the dense linear solver");
    return {};
  }

  // The right-hand side's own Newton solver (OdeRhs::setupNewton/solveNewton) behind a SUNDIALS
  // linear solver: the integrator's linear-system callback (cvLinSysFn, arkLinSysFn) sets it up with
  // the integrator's gamma and Jacobian-reuse decision, and this solver only solves. The matrix the
  // integrator insists on is a 1 x 1 placeholder nothing reads.
  Status newtonSolver() {
    A = SUNDenseMatrix(1, 1, ctx);
    LS = newDirectLinearSolver(
        ctx, this, [](SUNLinearSolver, SUNMatrix) { return 0; },
        [](SUNLinearSolver S, SUNMatrix, N_Vector x, N_Vector b, realtype) {
          auto* self = static_cast<SundialsOde*>(S->content);
          N_VScale(1.0, b, x);
          const int r = self->rhs->solveNewton(N_VGetArrayPointer(x));
          return r == 0 ? SUNLS_SUCCESS : (r > 0 ? SUNLS_PACKAGE_FAIL_REC : SUNLS_PACKAGE_FAIL_UNREC);
        });
    if (!A || !LS) return error("cannot create the Newton solver");
    return {};
  }

  int linSys(realtype t, N_Vector y, booleantype jok, booleantype* jcur, realtype gamma) {
    bool evaluated = false;
    const int r = rhs->setupNewton(t, N_VGetArrayPointer(y), gamma, jok, &evaluated);
    *jcur = evaluated ? SUNTRUE : SUNFALSE;
    return r;
  }
  static int cvLinSysFn(realtype t, N_Vector y, N_Vector, SUNMatrix, booleantype jok, booleantype* jcur, realtype gamma,
                        void* user, N_Vector, N_Vector, N_Vector) {
    return static_cast<SundialsOde*>(user)->linSys(t, y, jok, jcur, gamma);
  }
  static int arkLinSysFn(realtype t, N_Vector y, N_Vector, SUNMatrix, SUNMatrix, booleantype jok, booleantype* jcur,
                         realtype gamma, void* user, N_Vector, N_Vector, N_Vector) {
    return static_cast<SundialsOde*>(user)->linSys(t, y, jok, jcur, gamma);
  }

  static int rhsFn(realtype t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<SundialsOde*>(user);
    return self->rhs->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  }

  static int jacFn(realtype t, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<SundialsOde*>(user);
    return self->rhs->jacobian(t, N_VGetArrayPointer(y), Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(J), self->n, self->n));
  }

  static void errHandler(int, const char* module, const char* function, char* msg, void* user) {
    auto* self = static_cast<SundialsOde*>(user);
    self->last_message = std::string(module ? module : "") + "::" + (function ? function : "") + ": " + (msg ? msg : "");
  }
};

// Words for a CVODE/ARKODE failure flag; empty for a flag they do not share.
std::string odeFlagWords(int flag);

}  // namespace flexarm
