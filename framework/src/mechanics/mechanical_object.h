// A MechanicalObject's data: the points of one template (Vec1d/Vec2d/Vec3d) in one node.
#pragma once

#include <string>

#include "fluxion/types.h"

namespace fluxion::internal {

struct MechanicalObjectData {
  std::string id;     ///< "<node path>/<object name>", e.g. "root/bob/dofs" (CSV column prefix)
  std::string name;   ///< the object's name attribute, or "MechanicalObject"
  int dimension = 3;  ///< 1, 2 or 3 (the template)
  Index num_points = 0;
  Vector position;        ///< initial positions, num_points × dimension, point by point
  Vector velocity;        ///< initial velocities
  Vector rest_position;   ///< rest configuration (mesh springs take their rest lengths from it)
  Vector external_force;  ///< SOFA's externalForce: applied during the first step only
  Index offset = 0;       ///< first DOF of this object in its solver's system
  int system = -1;        ///< index of the solver system governing it, -1 if none (static)
  int line = 0;

  Index num_dofs() const { return num_points * dimension; }
};

}  // namespace fluxion::internal
