// A plugin whose registration throws after registering one component: the host must refuse the
// whole plugin (none of its components usable) and keep running.
#include <stdexcept>

#include "test_solver.h"

FLUXION_PLUGIN("test_throwing_registration", "1.0.0") {
  registrar.AddSolver<fluxion_test::TestSolver>(fluxion_test::TestSolver::Spec("ThrowingSolver"),
                                                fluxion_test::TestSolver::kTraits);
  throw std::runtime_error("registration failed on purpose");
}
