// Simulation::ReplaceSolver: the host API's solver swap (scene-runner --solver does it at load).
#include "core/parameter_parsing.h"
#include "core/solver_replacement.h"
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
  // Each node's replacement keeps the parameters of the node's solver that it declares, the
  // given ones over them (core/solver_replacement.h); all are created first, so that a failure
  // leaves the simulation as it was.
  std::vector<SolverHandle> solvers;
  std::vector<std::vector<std::pair<std::string, std::string>>> kept_parameters;
  for (const SolverNode& node : impl_->nodes) {
    std::vector<internal::AttributeText> scene;
    for (const auto& [name, value] : node.solver_parameters) scene.push_back({name, value, 0});
    const internal::CarriedAttributes carried =
        internal::CarryOverSolverAttributes(entry->spec, scene, choice.parameters);
    std::vector<internal::ParameterProblem> problems;
    const Parameters parameters = internal::ParseAttributes(entry->spec, carried.kept, problems);
    if (!problems.empty()) fail("--param: " + problems.front().message);
    if (!carried.dropped.empty())
      LogWarn(node.node_path + ": " + entry->spec.name + " drops " + node.solver_type + "'s " +
              internal::DroppedText(carried.dropped) + " (" + entry->spec.name +
              " has no such parameter)");
    try {
      solvers.push_back(internal::ComponentRegistry::CreateSolver(*entry, parameters));
    } catch (const ConfigError& error) {
      fail(entry->spec.name + (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
           error.what());
    }
    kept_parameters.emplace_back();
    for (const internal::AttributeText& attribute : carried.kept)
      kept_parameters.back().emplace_back(attribute.name, attribute.value);
  }
  for (std::size_t k = 0; k < impl_->nodes.size(); ++k) {
    SolverNode& node = impl_->nodes[k];
    const SolverTraits traits = solvers[k]->RefineTraits(entry->traits);
    if ((traits.flags & kNeedsLinearSolver) && !node.linear_solver) {
      // A system with contacts needs a matrix-free solver: their stiffness is not in the
      // assembled pattern (docs/contact.md).
      const bool contacts =
          impl_->contact_stage && impl_->contact_stage->receives(static_cast<int>(k));
      node.linear_solver = registry.CreateDefaultLinearSolver(contacts);
      LogInfo(node.node_path + ": " + entry->spec.name + " uses a " + node.linear_solver->name() +
              " (the scene has no linear solver)");
    }
    node.solver = std::move(solvers[k]);
    node.solver_type = entry->spec.name;
    node.solver_parameters = std::move(kept_parameters[k]);
    node.solver->Initialize(*node.system, node.linear_solver.get());
  }
}

}  // namespace fluxion
