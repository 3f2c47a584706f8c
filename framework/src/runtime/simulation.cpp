#include "fluxion/simulation.h"

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "mechanics/assembled_system.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

namespace internal {

Simulation SimulationAccess::Create(std::shared_ptr<const Model> model,
                                    std::vector<SolverNode> nodes,
                                    std::shared_ptr<const ComponentRegistry> registry) {
  auto impl = std::make_unique<Simulation::Impl>();
  impl->time = model->start_time;
  impl->model = std::move(model);
  impl->registry = std::move(registry);
  impl->nodes = std::move(nodes);
  for (SolverNode& node : impl->nodes) {
    node.state.time = impl->time;
    // SOFA's Simulation::init projects positions and velocities once, at the start time, before
    // the first step (a moving point starts on its path, a point on a plane in the plane).
    AssembledSystem& system = impl->assembled(node);
    system.SetTime(impl->time);
    if (system.has_state_constraints()) system.ProjectState(impl->time, node.state);
    node.solver->Initialize(*node.system, node.linear_solver.get());
  }
  return Simulation(std::move(impl));
}

}  // namespace internal

Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

const Model& Simulation::model() const { return *impl_->model; }
std::shared_ptr<const Model> Simulation::shared_model() const { return impl_->model; }
double Simulation::dt() const { return impl_->model->dt; }
double Simulation::time() const { return impl_->time; }
long Simulation::step_count() const { return impl_->step_count; }
const std::vector<SolverNode>& Simulation::solver_nodes() const { return impl_->nodes; }

Eigen::Map<const Vector> Simulation::position(int index) const {
  const ObjectModel& object = impl_->model->objects[static_cast<std::size_t>(index)];
  if (object.system < 0) return {object.position.data(), object.num_dofs()};
  return {impl_->nodes[static_cast<std::size_t>(object.system)].state.x.data() + object.offset,
          object.num_dofs()};
}

Eigen::Map<const Vector> Simulation::velocity(int index) const {
  const ObjectModel& object = impl_->model->objects[static_cast<std::size_t>(index)];
  if (object.system < 0) return {object.velocity.data(), object.num_dofs()};
  return {impl_->nodes[static_cast<std::size_t>(object.system)].state.v.data() + object.offset,
          object.num_dofs()};
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
}

void Simulation::SetVelocity(int index, const Eigen::Ref<const Vector>& values) {
  SolverNode& node = impl_->NodeOf(index, "SetVelocity");
  const ObjectModel& object = impl_->model->objects[static_cast<std::size_t>(index)];
  CheckSize(object, values.size(), "SetVelocity");
  node.state.v.segment(object.offset, object.num_dofs()) = values;
  node.solver->InvalidateHistory();
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

}  // namespace

void Simulation::Step() {
  const double dt = impl_->model->dt;
  for (SolverNode& node : impl_->nodes) {
    // Constraints whose held points depend on time (LinearMovementProjectiveConstraint) decide
    // them at the time the step starts, as SOFA's do from their node's time.
    internal::AssembledSystem& system = impl_->assembled(node);
    const double start_time = node.state.time;
    system.SetTime(start_time);
    const StepResult result = node.solver->Step(*node.system, dt, node.state);
    if (!result.accepted()) {
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
          impl_->step_count + 1, impl_->time + dt,
          node.solver_type + " in node '" + internal::Shown(node.node_path) + "': " + message,
          SolverLine(*impl_->model, node));
    }
    // SOFA's DefaultAnimationLoop projects positions and velocities after the ODE solver, before
    // it advances the node's time: constraints see the time the step started at. The solver's
    // history is kept (SOFA's solvers do not restart either).
    if (system.has_state_constraints()) system.ProjectState(start_time, node.state);
    // SOFA's MechanicalObject::endIntegration clears externalForce after every step.
    system.ClearExternalForce();
  }
  ++impl_->step_count;
  // Time advances as in SOFA (t += dt), which is also what every solver's state did.
  impl_->time = impl_->nodes.empty() ? impl_->time + dt : impl_->nodes.front().state.time;
}

void Simulation::Run(long steps, const std::function<void(const Simulation&)>& after_step) {
  for (long k = 0; k < steps; ++k) {
    Step();
    if (after_step) after_step(*this);
  }
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
