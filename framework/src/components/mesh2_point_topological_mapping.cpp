#include "components/mesh2_point_topological_mapping.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "components/topological_mapping.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

using Point = std::array<double, 3>;

constexpr const char* kCoordinateFields[] = {"pointBaryCoords",    "edgeBaryCoords",
                                             "triangleBaryCoords", "quadBaryCoords",
                                             "tetraBaryCoords",    "hexaBaryCoords"};

// Σ w_k·p_k over the listed corners, summed in the order SOFA's expressions add them.
Point Combine(const Topology& input, std::initializer_list<std::pair<Index, double>> terms) {
  Point result{0.0, 0.0, 0.0};
  bool first = true;
  for (const auto& [vertex, weight] : terms) {
    const Point& p = input.points[static_cast<std::size_t>(vertex)];
    for (std::size_t a = 0; a < 3; ++a)
      result[a] = first ? p[a] * weight : result[a] + p[a] * weight;
    first = false;
  }
  return result;
}

// The coordinates of one field, three per point created; nullopt after reporting.
std::optional<std::vector<Point>> Coordinates(BuildContext& context, const char* field) {
  const std::vector<double>& values = context.parameters().reals(field);
  if (values.size() % 3 != 0) {
    context.Error("Mesh2PointTopologicalMapping '" + std::string(field) + "' has " +
                  std::to_string(values.size()) +
                  " numbers (expected three per point created: x y z each)");
    return std::nullopt;
  }
  std::vector<Point> coordinates(values.size() / 3);
  for (std::size_t k = 0; k < coordinates.size(); ++k)
    coordinates[k] = {values[3 * k], values[3 * k + 1], values[3 * k + 2]};
  return coordinates;
}

// Every element's vertices must be input points (a container may list elements past its points).
template <std::size_t N>
bool InRange(BuildContext& context, const std::vector<std::array<Index, N>>& elements,
             std::size_t points, const char* what) {
  for (std::size_t e = 0; e < elements.size(); ++e)
    for (const Index v : elements[e])
      if (v < 0 || static_cast<std::size_t>(v) >= points) {
        context.Error("Mesh2PointTopologicalMapping: input " + std::string(what) + " " +
                      std::to_string(e) + " has vertex " + std::to_string(v) + " (expected < " +
                      std::to_string(points) + ", the input's number of points)");
        return false;
      }
  return true;
}

}  // namespace

ComponentSpec Mesh2PointTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec(
      "Mesh2PointTopologicalMapping",
      "Points created at each vertex, edge, triangle, quad, tetrahedron and hexahedron of the "
      "input topology by fixed coordinates, into the output container");
  spec.fields.push_back(FieldSpec::RealList(
      "pointBaryCoords", "offsets x y z: one point at each input point plus each offset"));
  spec.fields.push_back(FieldSpec::RealList(
      "edgeBaryCoords", "coordinates fx 0 0: one point at (1−fx)·p0 + fx·p1 of each edge, each"));
  spec.fields.push_back(FieldSpec::RealList(
      "triangleBaryCoords",
      "coordinates fx fy 0: one point at (1−fx−fy)·p0 + fx·p1 + fy·p2 of each triangle, each"));
  spec.fields.push_back(FieldSpec::RealList(
      "quadBaryCoords", "coordinates fx fy 0: one bilinear point in each quad, each"));
  spec.fields.push_back(FieldSpec::RealList(
      "tetraBaryCoords",
      "coordinates fx fy fz: one point at (1−fx−fy−fz)·p0 + fx·p1 + fy·p2 + fz·p3 of each "
      "tetrahedron, each"));
  spec.fields.push_back(FieldSpec::RealList(
      "hexaBaryCoords", "coordinates fx fy fz: one trilinear point in each hexahedron, each"));
  spec.fields.push_back(FieldSpec::Bool(
      "copyEdges", false, "give the output the input's edges (needs pointBaryCoords)"));
  spec.fields.push_back(FieldSpec::Bool(
      "copyTriangles", false, "give the output the input's triangles (needs pointBaryCoords)"));
  spec.fields.push_back(FieldSpec::Bool(
      "copyTetrahedra", false, "give the output the input's tetrahedra (needs pointBaryCoords)"));
  return spec;
}

