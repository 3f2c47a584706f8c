// A plugin built "against another ABI": its descriptor is written by hand (instead of with
// FLUXION_PLUGIN) to claim ABI version 999. The host must refuse it before calling anything.
#include "test_solver.h"

namespace {
void RegisterComponents(fluxion::PluginRegistrar& registrar) {
  registrar.AddSolver<fluxion_test::TestSolver>(fluxion_test::TestSolver::Spec("AbiMismatchSolver"),
                                                fluxion_test::TestSolver::kTraits);
}
}  // namespace

extern "C" __attribute__((visibility("default")))
const FluxionPluginDescriptor FLUXION_PLUGIN_DESCRIPTOR_SYMBOL = {
    FLUXION_PLUGIN_MAGIC, 999, "test_abi_mismatch", "1.0.0", "99.0.0", &RegisterComponents};
