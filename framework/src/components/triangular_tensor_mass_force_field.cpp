#include "components/triangular_tensor_mass_force_field.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "components/triangle_spring_mesh.h"
#include "mechanics/triangular_tensor_mass.h"

namespace fluxion::internal {

ComponentSpec TriangularTensorMassForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TriangularTensorMassForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A triangle membrane under small displacements as a tensor per edge (Delingette)",
      .fields = {FieldSpec::Real("youngModulus", 1000.0, "Young's modulus E [Pa]"),
                 FieldSpec::Real("poissonRatio", 0.3,
                                 "Poisson's ratio ν (any value but ±1: SOFA's λ and μ divide by "
                                 "1 − ν²)"),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@../Container\" (default: the "
                                 "node's)")},
      .aliases = {}};
}

void TriangularTensorMassForceFieldComponent::Build(BuildContext& context) {
  const std::optional<TriangleSpringMesh> mesh = BuildTriangleSpringMesh(context);
  if (!mesh) return;  // reported
  const ObjectModel& object = *mesh->object;
  const Parameters& p = context.parameters();
  double lambda = 0, mu = 0;
  TriangularTensorMass::LameCoefficients(p.real("youngModulus"), p.real("poissonRatio"), lambda,
                                         mu);
  const auto rest = [&](Index i) {
    return std::array<double, 3>{object.rest_position[3 * i], object.rest_position[3 * i + 1],
                                 object.rest_position[3 * i + 2]};
  };
  std::vector<TriangularTensorMass::Edge> edges(mesh->edges.size());
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const auto& [v0, v1] = mesh->edges[k];
    edges[k].v0 = object.offset + 3 * v0;
    edges[k].v1 = object.offset + 3 * v1;
    edges[k].rest0 = rest(v0);
    edges[k].rest1 = rest(v1);
  }
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    const std::array<Index, 3>& tri = mesh->triangles[t];
    std::array<std::array<double, 9>*, 3> blocks{};
    std::array<bool, 3> starts_at_l{};
    for (std::size_t j = 0; j < 3; ++j) {
      const std::size_t e = mesh->opposite_edge[t][j];
      blocks[j] = &edges[e].d;
      starts_at_l[j] = mesh->edges[e][0] == tri[(j + 2) % 3];
    }
    if (!TriangularTensorMass::AddTriangle({rest(tri[0]), rest(tri[1]), rest(tri[2])}, lambda, mu,
                                           blocks, starts_at_l)) {
      context.Error(context.type() + ": triangle " + std::to_string(t) + " (" +
                    std::to_string(tri[0]) + " " + std::to_string(tri[1]) + " " +
                    std::to_string(tri[2]) +
                    ") is flat at rest (expected three points not on one line)");
      return;
    }
  }
  if (!context.ReserveSprings(edges.size())) return;
  context.AddForceField(object, std::make_unique<TriangularTensorMass>(std::move(edges)));
}

}  // namespace fluxion::internal
