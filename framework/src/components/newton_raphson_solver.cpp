#include "components/newton_raphson_solver.h"

#include "fluxion/newton_raphson.h"

namespace fluxion::internal {

ComponentSpec NewtonRaphsonSolverComponent::Spec() {
  return ComponentSpec{
      .name = "NewtonRaphsonSolver",
      .kind = ComponentKind::kNonlinearSolver,
      .summary =
          "Newton–Raphson iterations (stopping rules, line search) of the ODE solver that "
          "links to it (BDFOdeSolver, StaticSolver)",
      .fields = NewtonRaphsonOptions::Fields(),
      .aliases = {}};
}

}  // namespace fluxion::internal
