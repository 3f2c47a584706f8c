#include "simulation/simulation.h"

#include "fluxion/errors.h"

namespace fluxion::internal {

Simulation::Simulation(double dt, double start_time, std::vector<MechanicalObjectData> objects,
                       std::vector<SolverNode> solver_nodes)
    : dt_(dt),
      time_(start_time),
      objects_(std::move(objects)),
      solver_nodes_(std::move(solver_nodes)) {
  for (SolverNode& node : solver_nodes_) {
    node.state.time = start_time;
    node.solver->Initialize(*node.system, node.linear_solver.get());
  }
}

Simulation::Simulation(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

Eigen::Map<const Vector> Simulation::position(int index) const {
  const MechanicalObjectData& object = objects_[index];
  if (object.system < 0) return {object.position.data(), object.num_dofs()};
  return {solver_nodes_[object.system].state.x.data() + object.offset, object.num_dofs()};
}

Eigen::Map<const Vector> Simulation::velocity(int index) const {
  const MechanicalObjectData& object = objects_[index];
  if (object.system < 0) return {object.velocity.data(), object.num_dofs()};
  return {solver_nodes_[object.system].state.v.data() + object.offset, object.num_dofs()};
}

void Simulation::Step() {
  for (SolverNode& node : solver_nodes_) {
    const StepResult result = node.solver->Step(*node.system, dt_, node.state);
    if (!result.accepted()) {
      throw NumericalError(
          step_count_ + 1, time_ + dt_,
          node.solver_type + " in node '" + node.node_path + "': " + result.message);
    }
    // SOFA's MechanicalObject::endIntegration clears externalForce after every step.
    node.system->ClearExternalForce();
  }
  ++step_count_;
  // Time advances as in SOFA (t += dt), which is also what every solver's state did.
  time_ = solver_nodes_.empty() ? time_ + dt_ : solver_nodes_.front().state.time;
}

double Simulation::KineticEnergy() const {
  double energy = 0.0;
  for (const SolverNode& node : solver_nodes_) energy += node.system->KineticEnergy(node.state);
  return energy;
}

double Simulation::PotentialEnergy() const {
  double energy = 0.0;
  for (const SolverNode& node : solver_nodes_) energy += node.system->PotentialEnergy(node.state);
  return energy;
}

}  // namespace fluxion::internal
