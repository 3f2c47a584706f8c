// A descriptor written by hand instead of with FLUXION_PLUGIN, to stamp the library with
// FLUXION_ABI_VERSION + 1, as if it had been built against a future, incompatible Fluxion.
#include <fluxion/plugin.h>

namespace {
void RegisterNothing(fluxion::PluginRegistrar& /*registrar*/) {}
}  // namespace

extern "C" __attribute__((visibility("default")))
const FluxionPluginDescriptor FLUXION_PLUGIN_DESCRIPTOR_SYMBOL = {
    FLUXION_PLUGIN_MAGIC, FLUXION_ABI_VERSION + 1, "stale_abi", "0.0.1", "99.0.0",
    &RegisterNothing};
