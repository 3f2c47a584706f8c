// A loaded scene, ready to step: the public runtime of the host API (see fluxion/host.h).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/mechanical_system.h"
#include "fluxion/model.h"
#include "fluxion/pinned_handle.h"
#include "fluxion/solver.h"
#include "fluxion/state.h"

namespace fluxion {

namespace internal {
struct SimulationAccess;
}

using SolverHandle = std::unique_ptr<Solver, PinnedDeleter<Solver>>;

/// One ODE solver node and what it integrates. Members are destroyed in reverse order: the
/// solver first, then the linear solver, then the system they point to.
struct SolverNode {
  std::string solver_type;  ///< component name, e.g. "EulerExplicitSolver"
  /// The solver's attributes as written in the scene (or given to ReplaceSolver), `name` left
  /// out: with solver_type, what recreates the same solver elsewhere (fluxion-analyze's
  /// oscillator, the stability check).
  std::vector<std::pair<std::string, std::string>> solver_parameters;
  std::string node_path;  ///< e.g. "root/bob"
  std::unique_ptr<MechanicalSystem> system;
  LinearSolverHandle linear_solver;  ///< null when the scene provides none
  SolverHandle solver;
  State state;               ///< the current state of the node's DOFs
  std::vector<int> objects;  ///< indices into Model::objects
};

/// One contact of the collision pipeline at the start of the last step (SOFA's DetectionOutput as
/// its penalty response kept it: duplicates of one id dropped, docs/contact.md).
struct Contact {
  std::array<int, 2> model{};      ///< indices into Simulation::collision_models()
  std::array<Index, 2> element{};  ///< the element of each model (point, edge, triangle, sphere)
  std::array<std::array<double, 3>, 2> point{};  ///< the contact point on each element [m]
  std::array<double, 3> normal{};                ///< unit, from model 1 towards model 2
  double distance = 0.0;  ///< d: the distance the penalty keeps between the points [m]
  /// d − (p₂ − p₁)·n with the points as the response maps them, at detection [m]: positive
  /// when the penalty pushes.
  double penetration = 0.0;
  /// ks = model1.contactStiffness · model2.contactStiffness / d [N/m]: the penalty force on model
  /// 2's point is ks·max(penetration, 0)·n, the opposite on model 1's.
  double stiffness = 0.0;
  /// The solver node whose system received the contact (solved implicitly, its stiffness in
  /// that solver's tangent), or −1: SOFA places the response in a node no ODE solver's subtree
  /// contains (two models under different solvers), and the force of the step's start acts on
  /// each side's own solver as an explicit force (none when neither model is simulated).
  int solver_node = -1;
};

/// A solver and its parameters as they would be written in XML, e.g. {"RungeKutta4Solver", {}}.
struct SolverChoice {
  std::string name;
  std::vector<std::pair<std::string, std::string>> parameters;
};

/// Which matrix of one component Simulation::ComponentMatrix assembles.
enum class ComponentMatrixKind {
  kStiffness,  ///< K = −∂f/∂x of a force field (SofaPython3's assembleKMatrix gives −K)
  kMass,       ///< M of a mass (SofaPython3's assembleMMatrix)
};

/// The last linear system A·x = b an implicit solver of a node solved (SofaPython3's
/// MatrixLinearSystem A(), b(), x()). A is what the solver factorised: P[m·M + b·B + k·K]P +
/// (I − P) with its own factors (fluxion/implicit_system.h), materialised column by column when
/// the linear solver took it as an operator (CG).
struct LinearSystemRecord {
  SparseMatrix matrix;
  Vector rhs;
  Vector solution;
  long solves = 0;  ///< solves recorded since the start (0: nothing solved yet, all empty)
};

/// One value per element that a component computes from the current state: SOFA's per-element
/// output data, such as TetrahedronFEMForceField's `vonMisesPerElement` (with
/// computeVonMisesStress 1 or 2). values[e] belongs to element e of `topology`'s list of `type`.
struct ElementValues {
  std::string component;  ///< "<node path>/<component name>", e.g. "root/beam/FEM"
  std::string name;       ///< SOFA's data name, e.g. "vonMisesPerElement"
  std::string unit;       ///< e.g. "Pa"
  int object = -1;        ///< the object whose points the elements join (into objects())
  ElementType type = ElementType::kTetrahedron;
  /// The topology the component took its elements from: objects()[object].topology itself
  /// unless the component's `topology` link names another.
  std::shared_ptr<const Topology> topology;
  std::vector<double> values;
};

/// The stepping loop of a scene: every solver node advances by the same dt, one after the other
/// in document order (they are independent: no force field crosses two solver nodes).
///
/// Movable, not copyable. Everything it needs (plugin code included) stays alive as long as it
/// does, even after the Host that loaded it is gone.
class FLUXION_API Simulation {
 public:
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();

  /// The scene as built: objects with their topology, components, solver nodes.
  const Model& model() const;
  std::shared_ptr<const Model> shared_model() const;
  const std::vector<ObjectModel>& objects() const { return model().objects; }
  /// Index of the object with this id ("root/bob/dofs"), or -1.
  int FindObject(std::string_view id) const { return model().FindObject(id); }

