#include "fluxion/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/text_parsing.h"
#include "fluxion/contact_times.h"
#include "fluxion/errors.h"
#include "mechanics/assembled_system.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

namespace internal {

namespace {
// The largest |x_i| and |v_i| of a state (0 for an empty one).
StateSize SizeOf(const State& state) {
  return {state.x.size() > 0 ? state.x.cwiseAbs().maxCoeff() : 0.0,
          state.v.size() > 0 ? state.v.cwiseAbs().maxCoeff() : 0.0};
}
}  // namespace

Simulation SimulationAccess::Create(
    std::shared_ptr<const Model> model, std::vector<SolverNode> nodes,
    std::shared_ptr<const ComponentRegistry> registry, std::vector<ObserverSlot> observers,
    std::vector<MappedRuntime> mapped, std::unique_ptr<ContactStage> contacts,
    std::vector<RuntimeField> runtime_fields, std::vector<MatrixSource> matrix_sources) {
  auto impl = std::make_unique<Simulation::Impl>();
  impl->time = model->start_time;
  impl->clock = StepClock(model->start_time, model->dt);
  impl->model = std::move(model);
  impl->registry = std::move(registry);
  impl->nodes = std::move(nodes);
  impl->observers = std::move(observers);
  impl->mapped = std::move(mapped);
  impl->contact_stage = std::move(contacts);
  impl->runtime_fields = std::move(runtime_fields);
  impl->matrix_sources = std::move(matrix_sources);
  impl->static_position.resize(impl->model->objects.size());
  impl->static_velocity.resize(impl->model->objects.size());
  for (std::size_t k = 0; k < impl->model->objects.size(); ++k) {
    const ObjectModel& object = impl->model->objects[k];
    if (object.system >= 0 && object.mapped_from < 0) continue;
    impl->static_position[k] = object.position;
    impl->static_velocity[k] = object.velocity;
  }
  // The nodes' states hold their objects' initial positions and velocities, not yet projected.
  for (const SolverNode& node : impl->nodes) impl->start_sizes.push_back(SizeOf(node.state));
  impl->state_positions.resize(impl->nodes.size());
  for (SolverNode& node : impl->nodes) {
    node.state.time = impl->time;
    // SOFA's Simulation::init projects positions and velocities once, at the start time, before
    // the first step (a moving point starts on its path, a point on a plane in the plane).
    AssembledSystem& system = impl->assembled(node);
    system.SetTime(impl->time);
    if (system.has_state_constraints()) system.ProjectState(impl->time, node.state);
    node.solver->Initialize(*node.system, node.linear_solver.get());
  }
  impl->UpdateMapped();
  // SOFA's SimulationInitDoneEvent: exporters write their first file, players set the state at
  // the start time, before anything reads it.
  impl->Notify(Simulation::Impl::Moment::kBegin);
  return Simulation(std::move(impl));
}

}  // namespace internal

// What observers see: the simulation at one moment, forces computed per solver node on request.
class Simulation::Impl::Observation final : public ObservedState {
 public:
  explicit Observation(Simulation::Impl& impl)
      : impl_(impl), forces_(impl.nodes.size()), computed_(impl.nodes.size(), false) {}
  long step() const override { return impl_.step_count; }
  double time() const override { return impl_.time; }
  const Model& model() const override { return *impl_.model; }
  Eigen::Map<const Vector> position(int index) const override {
    return impl_.Position(Object(index), index);
  }
  Eigen::Map<const Vector> velocity(int index) const override {
    return impl_.Velocity(Object(index), index);
  }
  Vector force(int index) const override {
    const ObjectModel& object = Object(index);
    if (object.system < 0) return Vector::Zero(object.num_dofs());
    if (object.mapped_from >= 0) {
      // The child's own force fields at its mapped state (SOFA's mapped MechanicalObject force).
      Vector child_force = Vector::Zero(object.num_dofs());
      for (const internal::MappedRuntime& m : impl_.mapped)
        if (m.object == index && m.field != nullptr)
          m.field->ChildForce(impl_.nodes[static_cast<std::size_t>(m.system)].state, child_force);
      return child_force;
    }
    const auto node = static_cast<std::size_t>(object.system);
    if (!computed_[node]) {
      const SolverNode& solver_node = impl_.nodes[node];
      forces_[node].resize(solver_node.system->num_dofs());
      solver_node.system->ComputeForce(solver_node.state, forces_[node]);
      computed_[node] = true;
    }
    return forces_[node].segment(object.offset, object.num_dofs());
  }

