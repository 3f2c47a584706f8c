#include "components/mesh_matrix_mass.h"

#include <limits>

#include "components/point_mass.h"
#include "components/topology_mass.h"
#include "mechanics/lumped_mass.h"

namespace fluxion::internal {

ComponentSpec MeshMatrixMassComponent::Spec() {
  ComponentSpec spec{.name = "MeshMatrixMass",
                     .kind = ComponentKind::kMass,
                     .summary = "The mass matrix of a mesh's linear elements, consistent or lumped",
                     .fields = TopologyMassFields(),
                     .aliases = {}};
  spec.fields.push_back(FieldSpec::Bool(
      "lumping", false, "lump the mass matrix onto its diagonal (0: the consistent mass matrix)"));
  spec.fields.push_back(FieldSpec::RealList("edgeMass",
                                            "off-diagonal mass of each edge of the topology [kg], "
                                            "with vertexMass and lumping=0")
                            .AtLeast(0));
  spec.fields.push_back(FieldSpec::Bool("printMass", false, "SOFA option, ignored"));
  return spec;
}

namespace {

// The parts from the fields, in SOFA's precedence; null after reporting.
std::optional<MassMatrixParts> PartsFromFields(BuildContext& context, const ObjectModel& object,
                                               const MassGeometry& geometry) {
  const Parameters& p = context.parameters();
  const bool lumped = p.flag("lumping");
  MassMatrixParts unit = MeshMassMatrixParts(*geometry.topology, geometry.points, 1.0);
  if (unit.element_kind == 0) {
    context.Error(
        "MeshMatrixMass: the topology has no triangles, quads, tetrahedra or hexahedra to "
        "spread the mass over (SOFA computes no mass on edges)");
    return std::nullopt;
  }
  const auto scaled = [&](double density) {
    for (double& m : unit.vertex) m *= density;
    for (auto& edge : unit.edges) edge.mass *= density;
    unit.total *= density;
    return unit;
  };
  if (p.has("massDensity") && !p.has("totalMass")) return scaled(p.real("massDensity"));
  if (p.has("vertexMass") && !p.has("totalMass")) {
    const std::vector<double>& vertex = p.reals("vertexMass");
    const std::vector<double>& edge = p.reals("edgeMass");
    const std::size_t num_edges = geometry.topology->edges.size();
    const bool vertex_ok = static_cast<Index>(vertex.size()) == object.num_points;
    if (vertex_ok && !p.has("edgeMass") && lumped) {
      unit.vertex = vertex;
      return unit;
    }
    if (vertex_ok && p.has("edgeMass") && edge.size() == num_edges) {
      unit.vertex = vertex;
      unit.edges.clear();
      for (std::size_t k = 0; k < num_edges; ++k)
        unit.edges.push_back(
            {geometry.topology->edges[k][0], geometry.topology->edges[k][1], edge[k]});
      return unit;
    }
    context.Warn("MeshMatrixMass: 'vertexMass' (" + std::to_string(vertex.size()) + " values for " +
                 std::to_string(object.num_points) + " points) " +
                 (p.has("edgeMass") ? "with 'edgeMass' (" + std::to_string(edge.size()) +
                                          " values for " + std::to_string(num_edges) + " edges)"
                                    : std::string("without 'edgeMass' or lumping")) +
                 " cannot be used: totalMass is used instead, as SOFA does");
  }
  const double total = p.has("totalMass") ? p.real("totalMass") : 1.0;
  return scaled(unit.total > std::numeric_limits<double>::epsilon() ? total / unit.total : 1.0);
}

}  // namespace

void MeshMatrixMassComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  const char* source = p.has("totalMass")     ? "totalMass"
                       : p.has("massDensity") ? "massDensity"
                       : p.has("vertexMass")  ? "vertexMass"
                                              : "totalMass";
  const std::optional<MassGeometry> geometry = MassGeometryOf(context, *object, source);
  if (!geometry) return;
  const std::optional<MassMatrixParts> parts = PartsFromFields(context, *object, *geometry);
  if (!parts) return;
  std::vector<double> lumped = parts->vertex;
  for (double& m : lumped) m *= parts->lumping_coefficient;
  if (p.flag("lumping")) {
    ApplyPointMasses(context, *object, lumped);
    return;
  }
  for (const auto& edge : parts->edges) {
    if (edge.a >= object->num_points || edge.b >= object->num_points || edge.a == edge.b) {
      context.Error("MeshMatrixMass: edge " + std::to_string(edge.a) + "-" +
                    std::to_string(edge.b) + " is not an edge of the object's " +
                    std::to_string(object->num_points) + " points");
      return;
    }
  }
  context.SetPointMass(*object, parts->vertex);
  for (const auto& edge : parts->edges) context.AddMassCoupling(*object, edge.a, edge.b, edge.mass);
  AddWeight(context, *object, lumped);
}

}  // namespace fluxion::internal
