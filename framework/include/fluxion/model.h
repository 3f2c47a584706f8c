// The model of a built scene: what it contains, immutable once built. Writers and tools read the
// model; the runtime (fluxion/simulation.h) steps the state.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/parameters.h"
#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion {

/// One MechanicalObject: the points of one template (Vec1d/Vec2d/Vec3d) in one node, with their
/// initial state and the topology of its node (if any).
struct ObjectModel {
  std::string id;     ///< "<node path>/<object name>", e.g. "root/bob/dofs" (CSV column prefix)
  std::string name;   ///< the object's name attribute, or "MechanicalObject"
  int dimension = 3;  ///< 1, 2 or 3 (the template)
  Index num_points = 0;
  Vector position;        ///< initial positions [m], num_points × dimension, point by point
  Vector velocity;        ///< initial velocities [m/s]
  Vector rest_position;   ///< rest configuration (mesh springs take their rest lengths from it)
  Vector external_force;  ///< SOFA's externalForce [N]: applied during the first step only
  Index offset = 0;       ///< first DOF of this object in its solver's system
  int system = -1;        ///< index of the solver node integrating it, -1 if none (static)
  int line = 0;           ///< line of its element in the scene file
  /// For a mapped object (the output of a mechanical mapping: IdentityMapping, SubsetMapping,
  /// BarycentricMapping), the index of the object it is mapped from, else -1. A mapped object
  /// has no DOFs of its own in its solver's system: its positions and velocities are computed
  /// from its parent's (x = J·x_parent, v = J·v_parent) and its forces, stiffness and mass act
  /// on the parent through Jᵀ. `system` is the system integrating the parent (-1 if static);
  /// `offset` is 0 (its components see it as a system of its own).
  int mapped_from = -1;
  /// The topology of the object's node, or null. Its points are the object's rest layout;
  /// its elements index the object's points.
  std::shared_ptr<const Topology> topology;

  Index num_dofs() const { return num_points * dimension; }
};

/// One component of the scene as built (masses, force fields, constraints, solvers, …).
struct ComponentModel {
  std::string type;  ///< the element name as written (SOFA's class name or an alias)
  std::string name;  ///< its name attribute (default: the type)
  std::string node_path;
  ComponentKind kind = ComponentKind::kForceField;
  int line = 0;
};

/// One solver node: an ODE solver and the objects of its subtree it integrates.
struct SolverNodeModel {
  std::string node_path;           ///< e.g. "root/bob"
  std::string solver_type;         ///< e.g. "EulerImplicitSolver"
  std::string linear_solver_type;  ///< e.g. "SparseLDLSolver", empty if none
  std::vector<int> objects;        ///< indices into Model::objects
};

/// The built scene. Shared (read-only) by the simulation and everything that reads it.
struct Model {
  std::string file;  ///< the scene file as given (for messages)
  double dt = 0.01;
  double start_time = 0.0;
  /// The root node's gravity [m/s²] (its Gravity component's, else its `gravity`); a subtree may
  /// have its own. What pictures take as "down".
  std::array<double, 3> gravity{0.0, 0.0, 0.0};
  std::vector<ObjectModel> objects;           ///< in document order
  std::vector<ComponentModel> components;     ///< in document order
  std::vector<SolverNodeModel> solver_nodes;  ///< in document order

  /// Index of the object with this id, or -1.
  int FindObject(std::string_view id) const {
    for (std::size_t k = 0; k < objects.size(); ++k)
      if (objects[k].id == id) return static_cast<int>(k);
    return -1;
  }
};

}  // namespace fluxion