 private:
  const ObjectModel& Object(int index) const {
    if (index < 0 || index >= static_cast<int>(impl_.model->objects.size()))
      throw UsageError("ObservedState: no object " + std::to_string(index));
    return impl_.model->objects[static_cast<std::size_t>(index)];
  }
  Simulation::Impl& impl_;
  mutable std::vector<Vector> forces_;
  mutable std::vector<bool> computed_;
};

// What Drive may change: any object's state; the nodes changed are projected afterwards.
class Simulation::Impl::Setter final : public StateSetter {
 public:
  explicit Setter(Simulation::Impl& impl) : impl_(impl), changed_(impl.nodes.size(), false) {}
  double time() const override { return impl_.time; }
  const Model& model() const override { return *impl_.model; }
  void SetPosition(int index, std::span<const double> values) override { Set(index, values, true); }
  void SetVelocity(int index, std::span<const double> values) override {
    Set(index, values, false);
  }
  // SOFA's ReadState projects positions and velocities after setting them.
  void ProjectChanged() {
    for (std::size_t k = 0; k < changed_.size(); ++k) {
      if (!changed_[k]) continue;
      SolverNode& node = impl_.nodes[k];
      internal::AssembledSystem& system = impl_.assembled(node);
      if (system.has_state_constraints()) system.ProjectState(impl_.time, node.state);
    }
    impl_.UpdateMapped();
  }

 private:
  void Set(int index, std::span<const double> values, bool position) {
    const char* what = position ? "SetPosition" : "SetVelocity";
    if (index < 0 || index >= static_cast<int>(impl_.model->objects.size()))
      throw UsageError(std::string(what) + ": no object " + std::to_string(index));
    const ObjectModel& object = impl_.model->objects[static_cast<std::size_t>(index)];
    if (static_cast<Index>(values.size()) != object.num_dofs())
      throw UsageError(std::string(what) + ": object '" + object.id + "' has " +
                       std::to_string(object.num_dofs()) + " values, got " +
                       std::to_string(values.size()));
    const Eigen::Map<const Vector> given(values.data(), object.num_dofs());
    // A mapped object played like a static one: its mapping overwrites it after the next change.
    if (object.system < 0 || object.mapped_from >= 0) {
      (position ? impl_.static_position : impl_.static_velocity)[static_cast<std::size_t>(index)] =
          given;
      return;
    }
    SolverNode& node = impl_.nodes[static_cast<std::size_t>(object.system)];
    (position ? node.state.x : node.state.v).segment(object.offset, object.num_dofs()) = given;
    node.solver->InvalidateHistory();
    changed_[static_cast<std::size_t>(object.system)] = true;
  }
  Simulation::Impl& impl_;
  std::vector<bool> changed_;
};

Eigen::Map<const Vector> Simulation::Impl::Position(const ObjectModel& object, int index) const {
  if (object.system < 0 || object.mapped_from >= 0) {
    const Vector& x = static_position[static_cast<std::size_t>(index)];
    return {x.data(), x.size()};
  }
  return {nodes[static_cast<std::size_t>(object.system)].state.x.data() + object.offset,
          object.num_dofs()};
}

Eigen::Map<const Vector> Simulation::Impl::Velocity(const ObjectModel& object, int index) const {
  if (object.system < 0 || object.mapped_from >= 0) {
    const Vector& v = static_velocity[static_cast<std::size_t>(index)];
    return {v.data(), v.size()};
  }
  return {nodes[static_cast<std::size_t>(object.system)].state.v.data() + object.offset,
          object.num_dofs()};
}

