#include "build/in_place_points.h"

#include <algorithm>
#include <set>

#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/simple_force_fields.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

bool FollowsRemovalUnchanged(std::string_view type) {
  static const std::set<std::string, std::less<>> kTypes = {"MechanicalObject",
                                                            "UniformMass",
                                                            "TopologicalChangeProcessor",
                                                            "FixedProjectiveConstraint",
                                                            "FixedConstraint",
                                                            "PartialFixedProjectiveConstraint",
                                                            "AffineMovementProjectiveConstraint",
                                                            "LinearMovementProjectiveConstraint",
                                                            "PlaneProjectiveConstraint",
                                                            "LineProjectiveConstraint",
                                                            "PointProjectiveConstraint",
                                                            "DirectionProjectiveConstraint",
                                                            "FixedPlaneProjectiveConstraint",
                                                            "BoxConstraint",
                                                            "BoxROI",
                                                            "MeshGmshLoader",
                                                            "MeshOBJLoader",
                                                            "MeshObjLoader",
                                                            "MeshVTKLoader"};
  return kTypes.count(type) != 0;
}

const ElementDescription* FindElementAt(const NodeDescription& node, int line) {
  for (const ElementDescription& element : node.components)
    if (element.line == line) return &element;
  for (const NodeDescription& child : node.children)
    if (const ElementDescription* found = FindElementAt(child, line)) return found;
  return nullptr;
}

const ForceField* FieldOf(const Simulation& simulation, const std::string& path, int& sources) {
  const ForceField* field = nullptr;
  sources = 0;
  for (const MatrixSource& source : SimulationAccess::MatrixSources(simulation))
    if (source.component == path && source.kind == ComponentMatrixKind::kStiffness) {
      field = source.field;
      ++sources;
    }
  return field;
}

void SetPointMass(AssembledSystem& system, Index first_dof, int dimension, double mass,
                  std::vector<Index>& mass_dofs, std::vector<double>& masses) {
  system.SetDiagonalMass(first_dof, dimension, mass);
  for (Index dof = first_dof; dof < first_dof + dimension; ++dof) {
    mass_dofs.push_back(dof);
    masses.push_back(mass);
  }
}

void RemovePointsMovingLast(Simulation& simulation, ChangingNode& node, PointIndexedState state,
                            std::span<const Index> removed, std::span<const Index> moved,
                            Index remaining) {
  const int d = state.dimension;
  for (std::size_t i = 0; i < removed.size(); ++i) {
    const Index p = removed[i], last = moved[i];
    state.system.RemovePointMovingLast(state.first_dof + p * d, d);
    for (ConstantForce* force : state.point_forces)
      if (Weight* weight = force->weight())
        weight->RemovePointMovingLast(static_cast<std::size_t>(p));
      else
        force->RemoveEntriesMovingLast(static_cast<std::size_t>(p * d),
                                       static_cast<std::size_t>(d));
    state.rest_points[static_cast<std::size_t>(p)] = state.rest_points.back();
    state.rest_points.pop_back();
    std::erase(state.touched, p);
    std::replace(state.touched.begin(), state.touched.end(), last, p);
    for (Vector* values : {&node.position, &node.velocity, &node.rest_position})
      if (values->size() > (last + 1) * d - 1)
        values->segment(p * d, d) = values->segment(last * d, d);
    for (FollowedIndexList& list : node.index_lists) {
      std::erase(list.indices, p);
      std::replace(list.indices.begin(), list.indices.end(), last, p);
    }
  }
  for (Vector* values : {&node.position, &node.velocity, &node.rest_position})
    if (values->size() > remaining * d) values->conservativeResize(remaining * d);
  SimulationAccess::RemoveObjectPoints(simulation, node.object, removed, moved);
}

}  // namespace fluxion::internal
