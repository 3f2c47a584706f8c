// The BuildContext a component's build function receives: one per component, over the shared
// BuildState.
#pragma once

#include <functional>

#include "build/build_state.h"
#include "fluxion/component.h"
#include "mechanics/mass_build_hooks.h"
#include "mechanics/step_start.h"

namespace fluxion::internal {

class ComponentBuildContext final : public BuildContext,
                                    public MassBuildHooks,
                                    public StepStartHooks {
 public:
  ComponentBuildContext(BuildState& state, Node& node, const Component& component)
      : state_(state), node_(node), component_(component) {}

  const Parameters& parameters() const override { return component_.parameters; }
  const std::string& type() const override { return component_.element->type; }
  const std::string& name() const override { return component_.name; }
  const std::string& node_path() const override { return node_.path; }

  void Error(const std::string& message) override;
  void PluginProblem(const std::string& message) override;
  void Warn(const std::string& message) override;
  std::string Where() const override;

  std::array<double, 3> gravity() const override;
  void SetGravity(const std::array<double, 3>& gravity) override;
  std::shared_ptr<const Topology> topology() const override { return node_.topology; }
  void SetTopology(Topology topology) override;
  std::shared_ptr<const Topology> LinkedTopology(std::string_view field) override;
  void SetLinkedTopology(std::string_view field, Topology topology) override;
  Index topology_points() const override { return state_.topology_points; }
  void RequirePlugin(const std::string& plugin_name) override;
  void SetOutput(const std::string& name, FieldValue value) override;
  std::optional<FieldValue> ContextOutput(std::string_view type, std::string_view name,
                                          std::string_view output) override;
  std::optional<InputFile> ReadInputFile(const std::string& name) override;
  bool AddInputFolder(const std::string& folder) override;

  void AddObject(ObjectModel object) override;
  Index object_points() const override { return state_.object_points; }
  Index max_scene_points() const override;
  std::string memory_budget_text() const override { return state_.MemoryBudgetText(); }
  void MapObject(const ObjectModel& child, const ObjectModel& parent,
                 const SparseMatrix& jacobian) override;
  void MapObject(const ObjectModel& child, const ObjectModel& parent,
                 std::unique_ptr<Mapping> mapping) override;
  const ObjectModel* NodeObject() override;
  const ObjectModel* LinkedObject(std::string_view field) override;
  std::vector<const ObjectModel*> LinkedObjects(std::string_view field) override;
  void MapObjectFromParents(const ObjectModel& child, std::span<const ObjectModel* const> parents,
                            const SparseMatrix& jacobian) override;

  void SetPointMass(const ObjectModel& object, std::span<const double> mass) override;
  std::vector<double> PointMass(const ObjectModel& object) const override;
  void AddMassCoupling(const ObjectModel& object, Index a, Index b, double mass) override;
  void FixPoint(const ObjectModel& object, Index point) override;
  void FixDof(const ObjectModel& object, Index point, int axis) override;
  void ProjectPoint(const ObjectModel& object, Index point,
                    std::span<const double> projector) override;
  void AddProjectiveConstraint(const ObjectModel& object, std::vector<Index> held_points,
                               std::unique_ptr<ProjectiveConstraint> constraint) override;
  void SetInitialVelocity(const ObjectModel& object, Index point,
                          std::span<const double> velocity) override;
  void AddForceField(const ObjectModel& object, std::unique_ptr<ForceField> field) override;
  bool ReserveSprings(std::size_t count) override;
  void AddObserver(std::unique_ptr<Observer> observer) override;
  std::size_t spring_budget() const override;
  void AddRuntimeField(const std::string& field, RuntimeFieldSetter setter) override;

  // --- MassBuildHooks (the framework's mass components) -------------------------------------
  std::shared_ptr<Weight> AddWeight(const ObjectModel& object,
                                    const std::vector<double>& point_mass) override;
  void AddRuntimeMass(const ObjectModel& object, const std::string& field,
                      std::shared_ptr<Weight> weight, PointMassRule rule) override;
  // --- StepStartHooks ---------------------------------------------------------------------------
  void AddStepStart(StepStart hook) override { state_.step_starts.push_back(std::move(hook)); }
  /// The gravity this node's masses follow: the nearest Gravity component's, else the root's.
  std::shared_ptr<GravitySource> GravitySourceHere();

 private:
  int line() const { return component_.element->line; }
  ObjectModel& Mutable(const ObjectModel& object);
  int IndexOf(const ObjectModel& object) const;
  // Notes that this component gives `object` mass (Simulation::ComponentMatrix), once.
  void RecordMass(const ObjectModel& object);
  // The parts `object`'s contributions go to: its system's, or its own when it is mapped; null
  // for a static object.
  SystemParts* PartsFor(const ObjectModel& object);
  const SystemParts* PartsFor(const ObjectModel& object) const;
  // False after reporting (once per component) that a constraint acts on a mapped object.
  bool RefuseMapped(const ObjectModel& object);
  bool refused_mapped_ = false;
  // MapObject's checks and bookkeeping; `state` (x, J at the parent's initial state) fills the
  // child. False after reporting.
  bool CheckMapping(const ObjectModel& child, const ObjectModel& parent, Index rows);
  using PositionMap = std::function<Vector(const LinearMapping::RowMajorMatrix&, const Vector&)>;
  // `parents`: one, or a multi-mapping's (J's columns: their DOFs one after another).
  void AddMapping(const ObjectModel& child, std::span<const ObjectModel* const> parents,
                  MappedObject mapped, const PositionMap& positions);
  // The topology component the link in `field` names, built; {null, null} after reporting.
  std::pair<Node*, const Component*> LinkedTopologyComponent(std::string_view field);
  /// LinkedTopologyComponent's checks once the link found `component` in `node`.
  std::pair<Node*, const Component*> FinishTopologyLink(const std::string& name,
                                                        const std::string& text, Node& node,
                                                        Component& component);

  BuildState& state_;
  Node& node_;
  const Component& component_;
};

/// The node a link names when its path can only name a node: it ends with "/", ".", or ".."
/// ("@../", "@..", "@./", "@/"; SOFA's Node::findLinkDestClass walks the same segments), from
/// `from`. Null for any other path (a component's), or, with `why` set, when the path leaves the
/// tree or names no node.
Node* ResolveNodeLink(Node& root, Node& from, std::string_view text, std::string& why);

/// Resolves a link ("@path", relative to `node`) to a mechanical object index, or reports it
/// against `line` and returns -1. An empty link means the node's own object.
int ResolveObjectLink(BuildState& state, const Node& node, const std::string& type,
                      const std::string& field, const std::string& text, int line);

}  // namespace fluxion::internal