void Simulation::Impl::Notify(Moment moment) {
  // Without observers a step stays free of allocations.
  if (observers.empty()) return;
  // An observer's failure becomes one scene error at its line.
  const auto guarded = [](const internal::ObserverSlot& slot, const auto& call) {
    try {
      call();
    } catch (const SceneError&) {
      throw;
    } catch (const std::exception& error) {
      throw SceneError({SceneDiagnostic{slot.file, slot.line, slot.type + ": " + error.what()}});
    }
  };
  if (moment != Moment::kEnd) {
    Setter setter(*this);
    for (internal::ObserverSlot& slot : observers)
      guarded(slot, [&] { slot.observer->Drive(step_count, setter); });
    setter.ProjectChanged();
  }
  const Observation observation(*this);
  for (internal::ObserverSlot& slot : observers) {
    guarded(slot, [&] {
      switch (moment) {
        case Moment::kBegin:
          slot.observer->Begin(observation);
          break;
        case Moment::kAfterStep:
          slot.observer->AfterStep(observation);
          break;
        case Moment::kEnd:
          slot.observer->End(observation);
          break;
      }
    });
  }
}

Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

const Model& Simulation::model() const { return *impl_->model; }
std::shared_ptr<const Model> Simulation::shared_model() const { return impl_->model; }
double Simulation::dt() const { return impl_->model->dt; }
double Simulation::time() const { return impl_->clock.TimeAt(impl_->step_count); }
double Simulation::TimeAt(long step) const { return impl_->clock.TimeAt(step); }

std::optional<long> Simulation::StepsUntil(double end_time) const {
  const long now = step_count();
  const double h = dt();
  const double reach = end_time - 1e-9 * h;
  const double estimate = std::ceil((end_time - TimeAt(now)) / h - 1e-9);
  if (!(estimate < 0x1p62)) return std::nullopt;  // also NaN
  if (estimate <= 0) return 0L;
  // The estimate's division may be off by a step either way: settle it on the times themselves.
  long steps = static_cast<long>(estimate);
  while (steps > 0 && TimeAt(now + steps - 1) >= reach) --steps;
  while (TimeAt(now + steps) < reach) ++steps;
  return steps;
}
double Simulation::sofa_time() const { return impl_->time; }
long Simulation::step_count() const { return impl_->step_count; }
const std::vector<SolverNode>& Simulation::solver_nodes() const { return impl_->nodes; }

Eigen::Map<const Vector> Simulation::position(int index) const {
  return impl_->Position(impl_->ObjectAt(index, "position"), index);
}

Eigen::Map<const Vector> Simulation::velocity(int index) const {
  return impl_->Velocity(impl_->ObjectAt(index, "velocity"), index);
}

namespace {
void CheckSize(const ObjectModel& object, Index size, const char* what) {
  if (size != object.num_dofs())
    throw UsageError(std::string(what) + ": object '" + object.id + "' has " +
                     std::to_string(object.num_dofs()) + " values (" +
                     std::to_string(object.num_points) + " points × " +
                     std::to_string(object.dimension) + "), got " + std::to_string(size));
}
}  // namespace

void Simulation::SetPosition(int index, const Eigen::Ref<const Vector>& values) {
  SolverNode& node = impl_->NodeOf(index, "SetPosition");
  const ObjectModel& object = impl_->model->objects[static_cast<std::size_t>(index)];
  CheckSize(object, values.size(), "SetPosition");
  node.state.x.segment(object.offset, object.num_dofs()) = values;
  // The state no longer continues the solver's last step: its history starts again.
  node.solver->InvalidateHistory();
  impl_->UpdateMapped();
}

void Simulation::SetVelocity(int index, const Eigen::Ref<const Vector>& values) {
  SolverNode& node = impl_->NodeOf(index, "SetVelocity");
  const ObjectModel& object = impl_->model->objects[static_cast<std::size_t>(index)];
  CheckSize(object, values.size(), "SetVelocity");
  node.state.v.segment(object.offset, object.num_dofs()) = values;
  node.solver->InvalidateHistory();
  impl_->UpdateMapped();
}