  double dt() const;
  /// Current time t₀ + n·h after n steps: TimeAt(step_count()). What the trajectory's `time`
  /// column, scene-runner's messages and --end-time use.
  double time() const;
  /// t₀ + n·h, computed afresh for each n (no accumulated round-off), with t₀ and h read as
  /// their shortest decimals: TimeAt(200) with dt = 0.01 is 2, TimeAt(3) with dt = 0.1 is 0.3
  /// (the double nearest the decimal value; for a dt with no short decimal, such as 1/3, the
  /// double expression t₀ + n·h).
  double TimeAt(long step) const;
  /// Steps from now until the time reaches `end_time`: the least n ≥ 0 with
  /// TimeAt(step_count() + n) ≥ end_time − 10⁻⁹·dt (a billionth of a step of slack, for a dt with
  /// no short decimal), settled on the times themselves, not on a division that can be a step
  /// off. From t = 0 with dt = 0.01, StepsUntil(2) is 200 and the last state is at t = 2.
  /// scene-runner --end-time, Python's run(end_time=…) and fluxion-sweep count with it. nullopt
  /// when the count is not below 2^62 (end_time NaN included).
  std::optional<long> StepsUntil(double end_time) const;
  /// The time SOFA's node holds after as many steps: the start time plus dt added once per step
  /// (SOFA's DefaultAnimationLoop accumulates, t += dt). The mechanics run on it, as SOFA's do:
  /// time-dependent loads and constraints, the solvers' State::time, and the observers
  /// (WriteState's `T=` lines). It differs from time() in the last bits (2.0000000000000013
  /// after 200 steps of 0.01).
  double sofa_time() const;
  long step_count() const;
  const std::vector<SolverNode>& solver_nodes() const;

  /// Current positions / velocities of object `index`, point by point (for an object no solver
  /// moves: its initial ones, or what an observer such as ReadState last played into it). Valid
  /// until the next call that changes the simulation. Throws UsageError when there is no object
  /// `index`.
  Eigen::Map<const Vector> position(int index) const;
  Eigen::Map<const Vector> velocity(int index) const;
  /// Sets the positions / velocities of object `index` (num_points × dimension values). The
  /// solvers restart from the new state (history is discarded). Throws UsageError for a wrong
  /// size or a static object.
  void SetPosition(int index, const Eigen::Ref<const Vector>& values);
  void SetVelocity(int index, const Eigen::Ref<const Vector>& values);

  /// Advances every solver node by dt, then notifies the scene's observers (fluxion/observer.h:
  /// exporters, WriteState, ReadState). Throws NumericalError (with the step number and the time
  /// at which the state stopped being finite, or the solver's failure) and leaves the last good
  /// state in place; throws SceneError, at the observer's line in the scene, when an observer
  /// fails (e.g. a file the scene may not write).
  void Step();
  /// `steps` steps, calling `after_step` (if given) after each one.
  void Run(long steps, const std::function<void(const Simulation&)>& after_step = {});

  /// Ends the run for the scene's observers: each is told (SOFA's exportAtEnd), in document
  /// order, then released, which closes its files. Call it once a run has succeeded; later
  /// steps notify no observer. Without it, destroying the simulation closes the observers'
  /// files without the end notification. Throws SceneError like Step; the observers are released
  /// anyway. Does nothing the second time.
  void Finish();

  /// The contacts found at the start of the last step (empty before the first step and in a
  /// scene without a collision pipeline). Valid until the next Step.
  const std::vector<Contact>& contacts() const;
  /// The collision models of the scene's pipeline, by path ("root/floor/TriangleCollisionModel"),
  /// as Contact::model indexes them; empty without a pipeline.
  const std::vector<std::string>& collision_models() const;

  /// Sums over all solver nodes (static objects carry no energy).
  double KineticEnergy() const;
  double PotentialEnergy() const;

  /// Replaces the ODE solver of every solver node by `choice` (as scene-runner --solver does),
  /// keeping the current state; an implicit replacement gets a SparseLDLSolver where the node has
  /// no linear solver. Throws SceneError (unknown solver, bad parameter) or PluginError.
  void ReplaceSolver(const SolverChoice& choice);

  /// Changes field `field` of the component `component` ("root/cloth/load": its node's path and
  /// its name) to `values`, effective from the next step (SofaPython3's controllers write data
  /// between steps; the ODE solvers keep their history, as SOFA's do for a changed load). Only
  /// the fields a component declared changeable (BuildContext::AddRuntimeField, listed by
  /// RuntimeFields) can be; throws UsageError for any other, naming those that can, and for
  /// values the field refuses (a wrong count), naming the field.
  void SetComponentField(std::string_view component, std::string_view field,
                         std::span<const double> values);
  /// The fields of `component` SetComponentField accepts, in declaration order (empty for an
  /// unknown component or one with none).
  std::vector<std::string> RuntimeFields(std::string_view component) const;

  /// The matrix of `component` ("root/beam/FEM") at the current state, over the DOFs of the
  /// MechanicalObject it acts on (point i, axis a is row i·dimension + a), with no projection of
  /// fixed DOFs — what SofaPython3's assembleKMatrix / assembleMMatrix give, up to their sign
  /// convention (SOFA's is ∂f/∂x = −K). Force fields a mass adds (its weight) count with its
  /// stiffness (zero). Throws UsageError for a component that has no such matrix, and for one
  /// whose matrix cannot be isolated: it acts on a mapped object or on two objects, or it shares
  /// its object's mass with another mass component.
  SparseMatrix ComponentMatrix(std::string_view component, ComponentMatrixKind kind) const;
  /// The last linear system solved by the solver node at `node_path` ("root/beam"), recorded
  /// when that node holds a MatrixLinearSystem (SOFA's component that stores the system; a node
  /// without one pays nothing). Throws UsageError for an unknown node or one that records none.
  LinearSystemRecord LastLinearSystem(std::string_view node_path) const;
  /// Every per-element output of the scene's components at the current state, in the order
  /// the components were built (document order). Computed on each call (it allocates): for
  /// outputs and inspection, not for the inner loop.
  std::vector<ElementValues> ElementOutputs() const;

 private:
  friend struct internal::SimulationAccess;
  struct Impl;
  explicit Simulation(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion
