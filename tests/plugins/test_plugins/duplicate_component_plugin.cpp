// A valid plugin that registers "EulerExplicitSolver" again: loading it beside the bundled
// euler_explicit plugin must be refused, naming both files.
#include "test_solver.h"

FLUXION_PLUGIN("test_duplicate_component", "1.0.0") {
  registrar.AddSolver<fluxion_test::TestSolver>(
      fluxion_test::TestSolver::Spec("EulerExplicitSolver"), fluxion_test::TestSolver::kTraits);
}