namespace {

/// The scene line of the ODE solver of `node` (0 when the model does not know it).
int SolverLine(const Model& model, const SolverNode& node) {
  for (const ComponentModel& component : model.components)
    if (component.kind == ComponentKind::kOdeSolver && component.node_path == node.node_path)
      return component.line;
  return 0;
}

/// "position of point 3 (y) of object 'root/cloth/dofs'" for DOF `dof` of `node`, or "" when no
/// object holds it.
std::string DescribeDof(const Model& model, const SolverNode& node, Index dof) {
  for (const int index : node.objects) {
    const ObjectModel& object = model.objects[static_cast<std::size_t>(index)];
    if (dof < object.offset || dof >= object.offset + object.num_dofs()) continue;
    const Index local = dof - object.offset;
    static constexpr const char* kAxes[] = {"x", "y", "z"};
    return "point " + std::to_string(local / object.dimension) + " (" +
           kAxes[local % object.dimension] + ") of object '" + internal::Shown(object.id) + "'";
  }
  return {};
}

std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

/// "; at the step's start max |x| = …, max |v| = … (… and … at t = t₀)", and whether the state
/// has grown that much: whether a rejected step (a non-finite state, an implicit matrix that
/// is not positive definite) comes from a motion that was already blowing up or from one step
/// too large for a calm state, the numbers tell the user.
std::string DescribeGrowth(const Model& model, const SolverNode& node,
                           const internal::StateSize& start) {
  // Solver::Step restored the state the step started from.
  const internal::StateSize now = internal::SizeOf(node.state);
  std::string text = "; at the step's start max |x| = " + Short(now.position) +
                     " and max |v| = " + Short(now.velocity) + " (" + Short(start.position) +
                     " and " + Short(start.velocity) + " at t = " + Short(model.start_time) + ")";
  // Blowing up: positions twice as far out as any was, or velocities ten times the initial ones
  // that carry points across the scene's initial extent in one step.
  const double dt = model.dt;
  const bool growing = now.position > 2.0 * start.position ||
                       (now.velocity > 10.0 * start.velocity && now.velocity * dt > start.position);
  // What keeps it bounded depends on the solver and on the scene's damping (a smaller dt does
  // not help an implicit solver with explicit dashpots; more damping lowers RK4's limit): the
  // tools measure it (scene-runner's failure advice), the message says what happened.
  if (growing) text += ": the motion is blowing up";
  return text;
}

}  // namespace

void Simulation::Step() {
  // SOFA's AnimateBeginEvent comes first: a TopologicalChangeProcessor changes the topology
  // (and the runtime continues on the rebuilt node) before anything of the step reads it.
  if (impl_->topology_changes) impl_->topology_changes->BeforeStep(*this);
  const double dt = impl_->model->dt;
  // The components' own AnimateBeginEvent handlers (a pressure ramp): on the topology the step
  // uses.
  for (const internal::StepStart& hook : impl_->step_starts) hook(impl_->step_count, dt);
  // SOFA's order: collision reset, detection and response on the positions the step starts
  // from, then the solvers.
  impl_->RunContacts();
  for (SolverNode& node : impl_->nodes) {
    // Constraints whose held points depend on time (LinearMovementProjectiveConstraint) decide
    // them at the time the step starts, as SOFA's do from their node's time.
    internal::AssembledSystem& system = impl_->assembled(node);
    const double start_time = node.state.time;
    system.SetTime(start_time);
    const StepResult result = node.solver->Step(*node.system, dt, node.state);
    if (result.status == StepStatus::kNotConverged) impl_->ReportNotConverged(node, result);
    if (!result.accepted()) {
      impl_->repeated_warnings.Flush();  // the summary before the failure it led to
      std::string message = result.message;
      if (result.nonfinite_dof >= 0) {
        const std::string dof = DescribeDof(*impl_->model, node, result.nonfinite_dof);
        if (!dof.empty())
          message = (message.rfind("velocity", 0) == 0 ? "the velocity of " : "the position of ") +
                    dof + " is not finite (the integration diverged)";
      }
      // Names from the scene are shown quoted and cut (one error, one line); the solver's line
      // lets the tools print "FILE:LINE: numerical failure at …".
      throw NumericalError(
          impl_->step_count + 1, impl_->clock.TimeAt(impl_->step_count + 1),
          node.solver_type + " in node '" + internal::Shown(node.node_path) + "': " + message +
              DescribeGrowth(
                  *impl_->model, node,
                  impl_->start_sizes[static_cast<std::size_t>(&node - impl_->nodes.data())]),
          SolverLine(*impl_->model, node));
    }
    // SOFA's DefaultAnimationLoop projects positions and velocities after the ODE solver, before
    // it advances the node's time: constraints see the time the step started at. The solver's
    // history is kept (SOFA's solvers do not restart either).
    if (system.has_state_constraints()) system.ProjectState(start_time, node.state);
    // SOFA's MechanicalObject::endIntegration clears externalForce after every step.
    system.ClearExternalForce();
  }
  impl_->UpdateMapped();
  ++impl_->step_count;
  // SOFA's node time advances by accumulation (t += dt), as every solver's state did; time()
  // reports t₀ + n·h from the step count instead.
  impl_->time = impl_->nodes.empty() ? impl_->time + dt : impl_->nodes.front().state.time;
  // SOFA's AnimateEndEvent (exporters) and the next AnimateBeginEvent (WriteState, ReadState).
  if (!impl_->finished) impl_->Notify(Impl::Moment::kAfterStep);
}

