#include "components/mesh_barycentric_mapper_engine.h"

#include <Eigen/Dense>
#include <algorithm>

#include "components/engine_inputs.h"
#include "fluxion/log.h"

namespace fluxion::internal {

ComponentSpec MeshBarycentricMapperEngineComponent::Spec() {
  return ComponentSpec{
      .name = "MeshBarycentricMapperEngine",
      .kind = ComponentKind::kEngine,
      .summary = "Barycentric coordinates of points in the elements of a mesh (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("inputPositions", "points of the master mesh [m]"),
                 FieldSpec::RealList("mappedPointPositions", "points to locate [m]"),
                 FieldSpec::Link("topology", "the master mesh (default: the node's topology)"),
                 FieldSpec::Bool("computeLinearInterpolation", false,
                                 "also publish each point's element points and weights")},
      .aliases = {}};
}

namespace {

using Vec = Eigen::Vector3d;

struct Element {
  std::vector<Index> points;
  Eigen::Matrix3d inverse;  ///< of the edge vectors (and the normal) as columns
  Vec centre;
  bool usable = false;
};

}  // namespace

void MeshBarycentricMapperEngineComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto master = ReadPoints(context, "inputPositions");
  const auto mapped = ReadPoints(context, "mappedPointPositions");
  if (!master || !mapped) return;
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (topology == nullptr) {
    if (!p.has("topology"))
      context.Error(
          "MeshBarycentricMapperEngine needs a topology (expected 'topology' or one in its node)");
    return;
  }
  const bool volume = !topology->tetrahedra.empty() || !topology->hexahedra.empty();
  const bool surface = !topology->triangles.empty() || !topology->quads.empty();
  const char* unsupported = nullptr;
  if (volume && !topology->hexahedra.empty()) unsupported = "hexahedra";
  if (!volume && !topology->quads.empty()) unsupported = "quads";
  if (!volume && !surface) unsupported = "edges alone";
  if (unsupported != nullptr) {
    context.Error(std::string("MeshBarycentricMapperEngine cannot map into ") + unsupported +
                  " (expected tetrahedra or triangles: SOFA does not map into them either)");
    return;
  }
  const auto x = [&](Index i) {
    const Point3& q = (*master)[static_cast<std::size_t>(i)];
    return Vec(q[0], q[1], q[2]);
  };
  std::vector<Element> elements;
  const auto add = [&](const auto& points) {
    Element element;
    element.points.assign(points.begin(), points.end());
    Eigen::Matrix3d columns;
    columns.col(0) = x(points[1]) - x(points[0]);
    columns.col(1) = x(points[2]) - x(points[0]);
    columns.col(2) = points.size() == 4 ? Vec(x(points[3]) - x(points[0]))
                                        : Vec(columns.col(0).cross(columns.col(1)));
    bool invertible = false;
    double determinant = 0.0;
    columns.computeInverseAndDetWithCheck(element.inverse, determinant, invertible);
    element.usable = invertible && determinant != 0.0;
    element.centre = Vec::Zero();
    for (const Index i : points) element.centre += x(i);
    element.centre /= static_cast<double>(points.size());
    elements.push_back(std::move(element));
  };
  const auto points = static_cast<Index>(master->size());
  if (volume) {
    if (!CheckIndices(context, "topology tetrahedra", Flatten(topology->tetrahedra), points))
      return;
    for (const auto& t : topology->tetrahedra) add(t);
  } else {
    if (!CheckIndices(context, "topology triangles", Flatten(topology->triangles), points)) return;
    for (const auto& t : topology->triangles) add(t);
  }

  std::vector<double> barycentric;
  std::vector<Index> table;
  std::vector<Index> interpolation_indices;
  std::vector<double> interpolation_values;
  for (const Point3& point : *mapped) {
    const Vec y(point[0], point[1], point[2]);
    double best = 1e10;  // SOFA's starting distance
    Index chosen = -1;
    Vec coefficients = Vec::Zero();
    for (std::size_t e = 0; e < elements.size(); ++e) {
      const Element& element = elements[e];
      if (!element.usable) continue;
      const Vec v = element.inverse * (y - x(element.points[0]));
      // How far outside (> 0) or deep inside (≤ 0) the element the point is.
      double outside = volume ? std::max({-v[0], -v[1], -v[2], v[0] + v[1] + v[2] - 1.0})
                              : std::max({-v[0], -v[1], std::abs(v[2]) - 0.01, v[0] + v[1] - 1.0});
      if (outside > 0.0) outside = (y - element.centre).squaredNorm();
      if (outside < best) {
        best = outside;
        chosen = static_cast<Index>(e);
        coefficients = v;
      }
    }
    if (chosen < 0) {
      context.Error("MeshBarycentricMapperEngine finds no element near point (" +
                    std::to_string(point[0]) + ", " + std::to_string(point[1]) + ", " +
                    std::to_string(point[2]) +
                    ") (expected a point within 1e5 of an element's centre)");
      return;
    }
    if (!volume) coefficients[2] = 0.0;
    barycentric.insert(barycentric.end(), {coefficients[0], coefficients[1], coefficients[2]});
    table.push_back(chosen);
    const Element& element = elements[static_cast<std::size_t>(chosen)];
    interpolation_indices.insert(interpolation_indices.end(), element.points.begin(),
                                 element.points.end());
    interpolation_values.push_back(1.0 - coefficients.sum());
    for (std::size_t k = 0; k + 1 < element.points.size(); ++k)
      interpolation_values.push_back(coefficients[static_cast<Eigen::Index>(k)]);
  }
  LogInfo(context.Where() + "MeshBarycentricMapperEngine located " + std::to_string(table.size()) +
          " points in " + std::to_string(elements.size()) +
          (volume ? " tetrahedra" : " triangles"));
  context.SetOutput("barycentricPositions", std::move(barycentric));
  context.SetOutput("tableElements", std::move(table));
  if (p.flag("computeLinearInterpolation")) {
    context.SetOutput("linearInterpolationIndices", std::move(interpolation_indices));
    context.SetOutput("linearInterpolationValues", std::move(interpolation_values));
  }
}

}  // namespace fluxion::internal
