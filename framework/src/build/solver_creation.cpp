#include "build/solver_creation.h"

#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

// The component of `kind` an ODE solver uses through its link field `link_field`: the one the link
// names ("@name" or "@path/name": the last segment names a component in the solver's subtree),
// else the first one in its node or below (SOFA's SearchDown); null (reported for a link to
// nothing) otherwise. `what` names the kind in the message.
const Component* FindLinked(BuildState& state, const Node& solver_node, ComponentKind kind,
                            const char* link_field, const char* what) {
  const Component& solver = *solver_node.solver;
  const std::string& link = solver.parameters.text(link_field);
  const std::string name = link.empty() ? "" : link.substr(link.find_last_of("@/") + 1);
  const Component* found = nullptr;
  ForEachNode(solver_node, [&](const Node& node) {
    for (const Component& c : node.components)
      if (!found && c.kind() == kind && (link.empty() || c.name == name)) found = &c;
  });
  if (found == nullptr && !link.empty())
    state.problems.Scene(solver.element->line, "'" + std::string(link_field) + "' link '" + link +
                                                   "' does not name a " + what + " in node '" +
                                                   solver_node.path + "' or below");
  return found;
}

// The parameters the solver is created with: its own, plus — for a solver declaring a
// `newtonSolver` link — the fields of the NewtonRaphsonSolver it links to (given or default, so
// that the solver reads them as its own); none found: the solver's own only, and it takes SOFA's
// defaults (fluxion/newton_raphson.h).
Parameters SolverParameters(BuildState& state, const Node& solver_node) {
  const Component& solver = *solver_node.solver;
  Parameters parameters = solver.parameters;
  if (solver.entry->spec.FindField("newtonSolver") == nullptr) return parameters;
  const Component* newton = FindLinked(state, solver_node, ComponentKind::kNonlinearSolver,
                                       "newtonSolver", "NewtonRaphsonSolver");
  if (newton == nullptr) return parameters;
  const Parameters& given = newton->parameters;
  for (const FieldSpec& field : newton->entry->spec.fields) {
    FieldValue value;
    switch (field.type) {
      case FieldType::kBool:
        value = given.flag(field.name);
        break;
      case FieldType::kInteger:
        value = given.integer(field.name);
        break;
      case FieldType::kReal:
        value = given.real(field.name);
        break;
      default:
        continue;  // NewtonRaphsonSolver has numbers and flags only
    }
    parameters.Set(field.name, value, given.source_text(field.name), given.has(field.name));
  }
  return parameters;
}

// Creates the component's object with its factory; a ConfigError becomes a scene problem at its
// line, a PluginError a plugin problem. Null after a problem.
template <class Create>
auto CreateReported(BuildState& state, const Component& component, Create create)
    -> decltype(create()) {
  try {
    return create();
  } catch (const ConfigError& error) {
    state.problems.Scene(component.element->line,
                         component.entry->spec.name +
                             (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
                             error.what());
  } catch (const PluginError& error) {
    state.problems.Plugin(component.element->line, error.what());
  }
  return nullptr;
}

}  // namespace