void Simulation::Impl::ReportNotConverged(const SolverNode& node, const StepResult& result) {
  // Kind: this solver node's inner iteration missing its tolerance. The step and time are the
  // ones the step reaches, t₀ + n·h as every message gives them.
  const auto index = static_cast<std::size_t>(&node - nodes.data());
  const int line = SolverLine(*model, node);
  const std::string where =
      (line > 0 ? model->file + ":" + std::to_string(line) + ": " : model->file + ": ") +
      node.solver_type + " in node '" + internal::Shown(node.node_path) + "'";
  const long step = step_count + 1;
  repeated_warnings.Report(
      "node " + std::to_string(index) + ": not converged", where, result.residual,
      "step " + std::to_string(step) + " (t = " + internal::FormatReal(clock.TimeAt(step)) +
          "): " + result.message);
}

void Simulation::Finish() {
  if (impl_->finished) return;
  impl_->finished = true;
  impl_->repeated_warnings.Flush();
  // The observers are released however End ends: their files are closed, what they wrote kept.
  struct Release {
    Impl& impl;
    ~Release() { impl.observers.clear(); }
  } release{*impl_};
  impl_->Notify(Impl::Moment::kEnd);
}

void Simulation::Run(long steps, const std::function<void(const Simulation&)>& after_step) {
  for (long k = 0; k < steps; ++k) {
    Step();
    if (after_step) after_step(*this);
  }
}

const std::vector<Contact>& Simulation::contacts() const {
  static const std::vector<Contact> kNone;
  return impl_->contact_stage ? impl_->contact_stage->contacts() : kNone;
}

const std::vector<std::string>& Simulation::collision_models() const {
  static const std::vector<std::string> kNone;
  return impl_->contact_stage ? impl_->contact_stage->model_paths() : kNone;
}

const internal::ContactStage* internal::SimulationAccess::ContactStageOf(
    const Simulation& simulation) {
  return simulation.impl_->contact_stage.get();
}

internal::ContactStage* internal::SimulationAccess::MutableContactStageOf(Simulation& simulation) {
  return simulation.impl_->contact_stage.get();
}

ContactTimes MeasuredContactTimes(const Simulation& simulation) {
  const internal::ContactStage* stage = internal::SimulationAccess::ContactStageOf(simulation);
  return stage != nullptr ? stage->times() : ContactTimes{};
}

double Simulation::KineticEnergy() const {
  double energy = 0.0;
  for (const SolverNode& node : impl_->nodes) energy += node.system->KineticEnergy(node.state);
  return energy;
}

double Simulation::PotentialEnergy() const {
  double energy = 0.0;
  for (const SolverNode& node : impl_->nodes) energy += node.system->PotentialEnergy(node.state);
  return energy;
}

}  // namespace fluxion
