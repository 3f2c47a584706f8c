// How a component is built from a scene: the interface every component's build function receives.
//
// A component type is registered with its ComponentSpec (fields, defaults, help) and a build
// function (`PluginRegistrar::AddComponent`). When a scene uses it, the scene builder parses and
// validates the element's attributes against the spec, then calls the build function once with a
// BuildContext: the component reads its `parameters()`, finds the objects and topology it acts on,
// and contributes to the scene — a topology, a mechanical object, masses, fixed points, force
// fields. Built-in components and plugin components use the same interface.
//
// Passes: the builder calls build functions in passes, by the component's kind, each pass in
// document order:
//   1. kLoader, kContext, kTopology, kTopologicalMapping — plugins required, node gravity, node
//                                      topologies, topologies derived from others;
//   2. kState                        — mechanical objects (they may take their points from the
//                                      node's topology);
//      kMapping                      — then mechanical mappings (MapObject), every object known;
//   3. kMass, kConstraint, kForceField, kObserver — masses, fixed points, force fields, observers
//                                      (every object and its place in its solver's system is
//                                      known).
// Force fields registered with `AddForceField` (a ForceFieldFactory) are built after pass 3, when
// every point's mass is known. ODE and linear solvers are created last, from their factories.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/force_field.h"
#include "fluxion/mapping.h"
#include "fluxion/model.h"
#include "fluxion/observer.h"
#include "fluxion/parameters.h"
#include "fluxion/projective_constraint.h"
#include "fluxion/topology.h"

namespace fluxion {

/// Changes one field of a built component between steps (BuildContext::AddRuntimeField).
using RuntimeFieldSetter = std::function<void(std::span<const double> values)>;

/// What a component's build function sees of the scene being built.
///
/// Every problem is reported, not thrown: `Error` records a scene error at the component's line
/// (the builder reports every problem of a pass at once, then stops with exit status 2), and the
/// build function returns. Objects are handed out as `const ObjectModel*`, valid until the build
/// ends; their `offset` and `system` are known from pass 3 on.
class FLUXION_API BuildContext {
 public:
  virtual ~BuildContext();

  // --- The component -------------------------------------------------------------------------
  /// Its validated fields (defaults applied).
  virtual const Parameters& parameters() const = 0;
  /// The element name as written in the scene (an alias stays an alias, for messages).
  virtual const std::string& type() const = 0;
  /// Its `name` attribute, or its type when it has none.
  virtual const std::string& name() const = 0;
  /// Path of its node, e.g. "root/cloth".
  virtual const std::string& node_path() const = 0;

  // --- Diagnostics -----------------------------------------------------------------------------
  /// A scene error at the component's line: "what is wrong (what was expected)".
  virtual void Error(const std::string& message) = 0;
  /// A plugin problem at the component's line (exit status 3): a required plugin is missing.
  virtual void PluginProblem(const std::string& message) = 0;
  /// A warning logged as "FILE:LINE: message".
  virtual void Warn(const std::string& message) = 0;
  /// "FILE:LINE: " for messages a component logs itself.
  virtual std::string Where() const = 0;

  // --- Node context (pass 1) -------------------------------------------------------------------
  /// Gravity in the component's node [m/s²]: the nearest Gravity setting of the node or an
  /// ancestor, else the root node's `gravity`.
  virtual std::array<double, 3> gravity() const = 0;
  /// Sets the gravity of the component's node and its subtree (SOFA's Gravity context object).
  virtual void SetGravity(const std::array<double, 3>& gravity) = 0;
  /// The topology of the component's node, or null.
  virtual std::shared_ptr<const Topology> topology() const = 0;
  /// Gives the component's node its topology (at most one per node).
  virtual void SetTopology(Topology topology) = 0;
  /// The topology of the topology component the link in `field` names ("@../Container",
  /// "@grid": SOFA's l_topology, input and output links), built first if it is not yet; the
  /// node's topology (possibly null, not reported) when the field is empty. Null after
  /// reporting why (the link does not resolve, names no topology, or that topology failed).
  virtual std::shared_ptr<const Topology> LinkedTopology(std::string_view field) = 0;
  /// Replaces the topology of the topology component the link in `field` names, and the data
  /// it publishes (SOFA's topological mappings fill their output container this way). Reports
  /// and does nothing when the link does not name a topology component.
  virtual void SetLinkedTopology(std::string_view field, Topology topology) = 0;
  /// Points of every topology built so far; components refuse absurd sizes against it.
  virtual Index topology_points() const = 0;
  /// Records that a plugin is required: a plugin problem when no loaded plugin has that name.
  virtual void RequirePlugin(const std::string& plugin_name) = 0;

  // --- Data flow -------------------------------------------------------------------------------
  /// Publishes one of the component's data under `name`, as SOFA components expose their Data:
  /// another component's field "@path.name" takes it, and src="@path" takes every published data
  /// whose name is one of its fields. The builder publishes a topology's data (position, edges,
  /// triangles, quads, tetrahedra, hexahedra) and an object's (position, velocity,
  /// rest_position) itself; fields given in the scene are data too. Links are resolved, and
  /// the components they name built first, before the build function runs: a build function
  /// reads linked fields from parameters() like any other.
  virtual void SetOutput(const std::string& name, FieldValue value) = 0;

