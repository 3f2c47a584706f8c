#include "build/collision_pipeline.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "core/parameter_parsing.h"
#include "fluxion/log.h"

namespace fluxion::internal {

const ElementDescription* FindCollisionPipeline(const NodeDescription& root) {
  static constexpr std::array<std::string_view, 3> kPipelines = {
      "CollisionPipeline", "CompositeCollisionPipeline", "DefaultPipeline"};
  for (const ElementDescription& element : root.components)
    for (const std::string_view pipeline : kPipelines)
      if (element.type == pipeline) return &element;
  for (const NodeDescription& child : root.children)
    if (const ElementDescription* found = FindCollisionPipeline(child)) return found;
  return nullptr;
}

namespace {

using collision::ElementKind;
using collision::IntersectionSettings;

// The first component of `node` whose spec is one of `names`, or null.
const Component* FindIn(const Node& node, std::initializer_list<std::string_view> names) {
  for (const Component& c : node.components)
    for (const std::string_view name : names)
      if (c.entry->spec.name == name) return &c;
  return nullptr;
}

// The pipeline's intersection method and its fields (detection.h: IntersectionSettings).
IntersectionSettings ReadIntersection(const Node& node) {
  IntersectionSettings settings;
  const Component* c = FindIn(node, {"MinProximityIntersection", "NewProximityIntersection",
                                     "LocalMinDistance", "DiscreteIntersection"});
  if (c == nullptr) return settings;
  const Parameters& p = c->parameters;
  const std::string& name = c->entry->spec.name;
  if (name == "DiscreteIntersection") {
    settings.method = IntersectionSettings::Method::kDiscrete;
    return settings;
  }
  settings.alarm_distance = p.real("alarmDistance");
  settings.contact_distance = p.real("contactDistance");
  if (name == "MinProximityIntersection") {
    settings.use_sphere_triangle = p.flag("useSphereTriangle");
    settings.use_point_point = p.flag("usePointPoint");
    settings.use_surface_normals = p.flag("useSurfaceNormals");
    settings.use_line_point = p.flag("useLinePoint");
    settings.use_line_line = p.flag("useLineLine");
  } else if (name == "NewProximityIntersection") {
    settings.method = IntersectionSettings::Method::kNewProximity;
    settings.use_line_line = p.flag("useLineLine");
  } else {
    settings.method = IntersectionSettings::Method::kLocalMinDistance;
    settings.filter_intersection = p.flag("filterIntersection");
    settings.angle_cone = p.real("angleCone");
    settings.cone_factor = p.real("coneFactor");
    settings.use_lmd_filters = p.flag("useLMDFilters");
  }
  return settings;
}

// What a SOFA response other than the penalty one needs, for the refusal.
std::string MissingFor(const std::string& response) {
  static const std::map<std::string, std::string, std::less<>> kMissing = {
      {"FrictionContactConstraint",
       "constraint-based contact: a FreeMotionAnimationLoop and a "
       "constraint solver (GenericConstraintSolver, LCPConstraintSolver)"},
      {"UnilateralContactConstraint",
       "constraint-based contact: a FreeMotionAnimationLoop and a "
       "constraint solver"},
      {"StickContactConstraint",
       "constraint-based contact: a FreeMotionAnimationLoop and a "
       "constraint solver"},
      {"AttachBodyConstraint", "bilateral constraints and a constraint solver"},
      {"RayContact", "ray models (picking)"},
  };
  const auto found = kMissing.find(response);
  return found != kMissing.end() ? found->second : "a contact response class it does not have";
}

// The response manager: only SOFA's penalty response (also called "default") is supported.
void CheckResponse(BuildState& state, const Node& node) {
  const Component* manager = FindIn(node, {"CollisionResponse", "RuleBasedContactManager"});
  if (manager == nullptr) {
    state.problems.Scene(node.components.front().element->line,
                         "the collision pipeline of node '" + node.path +
                             "' has no contact manager (expected <CollisionResponse "
                             "response=\"PenalityContactForceField\"/> in the same node)");
    return;
  }
  const int line = manager->element->line;
  const std::string& response = manager->parameters.text("response");
  if (response != kPenaltyResponse && response != "default")
    state.problems.Scene(line, manager->element->type + ": response '" + response +
                                   "' is not supported by Fluxion, which lacks " +
                                   MissingFor(response) +
                                   " (expected response=\"PenalityContactForceField\")");
  if (manager->parameters.has("rules") && !manager->parameters.text("rules").empty())
    state.problems.Scene(line,
                         "RuleBasedContactManager: 'rules' are not supported (expected "
                         "one response for every pair: 'response' alone)");
}

ElementKind KindOf(const std::string& spec_name) {
  if (spec_name == "TriangleCollisionModel") return ElementKind::kTriangle;
  if (spec_name == "LineCollisionModel") return ElementKind::kLine;
  if (spec_name == "SphereCollisionModel") return ElementKind::kSphere;
  return ElementKind::kPoint;
}

// The detection's description of collision model `c` of `node` (SOFA's CollisionModel data).
collision::CollisionModelDescription Describe(const Node& node, const Component& c,
                                              const ObjectModel& object, const Node& owner,
                                              int node_index) {
  const Parameters& p = c.parameters;
  collision::CollisionModelDescription model;
  model.path = node.path + "/" + c.name;
  model.kind = KindOf(c.entry->spec.name);
  model.node = node_index;
  model.topology.num_points = object.num_points;
  // SOFA's getContext()->getMeshTopology(): the node's topology, else the nearest ancestor's —
  // searched up to the node of the model's object only: a topology above the object describes
  // other points (SOFA's examples put sphere models with their own object under a grid).
  const Node* with_topology = &node;
  while (with_topology != nullptr && !with_topology->topology && with_topology != &owner)
    with_topology = with_topology->parent;
  if (with_topology != nullptr && !with_topology->topology) with_topology = nullptr;
  if (with_topology != nullptr) {
    const Topology& topology = *with_topology->topology;
    model.topology.edges = topology.edges;
    model.topology.triangles = topology.triangles;
    model.topology.quads = topology.quads;
  }
  if (model.kind == ElementKind::kSphere) {
    model.radius = p.real("radius");
    if (p.has_value("listRadius")) model.radii = p.reals("listRadius");
  }
  model.active = p.flag("active");
  model.moving = p.flag("moving");
  model.simulated = p.flag("simulated");
  model.self_collision = p.flag("selfCollision");
  if (p.has_value("bothSide")) model.both_side = p.flag("bothSide");
  // LocalMinDistance filters a point's contacts when a line model is in or above its node
  // (SOFA's node->get<LineCollisionModel>(), which searches up).
  for (const Node* n = &node; n != nullptr && !model.line_model_in_context; n = n->parent)
    model.line_model_in_context = FindIn(*n, {"LineCollisionModel"}) != nullptr;
  model.contact_distance = p.real("contactDistance");
  model.contact_stiffness = p.real("contactStiffness");
  model.contact_friction = p.real("contactFriction");
  if (p.has_value("group"))
    for (const Index group : p.indices("group")) model.groups.push_back(static_cast<int>(group));
  return model;
}

// SOFA's TetrahedronCollisionModel (Sofa.Component.Collision.Geometry,
// TetrahedronCollisionModel.cpp) gets element tests from one intersection method only:
// DiscreteIntersection, through TetrahedronDiscreteIntersection
// (Sofa.Component.Collision.Detection.Intersection: a point with a normal inside a tetrahedron, and
// rays); the proximity methods (MinProximity, NewProximity, LocalMinDistance) register no test with
// a tetrahedron, so under them SOFA's model finds no contact whatever it meets. Fluxion does the
// same: under a proximity method the model takes part in nothing (said at info level); under
// DiscreteIntersection its test is not implemented, which is an error rather than a silently
// missing contact. SOFA's init refuses a model with no topology in its context, and so does
// Fluxion.
void AddTetrahedronModel(BuildState& state, const ContactPlan& plan, const Node& node,
                         const Component& c, const Node& owner) {
  const int line = c.element->line;
  const std::string what = "<" + c.element->type + "> in node '" + node.path + "'";
  const Node* with_topology = &node;
  while (with_topology != nullptr && !with_topology->topology && with_topology != &owner)
    with_topology = with_topology->parent;
  if (with_topology == nullptr || !with_topology->topology) {
    state.problems.Scene(line, what +
                                   " has no topology (expected a tetrahedral topology in its "
                                   "node or above it, up to its MechanicalObject's node)");
    return;
  }
  if (plan.intersection.method == IntersectionSettings::Method::kDiscrete) {
    state.problems.Scene(line, what +
                                   ": DiscreteIntersection's tetrahedron–point test "
                                   "(SOFA's TetrahedronDiscreteIntersection) is not supported "
                                   "(expected MinProximity-, NewProximity- or LocalMinDistance "
                                   "intersection, under which a tetrahedron model finds no "
                                   "contact, as in SOFA)");
    return;
  }
  LogInfo(node.path + "/" + c.name + ": TetrahedronCollisionModel takes part in no contact (" +
          std::to_string(with_topology->topology->tetrahedra.size()) +
          " tetrahedra): the scene's intersection method has no tetrahedron test, nor has SOFA's");
}

// Adds model `c` of `node` to the plan, or reports why it cannot collide.
void AddModel(BuildState& state, ContactPlan& plan, const Node& node, const Component& c,
              int node_index) {
  const int line = c.element->line;
  const std::string what = "<" + c.element->type + "> in node '" + node.path + "'";
  // SOFA's getContext()->getMechanicalState(): the node's object, else the nearest ancestor's
  // (MultiThreading's ParallelCollisionDetection.scn puts the models in a child node holding
  // only the surface topology of its parent's grid).
  const Node* owner = &node;
  while (owner != nullptr && owner->object < 0) owner = owner->parent;
  if (owner == nullptr) {
    state.problems.Scene(
        line, what + " has no MechanicalObject (expected one in its node or " + "above it)");
    return;
  }
  if (c.entry->spec.name == "TetrahedronCollisionModel") {
    AddTetrahedronModel(state, plan, node, c, *owner);
    return;
  }
  const int object_index = owner->object;
  const ObjectModel& object = state.objects[static_cast<std::size_t>(object_index)];
  ContactModelPlacement placement;
  placement.node_system = node.system;
  placement.node_path = node.path;
  placement.object_system = object.system;
  placement.offset = object.offset;
  if (const MappedObject* mapped = state.FindMapped(object_index)) {
    if (mapped->nonlinear) {
      state.problems.Scene(line, what + " is on '" + object.id +
                                     "', whose mapping is nonlinear (expected an Identity, "
                                     "Subset or Barycentric mapping under a collision model)");
      return;
    }
    if (object.system >= 0) {
      plan.mappings.push_back(std::make_unique<LinearMapping>(mapped->jacobian));
      placement.mapping = plan.mappings.back().get();
    }
  }
  if (object.dimension != 3) {
    state.problems.Scene(line, what + " is on a Vec" + std::to_string(object.dimension) +
                                   "d object (expected a Vec3d MechanicalObject)");
    return;
  }
  collision::CollisionModelDescription model = Describe(node, c, object, *owner, node_index);
  // A topology found above the node, or beside an object found above it, may not fit the object.
  Index largest = -1;
  for (const auto& e : model.topology.edges) largest = std::max({largest, e[0], e[1]});
  for (const auto& t : model.topology.triangles) largest = std::max({largest, t[0], t[1], t[2]});
  for (const auto& q : model.topology.quads) largest = std::max({largest, q[0], q[1], q[2], q[3]});
  if (largest >= object.num_points) {
    state.problems.Scene(line, what + ": its topology uses point " + std::to_string(largest) +
                                   " of '" + object.id + "', which has " +
                                   std::to_string(object.num_points) +
                                   " (expected a topology of that object's points)");
    return;
  }
  model.object = object_index;
  plan.models.push_back(std::move(model));
  plan.placements.push_back(std::move(placement));
}

// Which systems may receive contacts (SOFA's placement rule, CollisionResponse: the pipeline's
// node for two simulated models, the simulated model's node against a non-simulated one).
std::vector<bool> ReceivingSystems(const ContactPlan& plan, std::size_t num_systems) {
  std::vector<bool> receives(num_systems, false);
  std::size_t simulated = 0;
  for (const auto& model : plan.models) simulated += model.simulated ? 1 : 0;
  if (simulated >= 2 && plan.pipeline_system >= 0)
    receives[static_cast<std::size_t>(plan.pipeline_system)] = true;
  if (simulated < plan.models.size())
    for (std::size_t m = 0; m < plan.models.size(); ++m)
      if (plan.models[m].simulated && plan.placements[m].node_system >= 0)
        receives[static_cast<std::size_t>(plan.placements[m].node_system)] = true;
  return receives;
}

}  // namespace

std::optional<ContactPlan> PlanContacts(BuildState& state) {
  const Node* pipeline = nullptr;
  ForEachNode(static_cast<const Node&>(*state.root), [&](const Node& node) {
    if (pipeline == nullptr && FindIn(node, {"CollisionPipeline"}) != nullptr) pipeline = &node;
  });
  if (pipeline == nullptr) return std::nullopt;
  ContactPlan plan;
  plan.pipeline_node = pipeline->path;
  plan.pipeline_system = pipeline->system;
  const Component& pipeline_component = *FindIn(*pipeline, {"CollisionPipeline"});
  plan.pipeline.depth = static_cast<int>(pipeline_component.parameters.integer("depth"));
  plan.pipeline.threads = 0;  // fluxion::ThreadCount() at each step, as the force fields
  plan.intersection = ReadIntersection(*pipeline);
  CheckResponse(state, *pipeline);
  // The models below the pipeline's node (PipelineImpl gathers its subtree's), in document order.
  int node_index = 0;
  ForEachNode(*pipeline, [&](const Node& node) {
    for (const Component& c : node.components)
      if (c.kind() == ComponentKind::kCollisionModel) AddModel(state, plan, node, c, node_index);
    ++node_index;
  });
  plan.implicit = ReceivingSystems(plan, state.parts.size());
  // Every system that moves a simulated model also gets a field: the contacts of a response
  // placed outside every solver's subtree reach it as explicit forces.
  std::vector<bool> needs_field = plan.implicit;
  for (std::size_t m = 0; m < plan.models.size(); ++m)
    if (plan.models[m].simulated && plan.placements[m].object_system >= 0)
      needs_field[static_cast<std::size_t>(plan.placements[m].object_system)] = true;
  plan.fields.assign(state.parts.size(), nullptr);
  for (std::size_t s = 0; s < needs_field.size(); ++s) {
    if (!needs_field[s]) continue;
    auto field = std::make_unique<PenaltyContactForceField>();
    plan.fields[s] = field.get();
    state.parts[s].force_fields.push_back(std::move(field));
  }
  return plan;
}

void CheckContactSolvers(BuildState& state, const ContactPlan& plan,
                         std::vector<SolverNode>& nodes) {
  for (std::size_t s = 0; s < plan.fields.size(); ++s) {
    if (!plan.implicit[s]) continue;  // explicit contact forces need no matrix
    const Node& owner = *state.solver_owners[s];
    for (SolverNode& node : nodes) {
      if (node.node_path != owner.path || node.linear_solver == nullptr ||
          node.linear_solver->accepts_operator())
        continue;
      if (state.options.solver) {
        // A replacement solver (scene-runner --solver) was given the direct default: the
        // registry's operator one instead.
        node.linear_solver = state.registry.CreateDefaultLinearSolver(true);
        LogInfo(owner.path + ": " + node.solver_type + " uses a " + node.linear_solver->name() +
                " (the system receives contacts)");
        continue;
      }
      state.problems.Scene(
          owner.solver->element->line,
          owner.solver->entry->spec.name + " in node '" + owner.path +
              "' receives contacts and "
              "solves with " +
              node.linear_solver->name() +
              ", which assembles the matrix in a pattern fixed at load time: the contacts' "
              "stiffness couples DOFs outside it (expected <CGLinearSolver/> for a system with "
              "contacts)");
    }
  }
}

std::unique_ptr<ContactStage> CreateContactStage(ContactPlan plan) {
  auto detection = std::make_unique<collision::Detection>(std::move(plan.models), plan.intersection,
                                                          plan.pipeline);
  return std::make_unique<ContactStage>(
      std::move(detection), std::move(plan.mappings), std::move(plan.placements), plan.intersection,
      plan.pipeline_system, std::move(plan.pipeline_node), std::move(plan.fields));
}

}  // namespace fluxion::internal
