// A valid plugin for drop-in tests: registers "DropInSolver".
#include "test_solver.h"

FLUXION_PLUGIN("test_drop_in", "2.3.4") {
  registrar.AddSolver<fluxion_test::TestSolver>(fluxion_test::TestSolver::Spec("DropInSolver"),
                                                fluxion_test::TestSolver::kTraits);
}
