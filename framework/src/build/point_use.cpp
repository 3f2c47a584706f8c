#include "build/point_use.h"

#include "mechanics/mapped_force_field.h"
#include "mechanics/penalty_contact_force_field.h"
#include "mechanics/pressure_force_fields.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/time_dependent_forces.h"
#include "mechanics/triangle_fem.h"

namespace fluxion::internal {

namespace {

// The DOFs a force field acts on (see the header), marked in `used`.
void MarkForceField(const ForceField& field, std::vector<char>& used) {
  const auto mark = [&](Index dof) { used[static_cast<std::size_t>(dof)] = 1; };
  // A mapped child's fields and the contacts: their mapping's columns and the collision models'
  // points stand for them (DofsInUse).
  if (dynamic_cast<const MappedForceField*>(&field) != nullptr ||
      dynamic_cast<const PenaltyContactForceField*>(&field) != nullptr)
    return;
  if (const auto* force = dynamic_cast<const ConstantForce*>(&field)) {
    if (force->weight() != nullptr) return;  // m·g through a mass
    for (const Index dof : force->dofs()) mark(dof);
    return;
  }
  // Loads without a Jacobian list their points by first DOF: marking it marks the point.
  if (const auto* load = dynamic_cast<const KeyFramedForce*>(&field)) {
    for (const Index dof : load->point_dofs()) mark(dof);
    return;
  }
  if (const auto* load = dynamic_cast<const SinusoidalForce*>(&field)) {
    for (const Index dof : load->point_dofs()) mark(dof);
    return;
  }
  if (const auto* pressure = dynamic_cast<const EdgeNormalPressure*>(&field)) {
    for (const EdgeNormalPressure::Edge& edge : pressure->edges()) {
      mark(edge.a);
      mark(edge.b);
      if (edge.side >= 0) mark(edge.side);
    }
    return;
  }
  if (const auto* traction = dynamic_cast<const TriangleCauchyTraction*>(&field)) {
    for (const auto& triangle : traction->triangles())
      for (const Index dof : triangle) mark(dof);
    return;
  }
  // A membrane or volume built without elements on an empty container (build/
  // empty_element_fields.h) acts nowhere.
  if (const auto* fem = dynamic_cast<const TriangleFem*>(&field); fem && fem->num_elements() == 0)
    return;
  if (const auto* fem = dynamic_cast<const TetrahedronFem*>(&field);
      fem && fem->num_elements() == 0)
    return;
  std::vector<MatrixEntry> stiffness, damping;
  field.StiffnessEntries(stiffness);
  field.DampingEntries(damping);
  if (stiffness.empty() && damping.empty()) {
    // A law Fluxion cannot see into: it may act anywhere.
    std::fill(used.begin(), used.end(), 1);
    return;
  }
  for (const MatrixEntry& entry : stiffness) {
    mark(entry.row);
    mark(entry.col);
  }
  for (const MatrixEntry& entry : damping) {
    if (entry.row == entry.col) continue;
    mark(entry.row);
    mark(entry.col);
  }
}

// The points of a collision model's elements (its kind's: SOFA's Point and Sphere models take
// every point, the Line model the edges, the Triangle model the triangles and the quads').
std::vector<Index> CollisionPoints(const collision::CollisionModelDescription& model) {
  const collision::ObjectTopology& topology = model.topology;
  std::vector<Index> points;
  switch (model.kind) {
    case collision::ElementKind::kPoint:
    case collision::ElementKind::kSphere:
      for (Index i = 0; i < topology.num_points; ++i) points.push_back(i);
      break;
    case collision::ElementKind::kLine:
      for (const auto& edge : topology.edges) points.insert(points.end(), edge.begin(), edge.end());
      break;
    case collision::ElementKind::kTriangle:
      for (const auto& triangle : topology.triangles)
        points.insert(points.end(), triangle.begin(), triangle.end());
      for (const auto& quad : topology.quads) points.insert(points.end(), quad.begin(), quad.end());
      break;
  }
  return points;
}

}  // namespace

std::vector<char> DofsInUse(const BuildState& state, int system, const ContactPlan* contacts) {
  const SystemParts& parts = state.parts[static_cast<std::size_t>(system)];
  std::vector<char> used(static_cast<std::size_t>(parts.num_dofs), 0);
  const auto mark = [&](Index dof) { used[static_cast<std::size_t>(dof)] = 1; };
  for (const auto& field : parts.force_fields) MarkForceField(*field, used);
  for (const auto& coupling : parts.mass_couplings) {
    mark(coupling.row());
    mark(coupling.col());
  }
  for (Index dof = 0; dof < parts.external_force.size(); ++dof)
    if (parts.external_force[dof] != 0.0) mark(dof);
  for (const PointProjector& projector : parts.projectors)
    for (int axis = 0; axis < projector.dimension; ++axis) mark(projector.first_dof + axis);
  for (const StateConstraint& constraint : parts.constraints)
    for (const Index dof : constraint.held_dofs) mark(dof);
  // Mappings onto this system: J's columns (child DOFs × system DOFs once composed).
  for (const MappedObject& mapped : state.mapped) {
    if (state.objects[static_cast<std::size_t>(mapped.object)].system != system) continue;
    const LinearMapping::RowMajorMatrix& jacobian = mapped.jacobian;
    for (int row = 0; row < jacobian.outerSize(); ++row)
      for (LinearMapping::RowMajorMatrix::InnerIterator it(jacobian, row); it; ++it) mark(it.col());
  }
  if (contacts == nullptr) return used;
  for (std::size_t m = 0; m < contacts->models.size(); ++m) {
    const ContactModelPlacement& placement = contacts->placements[m];
    if (placement.object_system != system) continue;
    for (const Index point : CollisionPoints(contacts->models[m])) {
      for (Index axis = 0; axis < 3; ++axis) {
        const Index row = 3 * point + axis;
        if (placement.mapping == nullptr) {
          mark(placement.offset + row);
          continue;
        }
        for (Index k = placement.mapping->row_start(row); k < placement.mapping->row_start(row + 1);
             ++k)
          mark(placement.mapping->col(k));
      }
    }
  }
  return used;
}

}  // namespace fluxion::internal
