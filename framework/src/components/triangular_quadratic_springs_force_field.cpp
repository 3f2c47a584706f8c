#include "components/triangular_quadratic_springs_force_field.h"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "components/triangle_spring_mesh.h"
#include "mechanics/triangular_quadratic_springs.h"

namespace fluxion::internal {

ComponentSpec TriangularQuadraticSpringsForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TriangularQuadraticSpringsForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Tensile and angular springs on a triangle mesh with the elastic constants of a "
          "membrane (Delingette)",
      .fields = {FieldSpec::Real("youngModulus", 1000.0, "Young's modulus E [Pa]"),
                 FieldSpec::Real("poissonRatio", 0.3,
                                 "Poisson's ratio ν (any value but ±1: SOFA's λ and μ divide by "
                                 "1 − ν²)"),
                 FieldSpec::Real("dampingRatio", 0.0,
                                 "ζ: each edge's elongation gains ζ·(relative velocity along it)"),
                 FieldSpec::Bool("useAngularSprings", true,
                                 "couple each triangle's edges (else the edges alone)"),
                 FieldSpec::RealList("initialPoints",
                                     "SOFA's initial positions: accepted, unused (the rest lengths "
                                     "come from the rest positions, as in SOFA)"),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@../Container\" (default: the "
                                 "node's)")},
      .aliases = {}};
}

void TriangularQuadraticSpringsForceFieldComponent::Build(BuildContext& context) {
  const std::optional<TriangleSpringMesh> mesh = BuildTriangleSpringMesh(context);
  if (!mesh) return;  // reported
  const ObjectModel& object = *mesh->object;
  const Parameters& p = context.parameters();
  std::vector<TriangularQuadraticSprings::Edge> edges;
  edges.reserve(mesh->edges.size());
  for (std::size_t k = 0; k < mesh->edges.size(); ++k)
    edges.push_back({.a = object.offset + 3 * mesh->edges[k][0],
                     .b = object.offset + 3 * mesh->edges[k][1],
                     .rest_length = std::sqrt(mesh->rest_square_length[k]),
                     .stiffness = 0.0});
  std::vector<TriangularQuadraticSprings::Triangle> triangles;
  triangles.reserve(mesh->triangles.size());
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    const std::array<Index, 3>& tri = mesh->triangles[t];
    TriangularQuadraticSprings::Triangle triangle;
    std::array<double, 3> rest{};
    for (std::size_t j = 0; j < 3; ++j) {
      triangle.dof[j] = object.offset + 3 * tri[j];
      triangle.edge[j] = mesh->opposite_edge[t][j];
      rest[j] = edges[triangle.edge[j]].rest_length;
    }
    if (!TriangularQuadraticSprings::TriangleConstants(rest, p.real("youngModulus"),
                                                       p.real("poissonRatio"), triangle.stiffness,
                                                       triangle.gamma)) {
      context.Error(context.type() + ": triangle " + std::to_string(t) + " (" +
                    std::to_string(tri[0]) + " " + std::to_string(tri[1]) + " " +
                    std::to_string(tri[2]) +
                    ") is flat at rest (expected three points not on one line)");
      return;
    }
    for (std::size_t j = 0; j < 3; ++j) edges[triangle.edge[j]].stiffness += triangle.stiffness[j];
    triangles.push_back(triangle);
  }
  if (!context.ReserveSprings(edges.size())) return;
  context.AddForceField(object, std::make_unique<TriangularQuadraticSprings>(
                                    std::move(edges), std::move(triangles), p.real("dampingRatio"),
                                    p.flag("useAngularSprings")));
}

}  // namespace fluxion::internal
