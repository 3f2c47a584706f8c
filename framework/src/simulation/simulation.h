// A loaded scene, ready to step: every solver node with its system, state and solver.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/state.h"
#include "mechanics/assembled_system.h"
#include "mechanics/mechanical_object.h"
#include "plugin/component_registry.h"

namespace fluxion::internal {

/// One ODE solver node and what it integrates. Member order is destruction order in reverse:
/// the solver goes first, then the linear solver, then the system it points to.
struct SolverNode {
  std::string solver_type;  ///< component name, e.g. "EulerExplicitSolver"
  std::string node_path;    ///< e.g. "root/bob"
  std::unique_ptr<AssembledSystem> system;
  std::unique_ptr<LinearSolver> linear_solver;  ///< null when the scene provides none
  SolverHandle solver;
  State state;
  std::vector<int> objects;  ///< indices into Simulation::objects()
};

/// The stepping loop of a scene: all solver nodes advance by the same dt, one after the other in
/// document order (they are independent: no force field crosses two solver nodes).
class FLUXION_API Simulation {
 public:
  Simulation(double dt, double start_time, std::vector<MechanicalObjectData> objects,
             std::vector<SolverNode> solver_nodes);
  Simulation(Simulation&&) noexcept;
  ~Simulation();

  double dt() const { return dt_; }
  double time() const { return time_; }
  long step_count() const { return step_count_; }
  const std::vector<MechanicalObjectData>& objects() const { return objects_; }
  const std::vector<SolverNode>& solver_nodes() const { return solver_nodes_; }

  /// Current positions / velocities of object `index` (its initial ones if no solver moves it).
  Eigen::Map<const Vector> position(int index) const;
  Eigen::Map<const Vector> velocity(int index) const;

  /// Advances every solver node by dt. Throws NumericalError (with the step number and the time
  /// at which the state stopped being finite, or the solver's failure) and leaves the last good
  /// state in place.
  void Step();

  /// Sums over all solver nodes (static objects carry no energy).
  double KineticEnergy() const;
  double PotentialEnergy() const;

 private:
  double dt_;
  double time_;
  long step_count_ = 0;
  std::vector<MechanicalObjectData> objects_;
  std::vector<SolverNode> solver_nodes_;
};

}  // namespace fluxion::internal
