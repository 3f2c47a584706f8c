// SOFA's NewtonRaphsonSolver: the stopping rules of the Newton iterations of an ODE solver.
// Source: Sofa/Component/ODESolver/Backward/src/sofa/component/odesolver/backward/
// NewtonRaphsonSolver.{h,cpp} and convergence/*.h (v26.06).
#pragma once

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// A component of kind kNonlinearSolver holding the fields of fluxion::NewtonRaphsonOptions.
/// It is never built: the builder hands its fields to the ODE solver of its node or above that
/// declares a `newtonSolver` link (solver_creation.cpp), and the solver runs the iterations
/// (fluxion/newton_raphson.h). SOFA's read-only outputs (`status`, `residualGraph`) are not
/// fields. Where Fluxion differs: a NewtonRaphsonSolver no solver uses is accepted and has no
/// effect, as in SOFA; SOFA's BDFOdeSolver without one is invalid, Fluxion's uses the defaults
/// (as SOFA's StaticSolver does, which creates one).
class NewtonRaphsonSolverComponent {
 public:
  static ComponentSpec Spec();
};

}  // namespace fluxion::internal
