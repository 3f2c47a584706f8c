// Simulation::ReplaceSolver: the host API's solver swap (scene-runner --solver does it at load).
#include "core/parameter_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/simulation.h"
#include "fluxion/text.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

void Simulation::ReplaceSolver(const SolverChoice& choice) {
  if (!impl_->registry)
    throw UsageError("ReplaceSolver: this simulation has no component registry");
  const internal::ComponentRegistry& registry = *impl_->registry;
  const ComponentInfo* entry = registry.Find(choice.name);
  const auto fail = [](const std::string& message) {
    throw SceneError({SceneDiagnostic{"--solver", 0, message}});
  };
  if (entry == nullptr || entry->spec.kind != ComponentKind::kOdeSolver) {
    const std::string suggestion = SuggestClosest(choice.name, registry.Names());
    fail(choice.name + ": no ODE solver of that name" +
         (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)"));
  }
  std::vector<internal::AttributeText> attributes;
  for (const auto& [name, value] : choice.parameters) attributes.push_back({name, value, 0});
  std::vector<internal::ParameterProblem> problems;
  const Parameters parameters = internal::ParseAttributes(entry->spec, attributes, problems);
  if (!problems.empty()) fail("--param: " + problems.front().message);

  // Create every replacement first, so that a failure leaves the simulation as it was.
  std::vector<SolverHandle> solvers;
  for (std::size_t k = 0; k < impl_->nodes.size(); ++k) {
    try {
      solvers.push_back(internal::ComponentRegistry::CreateSolver(*entry, parameters));
    } catch (const ConfigError& error) {
      fail(entry->spec.name + (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
           error.what());
    }
  }
  for (std::size_t k = 0; k < impl_->nodes.size(); ++k) {
    SolverNode& node = impl_->nodes[k];
    const SolverTraits traits = solvers[k]->RefineTraits(entry->traits);
    if ((traits.flags & kNeedsLinearSolver) && !node.linear_solver) {
      // A system with contacts needs a matrix-free solver: their stiffness is not in the
      // assembled pattern (docs/contact.md).
      const bool contacts =
          impl_->contact_stage && impl_->contact_stage->receives(static_cast<int>(k));
      const char* linear = contacts ? "CGLinearSolver" : "SparseLDLSolver";
      const ComponentInfo* found = registry.Find(linear);
      FLUXION_DEMAND(found != nullptr);
      LogInfo(node.node_path + ": " + entry->spec.name + " uses a " + linear +
              " (the scene has no linear solver)");
      std::vector<internal::ParameterProblem> none;  // the defaults parse
      node.linear_solver = internal::ComponentRegistry::CreateLinearSolver(
          *found, internal::ParseAttributes(found->spec, {}, none));
    }
    node.solver = std::move(solvers[k]);
    node.solver_type = entry->spec.name;
    node.solver_parameters = choice.parameters;
    node.solver->Initialize(*node.system, node.linear_solver.get());
  }
}

}  // namespace fluxion
