#include "components/mechanical_mapping.h"

#include <Eigen/SparseCore>

namespace fluxion::internal {

std::vector<FieldSpec> MechanicalMappingFields() {
  return {
      FieldSpec::Link("input", "the object mapped from (SOFA's default: the parent node's)")
          .DefaultText("@../"),
      FieldSpec::Link("output", "the mapped object (SOFA's default: the node's own)")
          .DefaultText("@./"),
      FieldSpec::Bool("applyRestPosition", false,
                      "also map the input's rest positions onto the output's at the start"),
      FieldSpec::Bool("mapForces", true, "forces on the output act on the input (only 1)"),
      FieldSpec::Bool("mapMasses", true, "the output's mass acts on the input (only 1)"),
      FieldSpec::Bool("mapConstraints", true, "SOFA option for Lagrangian constraints, ignored"),
      FieldSpec::Bool("mapMatrices", false, "SOFA option, ignored (matrices are always mapped)"),
  };
}

MappingEnds ResolveMappingEnds(BuildContext& context) {
  const Parameters& p = context.parameters();
  for (const char* flag : {"mapForces", "mapMasses"}) {
    if (!p.flag(flag)) {
      context.Error(context.type() + " '" + flag +
                    "' = 0 is not supported (expected 1: the output's forces and mass act on "
                    "the input through the mapping)");
      return {};
    }
  }
  MappingEnds ends;
  ends.parent = context.LinkedObject("input");
  ends.child = context.LinkedObject("output");
  if (ends.parent == nullptr || ends.child == nullptr) return {};
  if (ends.parent == ends.child) {
    context.Error(context.type() + ": 'input' and 'output' both name '" + ends.parent->id +
                  "' (expected a MechanicalObject in the mapping's node, mapped from one above "
                  "it)");
    return {};
  }
  return ends;
}

std::optional<std::vector<std::array<Index, 2>>> MappingEdges(BuildContext& context,
                                                              const ObjectModel& parent) {
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  const Parameters& p = context.parameters();
  const bool linked =
      p.has("topology") && p.text("topology").find_first_not_of(" \t\r\n") != std::string::npos;
  if (linked && !topology) return std::nullopt;
  if (!topology || topology->edges.empty()) topology = parent.topology;
  if (!topology || topology->edges.empty()) {
    context.Error(context.type() +
                  ": no edges to map (expected 'topology' naming a container "
                  "with edges, or edges in the input's topology)");
    return std::nullopt;
  }
  for (const auto& edge : topology->edges) {
    if (edge[0] < 0 || edge[1] < 0 || edge[0] >= parent.num_points ||
        edge[1] >= parent.num_points) {
      context.Error(context.type() + ": edge " + std::to_string(edge[0]) + " " +
                    std::to_string(edge[1]) + " is not between points of '" + parent.id +
                    "' (expected indices below " + std::to_string(parent.num_points) + ")");
      return std::nullopt;
    }
  }
  return topology->edges;
}

FieldSpec GeometricStiffnessField() {
  return FieldSpec::Choice("geometricStiffness", "Stabilized",
                           {"None", "Exact", "Stabilized", "0", "1", "2"},
                           "geometric stiffness in assembled matrices: None, Exact, or "
                           "Stabilized (only edges in extension)");
}

int GeometricStiffnessMode(const Parameters& parameters) {
  const std::string& mode = parameters.text("geometricStiffness");
  if (mode == "None" || mode == "0") return 0;
  if (mode == "Exact" || mode == "1") return 1;
  return 2;
}

SparseMatrix PointJacobian(const std::vector<std::vector<std::pair<Index, double>>>& stencils,
                           Index parent_points, int dimension) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (std::size_t i = 0; i < stencils.size(); ++i)
    for (const auto& [parent, weight] : stencils[i])
      for (int axis = 0; axis < dimension; ++axis)
        entries.emplace_back(static_cast<int>(static_cast<Index>(i) * dimension + axis),
                             static_cast<int>(parent * dimension + axis), weight);
  SparseMatrix jacobian(static_cast<Index>(stencils.size()) * dimension, parent_points * dimension);
  jacobian.setFromTriplets(entries.begin(), entries.end());
  return jacobian;
}

}  // namespace fluxion::internal