  /// A file the scene names (a mesh, …), read under the input policy: `name` is looked up in the
  /// scene's folder, then in each data folder (LoadOptions::data_path, and the share/ and
  /// examples/ folders of the SOFA tree a scene lies in, as SOFA's DataRepository does); once its
  /// symbolic links are resolved it must be a regular file inside one of those folders, of at
  /// most LoadOptions::max_input_bytes. Null after reporting why.
  struct InputFile {
    std::string path;   ///< as found, for messages (e.g. "mesh/liver.obj")
    std::string bytes;  ///< the whole content
  };
  virtual std::optional<InputFile> ReadInputFile(const std::string& name) = 0;
  /// Adds a folder where ReadInputFile looks, last (SOFA's AddDataRepository): relative to the
  /// scene's folder unless absolute, and inside a folder the scene may already read. False after
  /// reporting why.
  virtual bool AddInputFolder(const std::string& folder) = 0;

  // --- Objects (pass 2 creates them) -----------------------------------------------------------
  /// Creates the node's mechanical object from `object` (name, dimension, points, initial state).
  /// The builder sets its id, place and topology.
  virtual void AddObject(ObjectModel object) = 0;
  /// Points of every object created so far.
  virtual Index object_points() const = 0;
  /// Largest number of points the scene may hold in all: what the memory budget (the machine's
  /// available memory, LoadOptions::memory_limit) leaves for points once the springs so far are
  /// counted. Components compare their points plus `topology_points()` or `object_points()`
  /// with it before allocating them.
  virtual Index max_scene_points() const = 0;
  /// The memory budget and where it comes from, for messages: "21.3 GiB: the memory this
  /// machine has available (MemAvailable)".
  virtual std::string memory_budget_text() const = 0;

  /// Makes `child` a mapped object of `parent` through the linear mapping x_child = J·x_parent
  /// (SOFA's IdentityMapping, SubsetMapping, BarycentricMapping). `jacobian` has one row per DOF
  /// of the child (child points × child dimension; the child is resized to that many points)
  /// and one column per DOF of the parent, both point by point. From then on the child's state
  /// is computed from the parent's (also its initial positions and velocities), its forces act
  /// on the parent as Jᵀ·f, its stiffness and damping as Jᵀ·K·J and Jᵀ·B·J, its mass as Jᵀ·M·J;
  /// projective constraints on it are refused. The parent may itself be mapped (the Jacobians
  /// are composed). Reports (and does nothing) when `child` is already mapped, is `parent`, or
  /// the sizes do not match. Call it from a kMapping component.
  virtual void MapObject(const ObjectModel& child, const ObjectModel& parent,
                         const SparseMatrix& jacobian) = 0;
  /// Makes `child` a mapped object of `parent` through the nonlinear mapping x_child =
  /// φ(x_parent) (fluxion/mapping.h: SOFA's DistanceMapping, SquareDistanceMapping); the child
  /// gets mapping->num_outputs() DOFs. As MapObject above, with the mapping's geometric
  /// stiffness in assembled stiffness matrices. Not supported (reported) when `parent` is
  /// itself mapped, or for a mass on `child` (its Jᵀ·M·J would change with the state).
  virtual void MapObject(const ObjectModel& child, const ObjectModel& parent,
                         std::unique_ptr<Mapping> mapping) = 0;

  /// The mechanical object of the component's node, else of its nearest ancestor (SOFA's
  /// context lookup); null after reporting "<Type> needs a MechanicalObject in node '…'".
  virtual const ObjectModel* NodeObject() = 0;
  /// The object named by the link in `field` ("@path", SOFA's rules: relative to the node,
  /// "../" for the parent, "/" for the root), or NodeObject() when the field is empty;
  /// null after reporting why.
  virtual const ObjectModel* LinkedObject(std::string_view field) = 0;

