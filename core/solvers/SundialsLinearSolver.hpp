#pragma once
// A SUNDIALS direct linear solver whose setup and solve are FlexArm's own (the condensed Newton
// solve of CVODE and ARKODE, SundialsOde.hpp; Eigen's LU for IDA, IdaIntegrator.cpp): the
// boilerplate of the SUNLinearSolver object, in one place.
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

namespace flexarm {

using LinearSolverSetup = int (*)(SUNLinearSolver, SUNMatrix);
using LinearSolverSolve = int (*)(SUNLinearSolver, SUNMatrix, N_Vector x, N_Vector b, realtype tol);

// A direct, matrix-based solver with `content` (read back as S->content in setup and solve); null
// when SUNDIALS cannot allocate it. Freed by SUNLinSolFree.
inline SUNLinearSolver newDirectLinearSolver(SUNContext ctx, void* content, LinearSolverSetup setup, LinearSolverSolve solve) {
  SUNLinearSolver LS = SUNLinSolNewEmpty(ctx);
  if (!LS) return nullptr;
  LS->content = content;
  LS->ops->gettype = [](SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; };
  LS->ops->getid = [](SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; };
  LS->ops->setup = setup;
  LS->ops->solve = solve;
  LS->ops->lastflag = [](SUNLinearSolver) -> sunindextype { return 0; };
  LS->ops->free = [](SUNLinearSolver S) {
    SUNLinSolFreeEmpty(S);
    return 0;
  };
  return LS;
}

}  // namespace flexarm
