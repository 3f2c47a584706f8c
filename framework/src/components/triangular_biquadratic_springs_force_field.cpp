#include "components/triangular_biquadratic_springs_force_field.h"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "components/triangle_spring_mesh.h"
#include "mechanics/triangular_biquadratic_springs.h"

namespace fluxion::internal {

ComponentSpec TriangularBiquadraticSpringsForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TriangularBiquadraticSpringsForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Biquadratic tensile and angular springs on a triangle mesh with the elastic constants "
          "of a membrane, and a penalty on compressed area (Delingette)",
      .fields = {FieldSpec::Real("youngModulus", 1000.0, "Young's modulus E [Pa]"),
                 FieldSpec::Real("poissonRatio", 0.3,
                                 "Poisson's ratio ν (any value but ±1: SOFA's λ and μ divide by "
                                 "1 − ν²)"),
                 FieldSpec::Real("dampingRatio", 0.0,
                                 "ζ: each edge's Δ(length²) gains ζ·(v_a − v_b)·p/(p·p) (SOFA's "
                                 "formula)"),
                 FieldSpec::Bool("useAngularSprings", true,
                                 "couple each triangle's edges (else the edges alone)"),
                 FieldSpec::Bool("compressible", true,
                                 "with angular springs: penalise a triangle's area below its "
                                 "rest area, 3(λ + μ)(J − 1)³ along the area's gradient"),
                 FieldSpec::Real("matrixRegularization", 0.4,
                                 "SOFA's stiffness regularisation weight: accepted, unused (SOFA "
                                 "declares it and never reads it)"),
                 FieldSpec::RealList("initialPoints",
                                     "SOFA's initial positions: accepted, unused (the rest lengths "
                                     "come from the rest positions, as in SOFA)"),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@../Container\" (default: the "
                                 "node's)")},
      .aliases = {}};
}

void TriangularBiquadraticSpringsForceFieldComponent::Build(BuildContext& context) {
  const std::optional<TriangleSpringMesh> mesh = BuildTriangleSpringMesh(context);
  if (!mesh) return;  // reported
  const ObjectModel& object = *mesh->object;
  const Parameters& p = context.parameters();
  const double poisson = p.real("poissonRatio");
  const auto point = [&](Index i) {
    return Eigen::Vector3d(object.rest_position.segment<3>(3 * i));
  };
  std::vector<TriangularBiquadraticSprings::Edge> edges;
  edges.reserve(mesh->edges.size());
  for (std::size_t k = 0; k < mesh->edges.size(); ++k)
    edges.push_back({.a = object.offset + 3 * mesh->edges[k][0],
                     .b = object.offset + 3 * mesh->edges[k][1],
                     .rest_square_length = mesh->rest_square_length[k],
                     .stiffness = 0.0});
  std::vector<TriangularBiquadraticSprings::Triangle> triangles;
  triangles.reserve(mesh->triangles.size());
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    const std::array<Index, 3>& tri = mesh->triangles[t];
    TriangularBiquadraticSprings::Triangle triangle;
    std::array<double, 3> rest{};
    for (std::size_t j = 0; j < 3; ++j) {
      triangle.dof[j] = object.offset + 3 * tri[j];
      triangle.edge[j] = mesh->opposite_edge[t][j];
      rest[j] = std::sqrt(edges[triangle.edge[j]].rest_square_length);
    }
    if (!TriangularBiquadraticSprings::TriangleConstants(rest, p.real("youngModulus"), poisson,
                                                         triangle.stiffness, triangle.gamma,
                                                         triangle.rest_area)) {
      context.Error(context.type() + ": triangle " + std::to_string(t) + " (" +
                    std::to_string(tri[0]) + " " + std::to_string(tri[1]) + " " +
                    std::to_string(tri[2]) +
                    ") is flat at rest (expected three points not on one line)");
      return;
    }
    // SOFA's rest normal: the rest positions' cross product over twice Heron's area.
    triangle.rest_normal = (point(tri[1]) - point(tri[0])).cross(point(tri[2]) - point(tri[0])) /
                           (2 * triangle.rest_area);
    for (std::size_t j = 0; j < 3; ++j) edges[triangle.edge[j]].stiffness += triangle.stiffness[j];
    triangles.push_back(triangle);
  }
  if (!context.ReserveSprings(edges.size())) return;
  const TriangularBiquadraticSprings::Options options{.young = p.real("youngModulus"),
                                                      .poisson = poisson,
                                                      .damping_ratio = p.real("dampingRatio"),
                                                      .angular = p.flag("useAngularSprings"),
                                                      .compressible = p.flag("compressible")};
  context.AddForceField(object, std::make_unique<TriangularBiquadraticSprings>(
                                    std::move(edges), std::move(triangles), options));
}

}  // namespace fluxion::internal
