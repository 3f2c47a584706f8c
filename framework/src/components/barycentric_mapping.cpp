#include "components/barycentric_mapping.h"

#include "components/mechanical_mapping.h"
#include "mechanics/barycentric_weights.h"

namespace fluxion::internal {

ComponentSpec BarycentricMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  fields.push_back(FieldSpec::Bool("useRestPosition", false,
                                   "locate the output's rest positions in the input's rest "
                                   "positions (instead of the positions)"));
  fields.push_back(FieldSpec::Link("input_topology",
                                   "the input's volume mesh (default: the input node's topology)"));
  fields.push_back(
      FieldSpec::Link("output_topology", "SOFA's output topology link, not needed (ignored)"));
  return ComponentSpec{.name = "BarycentricMapping",
                       .kind = ComponentKind::kMapping,
                       .summary =
                           "Maps points embedded in a volume mesh (grid, tetrahedra, "
                           "hexahedra) onto its vertices by barycentric weights",
                       .fields = std::move(fields),
                       .aliases = {}};
}

namespace {

std::vector<Point3> BarycentricPoints(const Vector& coordinates, int dimension) {
  std::vector<Point3> points(static_cast<std::size_t>(coordinates.size() / dimension),
                             Point3{0.0, 0.0, 0.0});
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int a = 0; a < dimension; ++a)
      points[i][static_cast<std::size_t>(a)] = coordinates[static_cast<Index>(i) * dimension + a];
  return points;
}

}  // namespace

void BarycentricMappingComponent::Build(BuildContext& context) {
  const MappingEnds ends = ResolveMappingEnds(context);
  if (ends.parent == nullptr) return;
  const ObjectModel& parent = *ends.parent;
  const ObjectModel& child = *ends.child;
  if (parent.dimension != 3 || child.dimension != 3) {
    context.Error("BarycentricMapping maps '" + parent.id + "' (Vec" +
                  std::to_string(parent.dimension) + ") onto '" + child.id + "' (Vec" +
                  std::to_string(child.dimension) + ") (expected Vec3 objects)");
    return;
  }
  // The input's volume mesh: the linked topology, else the topology of the input's node.
  std::shared_ptr<const Topology> mesh = parent.topology;
  const Parameters& p = context.parameters();
  if (p.has("input_topology") &&
      p.text("input_topology").find_first_not_of(" \t\r\n") != std::string::npos) {
    mesh = context.LinkedTopology("input_topology");
    if (!mesh) return;
  }
  if (!mesh) {
    context.Error("BarycentricMapping: the input '" + parent.id +
                  "' has no topology (expected a RegularGridTopology, tetrahedra or hexahedra "
                  "in its node, or 'input_topology')");
    return;
  }
  const bool rest = p.flag("useRestPosition");
  const std::vector<Point3> points =
      BarycentricPoints(rest ? child.rest_position : child.position, 3);
  const std::vector<Point3> vertices =
      BarycentricPoints(rest ? parent.rest_position : parent.position, 3);
  const auto fits = [&](const auto& elements) {
    for (const auto& element : elements)
      for (const Index v : element)
        if (v < 0 || v >= parent.num_points) return false;
    return true;
  };
  std::vector<PointStencil> stencils;
  if (mesh->sparse_grid && !mesh->hexahedra.empty()) {
    if (static_cast<Index>(mesh->points.size()) != parent.num_points) {
      context.Error("BarycentricMapping: the sparse grid of '" + parent.id + "' has " +
                    std::to_string(mesh->points.size()) + " points and the object " +
                    std::to_string(parent.num_points) + " (expected one per grid point)");
      return;
    }
    stencils = SparseGridWeights(*mesh, points);
  } else if (IsRegularGrid(*mesh) && !mesh->hexahedra.empty()) {
    if (static_cast<Index>(mesh->points.size()) != parent.num_points) {
      context.Error("BarycentricMapping: the grid of '" + parent.id + "' has " +
                    std::to_string(mesh->points.size()) + " points and the object " +
                    std::to_string(parent.num_points) + " (expected one per grid point)");
      return;
    }
    stencils = GridWeights(*mesh, points);
  } else if (!mesh->hexahedra.empty() && fits(mesh->hexahedra)) {
    stencils = HexahedronWeights(mesh->hexahedra, vertices, points);
  } else if (!mesh->tetrahedra.empty() && fits(mesh->tetrahedra)) {
    stencils = TetrahedronWeights(mesh->tetrahedra, vertices, points);
  } else {
    context.Error("BarycentricMapping: the topology of '" + parent.id +
                  "' has no volume elements that index its points (expected a "
                  "RegularGridTopology with volume, tetrahedra or hexahedra; surface inputs "
                  "— triangles, quads, edges — are not supported)");
    return;
  }
  context.MapObject(child, parent, PointJacobian(stencils, parent.num_points, 3));
}

}  // namespace fluxion::internal
