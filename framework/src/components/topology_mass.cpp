#include "components/topology_mass.h"

#include <algorithm>
#include <limits>

#include "mechanics/lumped_mass.h"

namespace fluxion::internal {

std::vector<FieldSpec> TopologyMassFields() {
  return {FieldSpec::RealList("vertexMass", "mass of each point [kg], one per point").AtLeast(0),
          FieldSpec::OptionalReal("massDensity",
                                  "mass per length, area or volume of the topology's elements")
              .AtLeast(0),
          FieldSpec::OptionalReal("totalMass",
                                  "total mass spread by the elements' sizes [kg] "
                                  "(default 1 when no mass is given)")
              .AtLeast(0),
          FieldSpec::Bool("computeMassOnRest", true,
                          "measure the elements at the rest position (only supported as 1)"),
          FieldSpec::Link("topology",
                          "the topology, e.g. topology=\"@../Container\" (default: the node's)"),
          FieldSpec::Link("geometryState", "SOFA option: the node's object is used")};
}

std::optional<MassGeometry> MassGeometryOf(BuildContext& context, const ObjectModel& object,
                                           const char* source) {
  const Parameters& p = context.parameters();
  if (!p.flag("computeMassOnRest")) {
    context.Error(context.type() + " 'computeMassOnRest=0' is not supported (expected 1)");
    return std::nullopt;
  }
  const bool linked = p.has("topology") && !p.text("topology").empty();
  MassGeometry geometry{context.LinkedTopology("topology"), {}};
  if (linked && !geometry.topology) return std::nullopt;  // reported
  if (!geometry.topology) {
    context.Error(context.type() + " with '" + source + "' needs a topology in node '" +
                  context.node_path() +
                  "' (expected MeshTopology, a topology container or a grid)");
    return std::nullopt;
  }
  const Topology& topology = *geometry.topology;
  const auto check = [&](const auto& elements, const char* what) {
    for (const auto& element : elements)
      for (const Index v : element)
        if (v >= object.num_points) {
          context.Error(context.type() + ": the topology's " + what + " use point " +
                        std::to_string(v) + " (expected indices below the object's " +
                        std::to_string(object.num_points) + " points)");
          return false;
        }
    return true;
  };
  if (!check(topology.edges, "edges") || !check(topology.triangles, "triangles") ||
      !check(topology.quads, "quads") || !check(topology.tetrahedra, "tetrahedra") ||
      !check(topology.hexahedra, "hexahedra"))
    return std::nullopt;
  geometry.points.assign(static_cast<std::size_t>(object.num_points), {0, 0, 0});
  for (Index i = 0; i < object.num_points; ++i)
    for (int c = 0; c < object.dimension; ++c)
      geometry.points[static_cast<std::size_t>(i)][c] =
          object.rest_position[i * object.dimension + c];
  return geometry;
}

bool SpreadTotalMass(const MassGeometry& geometry, double total, std::vector<double>& masses) {
  const LumpedMass unit = LumpedVertexMass(*geometry.topology, geometry.points, 1.0);
  if (unit.element_kind == 0) return false;
  const double density =
      unit.total < std::numeric_limits<double>::epsilon() ? 1.0 : total / unit.total;
  masses = unit.vertex;
  for (double& m : masses) m *= density;
  return true;
}

bool TopologyMasses(BuildContext& context, const ObjectModel& object, std::vector<double>& masses,
                    std::optional<MassGeometry>* geometry_out) {
  const Parameters& p = context.parameters();
  const std::vector<double>& given = p.reals("vertexMass");
  bool by_total = p.has("totalMass") || !(p.has("massDensity") || p.has("vertexMass"));
  if (!by_total && !p.has("massDensity")) {  // vertexMass alone
    // SOFA's checkVertexMass: a list of the wrong size or with a negative mass is warned about
    // and replaced by the totalMass initialisation (1 kg when totalMass is not given).
    const bool usable = static_cast<Index>(given.size()) == object.num_points &&
                        std::none_of(given.begin(), given.end(), [](double m) { return m < 0.0; });
    if (usable) {
      masses = given;
      return true;
    }
    context.Warn("<" + context.type() + "> 'vertexMass' has " + std::to_string(given.size()) +
                 " values for " + std::to_string(object.num_points) +
                 " points or a negative one (expected one mass ≥ 0 per point): the mass is "
                 "spread from totalMass = 1 instead, as SOFA does after the same warning");
    by_total = true;
  }
  const std::optional<MassGeometry> geometry =
      MassGeometryOf(context, object, by_total ? "totalMass" : "massDensity");
  if (!geometry) return false;
  const Topology& topology = *geometry->topology;
  const auto& points = geometry->points;
  if (geometry_out != nullptr) *geometry_out = geometry;
  if (!by_total) {
    masses = LumpedVertexMass(topology, points, p.real("massDensity")).vertex;
    return true;
  }
  const double total = p.has("totalMass") ? p.real("totalMass") : 1.0;
  if (!SpreadTotalMass(*geometry, total, masses)) {
    context.Error(context.type() + ": the topology has no elements to spread the mass over");
    return false;
  }
  return true;
}

}  // namespace fluxion::internal
