#include "build/solver_creation.h"

#include <algorithm>

#include "fluxion/log.h"
#include "fluxion/text.h"
#include "runtime/recording_linear_solver.h"

namespace fluxion::internal {

namespace {

// The component a link names, seen from `from` (SOFA's object paths): "@name" is a component of
// that name in `from` or below (SOFA's SearchDown, as FindLinked); "@a/b/name", "@../name" and
// "@/a/name" walk the nodes by name and take the component of the last node reached. Null when
// nothing of that name is found; `where` gets the component's node.
const Component* FindComponentByLink(const BuildState& state, const Node& from,
                                     const std::string& link, const Node** where) {
  if (link.size() < 2 || link.front() != '@') return nullptr;
  std::string path = link.substr(1);
  const std::size_t slash = path.find_last_of('/');
  const Component* found = nullptr;
  if (slash == std::string::npos) {
    ForEachNode(from, [&](const Node& node) {
      for (const Component& c : node.components)
        if (found == nullptr && c.name == path) {
          found = &c;
          if (where != nullptr) *where = &node;
        }
    });
    return found;
  }
  const Node* node = &from;
  std::string_view nodes(path.data(), slash);
  if (!nodes.empty() && nodes.front() == '/') {
    node = state.root.get();
    nodes.remove_prefix(1);
  }
  while (!nodes.empty() && node != nullptr) {
    const std::size_t end = std::min(nodes.find('/'), nodes.size());
    const std::string_view segment = nodes.substr(0, end);
    nodes.remove_prefix(std::min(end + 1, nodes.size()));
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      node = node->parent;
      continue;
    }
    node = node->Child(std::string(segment));
  }
  if (node == nullptr) return nullptr;
  found = node->FindComponent(path.substr(slash + 1));
  if (found != nullptr && where != nullptr) *where = node;
  return found;
}

// Whether `candidate` is named by a linear-solver link (FieldSpec::LinkTo(…, kLinearSolver), a
// PCGLinearSolver's `preconditioner`) of a linear solver in `node` or below: a linked solver is
// not the ODE solver's linear solver (SOFA takes the first linear solver of the node, which in its
// scenes is the PCG, declared before its preconditioner).
bool IsLinkedSolver(const BuildState& state, const Node& node, const Component& candidate) {
  bool named = false;
  ForEachNode(node, [&](const Node& n) {
    for (const Component& c : n.components) {
      if (named || &c == &candidate || c.kind() != ComponentKind::kLinearSolver) continue;
      for (const FieldSpec& field : c.entry->spec.fields)
        if (field.link_target == ComponentKind::kLinearSolver &&
            FindComponentByLink(state, n, c.parameters.text(field.name), nullptr) == &candidate)
          named = true;
    }
  });
  return named;
}

// The component of `kind` an ODE solver uses through its link field `link_field`: the one the link
// names ("@name" or "@path/name": the last segment names a component in the solver's subtree),
// else the first one in its node or below (SOFA's SearchDown) that another linear solver
// does not link (a PCGLinearSolver's preconditioner); null (reported for a link to nothing)
// otherwise. `what` names the kind in the message; `where` (if not null) gets the component's node.
const Component* FindLinked(BuildState& state, const Node& solver_node, ComponentKind kind,
                            const char* link_field, const char* what,
                            const Node** where = nullptr) {
  const Component& solver = *solver_node.solver;
  const std::string& link = solver.parameters.text(link_field);
  const std::string name = link.empty() ? "" : link.substr(link.find_last_of("@/") + 1);
  const Component* found = nullptr;
  ForEachNode(solver_node, [&](const Node& node) {
    for (const Component& c : node.components)
      if (!found && c.kind() == kind && (link.empty() || c.name == name) &&
          (!link.empty() || kind != ComponentKind::kLinearSolver ||
           !IsLinkedSolver(state, solver_node, c))) {
        found = &c;
        if (where != nullptr) *where = &node;
      }
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

// True when the component declares a link the builder resolves to a linear solver.
bool LinksLinearSolver(const ComponentSpec& spec) {
  for (const FieldSpec& field : spec.fields)
    if (field.link_target == ComponentKind::kLinearSolver) return true;
  return false;
}

// How often a linear solver should refactorise what it links (LinkedLinearSolver::
// refresh_interval): the assemblingRate of the linear system component its `linearSystem` link
// names, else of the first one of its node (SOFA's MatrixLinearSolver::doCheckLinearSystem looks
// in the node only); none: SOFA's default system, every assembly.
long RefreshInterval(BuildState& state, const Node& node, const Component& linking) {
  const Component* system = nullptr;
  if (linking.entry->spec.FindField("linearSystem") != nullptr)
    system = FindComponentByLink(state, node, linking.parameters.text("linearSystem"), nullptr);
  if (system != nullptr && system->kind() != ComponentKind::kLinearSystem) system = nullptr;
  for (const Component& c : node.components)
    if (system == nullptr && c.kind() == ComponentKind::kLinearSystem) system = &c;
  return system == nullptr ? 1 : std::max(1L, system->parameters.integer("assemblingRate"));
}

// Resolves every link of `linking` (component in `node`, created as `solver`) declared with
// FieldSpec::LinkTo(…, kLinearSolver) — SOFA's PCGLinearSolver `preconditioner` — and hands the
// linked solver, created from its own attributes, to `solver` (LinearSolver::AttachLinked). A link
// to nothing, to the component itself, to something that is not a linear solver or to a solver
// that links one in turn is a scene problem at the linking component's line. An empty link:
// nothing attached (PCG is then plain conjugate gradient, as SOFA's).
void AttachLinkedSolvers(BuildState& state, const Node& node, const Component& linking,
                         LinearSolver& solver) {
  const ComponentSpec& spec = linking.entry->spec;
  for (const FieldSpec& field : spec.fields) {
    if (field.link_target != ComponentKind::kLinearSolver) continue;
    const std::string link = linking.parameters.text(field.name);
    if (link.empty()) continue;
    const auto problem = [&](const std::string& what) {
      state.problems.Scene(linking.element->line,
                           spec.name + " '" + field.name + "' link '" + link + "' " + what +
                               " (expected a linear solver such as AsyncSparseLDLSolver, "
                               "SparseLDLSolver, JacobiPreconditioner or "
                               "BlockJacobiPreconditioner)");
    };
    if (link.front() != '@') return problem("does not start with '@'");
    const Component* target = FindComponentByLink(state, node, link, nullptr);
    if (target == nullptr)
      return problem("does not name a component in node '" + node.path + "' or below");
    if (target == &linking) return problem("names the " + spec.name + " itself");
    if (target->kind() != ComponentKind::kLinearSolver)
      return problem("names a " + target->entry->spec.name + ", which is not a linear solver");
    if (LinksLinearSolver(target->entry->spec))
      return problem("names a " + target->entry->spec.name + ", which cannot be a " + field.name +
                     " in Fluxion");
    LinearSolverHandle linked = CreateReported(state, *target, [&] {
      return ComponentRegistry::CreateLinearSolver(*target->entry, target->parameters);
    });
    if (linked)
      solver.AttachLinked({.field = field.name,
                           .solver = std::move(linked),
                           .refresh_interval = RefreshInterval(state, node, linking)});
  }
}

}  // namespace

std::vector<SolverNode> CreateSolverNodes(BuildState& state) {
  std::vector<SolverNode> nodes;
  // The objects each system integrates (mapped ones have no DOFs of their own), listed in one
  // pass over the objects rather than one pass per system.
  std::vector<std::vector<int>> integrated(state.solver_owners.size());
  for (std::size_t o = 0; o < state.objects.size(); ++o) {
    const ObjectModel& object = state.objects[o];
    if (object.system >= 0 && object.mapped_from < 0)
      integrated[static_cast<std::size_t>(object.system)].push_back(static_cast<int>(o));
  }
  for (std::size_t k = 0; k < state.solver_owners.size(); ++k) {
    const Node& owner = *state.solver_owners[k];
    const Component& solver = *owner.solver;
    SolverNode node;
    node.solver_type = solver.entry->spec.name;
    // The parameters the solver was created with (the scene's, or --solver's: the replaced
    // element's attributes are not this solver's), without links, which name the scene's
    // components: what recreates the solver on another system (the stability check).
    for (const std::string& name : solver.parameters.given_names())
      if (solver.entry->spec.FindField(name)->type != FieldType::kLink)
        node.solver_parameters.emplace_back(name, solver.parameters.source_text(name));
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
    const Node* linear_node = nullptr;
    if (const Component* linear = FindLinked(state, owner, ComponentKind::kLinearSolver,
                                             "linearSolver", "linear solver", &linear_node)) {
      node.linear_solver = CreateReported(state, *linear, [&] {
        return ComponentRegistry::CreateLinearSolver(*linear->entry, linear->parameters);
      });
      if (node.linear_solver)
        AttachLinkedSolvers(state, *linear_node, *linear, *node.linear_solver);
    } else if (needs_linear_solver && state.options.solver) {
      // The scene was written for another solver: give the replacement the registry's direct
      // solver (CheckContactSolvers swaps it for the operator one when contacts reach it).
      node.linear_solver = state.registry.CreateDefaultLinearSolver(false);
      LogInfo(owner.path + ": " + solver.entry->spec.name + " uses a " +
              node.linear_solver->name() + " (the scene has no linear solver)");
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
    for (const int o : integrated[k]) {
      const ObjectModel& object = state.objects[static_cast<std::size_t>(o)];
      node.state.x.segment(object.offset, object.num_dofs()) = object.position;
      node.state.v.segment(object.offset, object.num_dofs()) = object.velocity;
      node.objects.push_back(o);
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

void RecordLinearSystems(const BuildState& state, std::vector<SolverNode>& nodes) {
  for (SolverNode& node : nodes) {
    if (!node.linear_solver) continue;
    for (const Node* owner : state.solver_owners) {
      if (owner->path != node.node_path) continue;
      // The reader drops ignored components: the node's description still lists them.
      const std::vector<ElementDescription>& elements = owner->description->components;
      const bool records =
          std::any_of(elements.begin(), elements.end(), [](const ElementDescription& element) {
            return element.type == "MatrixLinearSystem" ||
                   element.type == "TypedMatrixLinearSystem";
          });
      if (records)
        node.linear_solver =
            LinearSolverHandle(new RecordingLinearSolver(std::move(node.linear_solver)),
                               PinnedDeleter<LinearSolver>{});
    }
  }
}

}  // namespace fluxion::internal