void Mesh2PointTopologicalMappingComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  for (const char* field : {"input", "output"})
    if (!p.has(field) || p.text(field).find_first_not_of(" \t\r\n") == std::string::npos) {
      context.Error("Mesh2PointTopologicalMapping '" + std::string(field) +
                    "' is empty (expected a link to a topology, e.g. " + field +
                    (std::string(field) == "input" ? "=\"@../Container\")" : "=\"@Container\")"));
      return;
    }
  std::array<std::vector<Point>, 6> coordinates;
  for (std::size_t k = 0; k < 6; ++k) {
    std::optional<std::vector<Point>> read = Coordinates(context, kCoordinateFields[k]);
    if (!read) return;
    coordinates[k] = std::move(*read);
  }
  const std::vector<Point>& at_points = coordinates[0];
  for (const char* flag : {"copyEdges", "copyTriangles", "copyTetrahedra"})
    if (p.flag(flag) && at_points.empty()) {
      context.Error("Mesh2PointTopologicalMapping '" + std::string(flag) +
                    "' needs pointBaryCoords (expected at least one offset: the copied elements' "
                    "vertices are the points created at the input's points)");
      return;
    }
  const std::shared_ptr<const Topology> linked = context.LinkedTopology("input");
  if (!linked) return;
  const Topology& input = *linked;
  const std::size_t n = input.points.size();
  if (!InRange(context, input.edges, n, "edge") ||
      !InRange(context, input.triangles, n, "triangle") ||
      !InRange(context, input.quads, n, "quad") ||
      !InRange(context, input.tetrahedra, n, "tetrahedron") ||
      !InRange(context, input.hexahedra, n, "hexahedron"))
    return;
  Topology output;
  std::vector<Point>& points = output.points;
  // Points: p + offset (SOFA's addInputPoint); the first point of each input point is the one
  // copied elements name.
  std::vector<Index> first_of_point;
  for (std::size_t i = 0; i < n && !at_points.empty(); ++i) {
    first_of_point.push_back(static_cast<Index>(points.size()));
    for (const Point& o : at_points)
      points.push_back(
          {input.points[i][0] + o[0], input.points[i][1] + o[1], input.points[i][2] + o[2]});
  }
  for (const auto& e : input.edges)
    for (const Point& c : coordinates[1])
      points.push_back(Combine(input, {{e[0], 1 - c[0]}, {e[1], c[0]}}));
  for (const auto& t : input.triangles)
    for (const Point& c : coordinates[2])
      points.push_back(Combine(input, {{t[0], 1 - c[0] - c[1]}, {t[1], c[0]}, {t[2], c[1]}}));
  for (const auto& q : input.quads)
    for (const Point& c : coordinates[3]) {
      const double fx = c[0], fy = c[1];
      points.push_back(Combine(input, {{q[0], (1 - fx) * (1 - fy)},
                                       {q[1], fx * (1 - fy)},
                                       {q[2], (1 - fx) * fy},
                                       {q[3], fx * fy}}));
    }
  for (const auto& t : input.tetrahedra)
    for (const Point& c : coordinates[4])
      points.push_back(Combine(
          input, {{t[0], 1 - c[0] - c[1] - c[2]}, {t[1], c[0]}, {t[2], c[1]}, {t[3], c[2]}}));
  for (const auto& h : input.hexahedra)
    for (const Point& c : coordinates[5]) {
      const double fx = c[0], fy = c[1], fz = c[2];
      // SOFA's corner order: h0 h1 h3 h2 h4 h5 h7 h6 as p0 … p7.
      points.push_back(Combine(input, {{h[0], (1 - fx) * (1 - fy) * (1 - fz)},
                                       {h[1], fx * (1 - fy) * (1 - fz)},
                                       {h[3], (1 - fx) * fy * (1 - fz)},
                                       {h[2], fx * fy * (1 - fz)},
                                       {h[4], (1 - fx) * (1 - fy) * fz},
                                       {h[5], fx * (1 - fy) * fz},
                                       {h[7], (1 - fx) * fy * fz},
                                       {h[6], fx * fy * fz}}));
    }
  // Copied elements, each vertex the first point created from it.
  const auto renamed = [&](auto element) {
    for (Index& v : element) v = first_of_point[static_cast<std::size_t>(v)];
    return element;
  };
  if (p.flag("copyEdges"))
    for (const auto& e : input.edges) output.edges.push_back(renamed(e));
  if (p.flag("copyTriangles"))
    for (const auto& t : input.triangles) output.triangles.push_back(renamed(t));
  if (p.flag("copyTetrahedra"))
    for (const auto& t : input.tetrahedra) output.tetrahedra.push_back(renamed(t));
  CompleteTopology(output);
  context.SetLinkedTopology("output", std::move(output));
}

}  // namespace fluxion::internal
