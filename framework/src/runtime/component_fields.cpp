// Component fields changed between steps (Simulation::SetComponentField): what a SofaPython3
// controller does when it writes a component's data, for the fields components declared
// changeable (BuildContext::AddRuntimeField).
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/log.h"
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
    std::erase_if(impl_->field_changes, [&](const Impl::FieldChange& change) {
      return change.component == component && change.field == field;
    });
    impl_->field_changes.push_back({std::string(component), std::string(field),
                                    std::vector<double>(values.begin(), values.end()),
                                    entry.mass != nullptr});
    if (entry.mass) {
      // A new M: the system's diagonal, then its solver initialised again, as at load, for
      // what it cached from M (inverse masses, the factorised mass or system matrix). Its
      // history is discarded: a multistep method starts up again from the current state, as
      // after a state set by the host (its stored accelerations were those of the old mass).
      SolverNode& node = impl_->nodes[static_cast<std::size_t>(entry.mass->system)];
      internal::AssembledSystem& system = impl_->assembled(node);
      system.SetDiagonalMass(entry.mass->first_dof, entry.mass->dof_mass);
      system.SetTime(impl_->time);
      node.solver->Initialize(*node.system, node.linear_solver.get());
      LogInfo(node.node_path + ": " + std::string(component) + "." + std::string(field) +
              " changed; the solver restarts from the current state");
    }
    return;
  }
  // The root's dt stays: the clock computes t0 + n·dt afresh each step, and multistep solvers
  // (BDF, Adams–Bashforth) keep previous steps taken with that dt.
  if (field == "dt" && component.find('/') == std::string_view::npos)
    throw UsageError(std::string(component) +
                     ".dt cannot be changed while the simulation runs (the step clock t0 + n·dt "
                     "and the multistep solvers' history assume one dt for the whole run: set dt "
                     "in the scene, or scene-runner's --dt)");
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
