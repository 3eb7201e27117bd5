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