std::vector<SolverNode> CreateSolverNodes(BuildState& state) {
  std::vector<SolverNode> nodes;
  for (std::size_t k = 0; k < state.solver_owners.size(); ++k) {
    const Node& owner = *state.solver_owners[k];
    const Component& solver = *owner.solver;
    SolverNode node;
    node.solver_type = solver.entry->spec.name;
    for (const AttributeText& attribute : solver.element->attributes)
      if (attribute.name != "name")
        node.solver_parameters.emplace_back(attribute.name, attribute.value);
    node.node_path = owner.path;
    const Parameters parameters = SolverParameters(state, owner);
    node.solver = CreateReported(
        state, solver, [&] { return ComponentRegistry::CreateSolver(*solver.entry, parameters); });
    if (!node.solver) continue;
    // The instance's traits: its parameters may change what it needs (RefineTraits).
    const SolverTraits traits = node.solver->RefineTraits(solver.entry->traits);
    // A consistent mass (MeshMatrixMass, lumping=0) is inverted by the linear solver, also for
    // explicit solvers (SOFA's EulerExplicitSolver::solve).
    const bool mass_not_diagonal = !state.parts[k].mass_couplings.empty();
    const bool needs_linear_solver = (traits.flags & kNeedsLinearSolver) || mass_not_diagonal;
    if (const Component* linear = FindLinked(state, owner, ComponentKind::kLinearSolver,
                                             "linearSolver", "linear solver")) {
      node.linear_solver = CreateReported(state, *linear, [&] {
        return ComponentRegistry::CreateLinearSolver(*linear->entry, linear->parameters);
      });
    } else if (needs_linear_solver && state.options.solver) {
      // The scene was written for another solver: give the replacement a direct solver.
      LogInfo(owner.path + ": " + solver.entry->spec.name +
              " uses a SparseLDLSolver (the scene has no linear solver)");
      node.linear_solver = ComponentRegistry::CreateLinearSolver(
          *state.registry.Find("SparseLDLSolver"), Parameters());
    } else if (needs_linear_solver) {
      state.problems.Scene(
          solver.element->line,
          solver.entry->spec.name + " needs a linear solver" +
              ((traits.flags & kNeedsLinearSolver)
                   ? std::string()
                   : " to invert the consistent mass matrix of MeshMatrixMass (lumping=0)") +
              " (expected <CGLinearSolver/> or <SparseLDLSolver/> in node '" + owner.path + "'" +
              ((traits.flags & kNeedsLinearSolver) ? "" : ", or lumping=\"1\"") + ")");
    }
    // A solver that assembles matrices (an implicit one, or an inverse of a consistent mass)
    // makes the system build its sparse pattern when it is initialised: 4·d² entries per spring
    // (d = 3 at most) besides the diagonal. Refused here, before anything is allocated, when the
    // scene with that pattern would exceed the memory budget.
    // A linear solver that takes the matrix as an operator (CG) with a diagonal mass needs no
    // pattern: its products use per-spring tangent blocks (mechanics/field_tangent.h), 2·6
    // doubles per spring at most (K and B).
    const bool matrix_free = node.linear_solver != nullptr &&
                             node.linear_solver->accepts_operator() &&
                             state.parts[k].mass_couplings.empty();
    const bool uses_matrices = !(traits.flags & kExplicitMethod) || needs_linear_solver;
    if (uses_matrices) {
      const double entries = matrix_free ? 0.0
                                         : 36.0 * static_cast<double>(state.total_springs) +
                                               static_cast<double>(state.parts[k].num_dofs);
      const double bytes = state.estimated_bytes() + entries * kBytesPerMatrixEntry +
                           (matrix_free ? 96.0 * static_cast<double>(state.total_springs) : 0.0);
      if (bytes > state.memory.bytes) {
        state.problems.Scene(
            solver.element->line,
            solver.entry->spec.name +
                (matrix_free ? std::string(" needs its tangent blocks")
                             : " assembles matrices of about " + FormatReal(entries) + " entries") +
                ": the scene would take about " + FormatBytes(bytes) +
                " of memory (expected at most " + state.MemoryBudgetText() + ")");
        continue;
      }
    }
    node.system = std::make_unique<AssembledSystem>(std::move(state.parts[k]));
    node.state.x.resize(node.system->num_dofs());
    node.state.v.resize(node.system->num_dofs());
    for (std::size_t o = 0; o < state.objects.size(); ++o) {
      const ObjectModel& object = state.objects[o];
      if (object.system != static_cast<int>(k) || object.mapped_from >= 0) continue;
      node.state.x.segment(object.offset, object.num_dofs()) = object.position;
      node.state.v.segment(object.offset, object.num_dofs()) = object.velocity;
      node.objects.push_back(static_cast<int>(o));
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace fluxion::internal
