#include "components/triangular_biquadratic_springs_force_field.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "mechanics/topology_elements.h"
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
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const double poisson = p.real("poissonRatio");
  if (std::abs(poisson) == 1.0) {
    context.Error(context.type() + " 'poissonRatio' is " + p.source_text("poissonRatio") +
                  " (expected a value other than ±1: λ and μ divide by 1 − ν²)");
    return;
  }
  const bool linked = p.has("topology") && !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported
  if (!topology) topology = object.topology;
  if (!topology || topology->triangles.empty() || object.dimension != 3) {
    context.Error(context.type() + " needs a Vec3 object with a triangle topology in node '" +
                  context.node_path() + "' (SOFA: \"object must have a Triangular Set Topology\")");
    return;
  }
  // SOFA's edges: the topology's, or derived from its triangles as its containers do.
  Topology completed;
  const Topology* mesh = topology.get();
  if (mesh->edges.empty()) {
    completed.points = mesh->points;
    completed.triangles = mesh->triangles;
    CompleteTopology(completed);
    mesh = &completed;
  }
  const auto point = [&](Index i) {
    return Eigen::Vector3d(object.rest_position.segment<3>(3 * i));
  };
  std::map<std::pair<Index, Index>, std::size_t> edge_of;
  std::vector<TriangularBiquadraticSprings::Edge> edges;
  for (const auto& e : mesh->edges) {
    if (e[0] >= object.num_points || e[1] >= object.num_points) {
      context.Error(context.type() + ": the topology's edges use points beyond the object's " +
                    std::to_string(object.num_points));
      return;
    }
    edge_of.emplace(std::minmax(e[0], e[1]), edges.size());
    edges.push_back({.a = object.offset + 3 * e[0],
                     .b = object.offset + 3 * e[1],
                     .rest_square_length = (point(e[0]) - point(e[1])).squaredNorm(),
                     .stiffness = 0.0});
  }
  std::vector<TriangularBiquadraticSprings::Triangle> triangles;
  triangles.reserve(mesh->triangles.size());
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    const auto& tri = mesh->triangles[t];
    TriangularBiquadraticSprings::Triangle triangle;
    std::array<double, 3> rest{};
    for (int j = 0; j < 3; ++j) {
      const Index a = tri[(j + 1) % 3], b = tri[(j + 2) % 3];
      const auto at = edge_of.find(std::minmax(a, b));
      if (tri[j] >= object.num_points || at == edge_of.end()) {
        context.Error(context.type() + ": triangle " + std::to_string(t) +
                      " uses a point beyond the object's or an edge the topology lacks");
        return;
      }
      triangle.dof[j] = object.offset + 3 * tri[j];
      triangle.edge[j] = at->second;
      rest[j] = std::sqrt(edges[at->second].rest_square_length);
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
    for (int j = 0; j < 3; ++j) edges[triangle.edge[j]].stiffness += triangle.stiffness[j];
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
