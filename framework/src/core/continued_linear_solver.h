// A linear solver that carries what it keeps from solve to solve over to the solver that
// replaces it when a topological change rebuilds the scene (runtime/topology_adoption.cpp).
#pragma once

#include "fluxion/linear_solver.h"

namespace fluxion::internal {

/// SOFA never re-creates a linear solver when its topology changes: the component lives on and
/// keeps its counters. Fluxion's rebuild path (build/topology_rebuild.cpp) builds the changed scene
/// again, linear solvers included, so a built-in solver whose results depend on such a counter
/// takes it over from the running one — today CGLinearSolver's count of solves, which exempts
/// the first solve's first iteration from the tolerance and threshold tests (SOFA's
/// CGLinearSolver.inl, `timeStepCount`): a fresh count would exempt the first solve after every
/// change again, where SOFA (and Fluxion's in-place path, which keeps the solver) does not.
/// Internal: the rebuild asks for it with a dynamic_cast; a plugin's solver starts afresh.
class ContinuedLinearSolver {
 public:
  virtual ~ContinuedLinearSolver() = default;
  /// Takes over the counters of `previous`, the running scene's linear solver of the same node,
  /// before this one's first solve; nothing when `previous` is of another type.
  virtual void ContinueFrom(const LinearSolver& previous) = 0;

 protected:
  ContinuedLinearSolver() = default;
  ContinuedLinearSolver(const ContinuedLinearSolver&) = default;
  ContinuedLinearSolver& operator=(const ContinuedLinearSolver&) = default;
};

}  // namespace fluxion::internal