  // --- Contributions to the object's solver system (pass 3) -----------------------------------
  /// Sets the lumped mass of each point of `object` [kg] (one value per point).
  virtual void SetPointMass(const ObjectModel& object, std::span<const double> mass) = 0;
  /// The mass of each point of `object` set so far: its row of M summed (the lumped mass; 0
  /// where none).
  virtual std::vector<double> PointMass(const ObjectModel& object) const = 0;
  /// Adds `mass` to the off-diagonal entries M(a, b) and M(b, a) of every axis of points `a` ≠ `b`
  /// (a consistent mass matrix such as MeshMatrixMass's, on top of SetPointMass's diagonal). The
  /// system's mass is then not diagonal: explicit solvers invert it with the scene's linear
  /// solver, as SOFA's do.
  virtual void AddMassCoupling(const ObjectModel& object, Index a, Index b, double mass) = 0;
  /// Fixes a point: its DOFs are projected out of every increment (SOFA's projective constraint).
  virtual void FixPoint(const ObjectModel& object, Index point) = 0;
  /// Fixes one axis of a point (SOFA's PartialFixedProjectiveConstraint): that DOF alone is
  /// projected out.
  virtual void FixDof(const ObjectModel& object, Index point, int axis) = 0;
  /// Projects the increments of a point with a linear map P (dimension × dimension, row-major),
  /// as SOFA's PlaneProjectiveConstraint (P = I − nnᵀ), LineProjectiveConstraint (P = nnᵀ) and
  /// FixedPlaneProjectiveConstraint do: forces, accelerations, velocity increments and
  /// right-hand sides become P·r on the point, and system matrices P·A·P + (I − P) on its rows
  /// and columns. A second projector on the same point is applied after the first (their product).
  /// Positions and velocities are the business of AddProjectiveConstraint.
  virtual void ProjectPoint(const ObjectModel& object, Index point,
                            std::span<const double> projector) = 0;
  /// Adds a constraint that sets positions and velocities of points of `object` (SOFA's
  /// projectPosition / projectVelocity, see fluxion/projective_constraint.h). While
  /// `constraint->HoldsPoints(t)`, the `held_points` are projected out of every increment, as
  /// fixed points are (so that the solver does not move what the constraint drives). Ignored for
  /// a static object.
  virtual void AddProjectiveConstraint(const ObjectModel& object, std::vector<Index> held_points,
                                       std::unique_ptr<ProjectiveConstraint> constraint) = 0;
  /// Sets the initial velocity of one point (e.g. a constraint that also fixes velocities).
  virtual void SetInitialVelocity(const ObjectModel& object, Index point,
                                  std::span<const double> velocity) = 0;
  /// Adds a force field to the system integrating `object`. Ignored for a static object (no
  /// solver): nothing moves there.
  virtual void AddForceField(const ObjectModel& object, std::unique_ptr<ForceField> field) = 0;
  /// Counts springs towards the scene's memory estimate; false after reporting that `count` more
  /// would exceed the memory budget.
  virtual bool ReserveSprings(std::size_t count) = 0;
  /// How many more springs the memory budget allows.
  virtual std::size_t spring_budget() const = 0;

  // --- Observers (pass 3) ----------------------------------------------------------------------
  /// Registers an observer (fluxion/observer.h): the simulation notifies it, in document order
  /// with the scene's other observers, at the start, after every step and at the end, and
  /// reports its failures at the component's line. Components of kind kObserver register theirs
  /// with the masses and force fields, when every object's place is known.
  virtual void AddObserver(std::unique_ptr<Observer> observer) = 0;

  // --- Fields changed while the simulation runs ------------------------------------------------
  /// Declares that the component's field `field` may be changed between steps
  /// (Simulation::SetComponentField: a SofaPython3 controller writing `forces` of a
  /// ConstantForceField). `setter` receives the new value as the field's numbers, checks them
  /// (throwing ConfigError "what is wrong (what was expected)") and changes what the component
  /// built (typically a force field it handed to AddForceField, which the simulation keeps alive
  /// as long as the setter). Called between steps only, never during one. The default does
  /// nothing (the field stays fixed, and saying so is the simulation's business).
  virtual void AddRuntimeField(const std::string& field, RuntimeFieldSetter setter);

  // --- Context data (last in the class: plugins built against an older header keep their vtable)
  /// The data `output` published by a component of type `type` found as SOFA's
  /// getContext()->get<T>() finds it: in the component's node, else in its nearest ancestor that
  /// has one, the first in document order — or, when `name` is not empty, the one of that name
  /// (a link "@name" to it). Only components built in an earlier pass are found (kContext
  /// components, built in pass 1, for the masses and force fields of pass 3). nullopt when
  /// there is none or it did not publish `output`. The default finds nothing.
  virtual std::optional<FieldValue> ContextOutput(std::string_view type, std::string_view name,
                                                  std::string_view output);

  // --- Multi-mappings (after the others: older plugins keep their vtable) ----------------------
  /// The objects named by `field`, a list of links separated by spaces ("@../../dof1 @../dof2":
  /// SOFA's multi-link, as IdentityMultiMapping's `input`), each resolved as LinkedObject
  /// resolves one; empty after reporting why (an empty list, a link naming no object). The
  /// default reports that the builder has no multi-links.
  virtual std::vector<const ObjectModel*> LinkedObjects(std::string_view field);
  /// Makes `child` a mapped object of several `parents` through the linear mapping
  /// x_child = J·[x_p1; x_p2; …] (SOFA's multi-mappings: IdentityMultiMapping): `jacobian` has
  /// one row per DOF of the child and one column per DOF of the parents, the first parent's
  /// DOFs first. As MapObject with one parent otherwise: the parents may themselves be mapped
  /// (linearly); they must all be integrated by one solver, or all be static (reported when
  /// the systems are laid out). ObjectModel::mapped_from names the first parent. The default
  /// reports that the builder has no multi-mappings.
  virtual void MapObjectFromParents(const ObjectModel& child,
                                    std::span<const ObjectModel* const> parents,
                                    const SparseMatrix& jacobian);
};

/// Builds one component of a scene (see BuildContext). May throw ConfigError for a bad value
/// (reported at the component's line, naming the field).
using ComponentBuilder = void (*)(BuildContext& context);

}  // namespace fluxion
