// Component fields changed between steps (Simulation::SetComponentField): what a SofaPython3
// controller does when it writes a component's data, for the fields components declared
// changeable (BuildContext::AddRuntimeField).
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/simulation.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

void Simulation::SetComponentField(std::string_view component, std::string_view field,
                                   std::span<const double> values) {
  for (internal::RuntimeField& entry : impl_->runtime_fields) {
    if (entry.component != component || entry.field != field) continue;
    try {
      entry.set(values);
    } catch (const ConfigError& error) {
      // Between steps a refused value is the caller's mistake, not the scene's.
      throw UsageError(std::string(component) + "." + std::string(field) + ": " + error.what());
    }
    return;
  }
  // Refused, naming what can be changed: a value silently kept would be wrong physics.
  const std::vector<std::string> changeable = RuntimeFields(component);
  std::string expected;
  for (const std::string& name : changeable) expected += (expected.empty() ? "" : ", ") + name;
  throw UsageError(std::string(component) + "." + std::string(field) +
                   " cannot be changed while the simulation runs (" +
                   (changeable.empty() ? std::string("no field of this component can")
                                       : "fields that can: " + expected) +
                   ")");
}

std::vector<std::string> Simulation::RuntimeFields(std::string_view component) const {
  std::vector<std::string> fields;
  for (const internal::RuntimeField& entry : impl_->runtime_fields)
    if (entry.component == component) fields.push_back(entry.field);
  return fields;
}

}  // namespace fluxion
