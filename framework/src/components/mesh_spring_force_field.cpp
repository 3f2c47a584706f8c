#include "components/mesh_spring_force_field.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "components/point_selection.h"
#include "components/spring_components.h"
#include "fluxion/errors.h"
#include "mechanics/spring_force_field.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec MeshSpringForceFieldComponent::Spec() {
  ComponentSpec spec{
      .name = "MeshSpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs on every vertex pair of the node topology's elements (ks = stiffness/L0)",
      .fields = {},
      .aliases = {"ParallelMeshSpringForceField"}};
  for (auto [kind, alias] : {std::pair<const char*, const char*>{"lines", nullptr},
                             {"triangles", nullptr},
                             {"quads", nullptr},
                             {"tetrahedra", "tetras"},
                             {"cubes", nullptr}}) {
    for (FieldSpec& field : ElementSpringFields(kind, 0.0, 0.0, alias))
      spec.fields.push_back(field);
  }
  spec.fields.push_back(
      FieldSpec::OptionalReal("stiffness", "sets every *Stiffness at once [N]").AtLeast(0));
  spec.fields.push_back(
      FieldSpec::OptionalReal("damping", "sets every *Damping at once [N·s]").AtLeast(0));
  spec.fields.push_back(FieldSpec::Bool("noCompression", false, "only supported as 0"));
  spec.fields.push_back(FieldSpec::Link(
      "topology", "the topology, e.g. topology=\"@../Container\" (default: the node's)"));
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

namespace {

// The topology the springs are built on; null after reporting why it cannot be used.
std::shared_ptr<const Topology> UsableTopology(BuildContext& context, const ObjectModel& object,
                                               bool same_object) {
  const Parameters& p = context.parameters();
  if (!same_object) {
    context.Error(
        "MeshSpringForceField between two objects is not supported (expected one object)");
    return nullptr;
  }
  const bool linked = !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return nullptr;  // reported
  if (!topology) {
    context.Error("MeshSpringForceField needs a topology (RegularGridTopology) in node '" +
                  context.node_path() + "'");
    return nullptr;
  }
  if (p.flag("noCompression")) {
    context.Error("MeshSpringForceField 'noCompression=1' is not supported");
    return nullptr;
  }
  // A topology of elements only (SOFA's MeshTopology with no position, as in its
  // TutorialBasicCube) indexes the object's points: its indices are checked instead.
  if (!topology->points.empty() &&
      static_cast<Index>(topology->points.size()) != object.num_points) {
    context.Error("MeshSpringForceField: the topology has " +
                  PointCount(static_cast<Index>(topology->points.size())) + " but '" + object.id +
                  "' has " + PointCount(object.num_points));
    return nullptr;
  }
  Index largest = -1;
  const auto scan = [&](const auto& elements) {
    for (const auto& element : elements)
      for (const Index v : element) largest = std::max(largest, v);
  };
  scan(topology->edges);
  scan(topology->triangles);
  scan(topology->quads);
  scan(topology->tetrahedra);
  scan(topology->hexahedra);
  if (largest >= object.num_points) {
    context.Error("MeshSpringForceField: the topology uses point " + std::to_string(largest) +
                  " but '" + object.id + "' has " + PointCount(object.num_points));
    return nullptr;
  }
  return topology;
}

}  // namespace

void MeshSpringForceFieldComponent::Build(BuildContext& context) {
  const SpringEnds ends = ResolveSpringEnds(context);
  if (!ends.usable) return;  // reported, or both ends static: nothing moves
  const ObjectModel& object = *ends.first;
  const std::shared_ptr<const Topology> found =
      UsableTopology(context, object, ends.first == ends.second);
  if (!found) return;
  const Topology& topology = *found;
  const Parameters& p = context.parameters();
  const auto stiffness = [&](const char* kind) {
    return p.has("stiffness") ? p.real("stiffness") : p.real(std::string(kind) + "Stiffness");
  };
  const auto damping = [&](const char* kind) {
    return p.has("damping") ? p.real("damping") : p.real(std::string(kind) + "Damping");
  };
  // Every vertex pair of the elements whose springs are on, in SOFA's order (lines, triangles,
  // quads, tetrahedra, cubes); a pair met again adds no second spring (SOFA's addSpring skips
  // it). Visited twice: to find each pair's first occurrence, then to add those springs.
  const auto visit_pairs = [&](const auto& emit) {
    const auto all_pairs = [&](const auto& element, double s, double d) {
      for (std::size_t k = 0; k < element.size(); ++k)
        for (std::size_t j = k + 1; j < element.size(); ++j) emit(element[k], element[j], s, d);
    };
    const auto each = [&](const char* kind, const auto& elements) {
      if (stiffness(kind) == 0 && damping(kind) == 0) return;
      for (const auto& element : elements) all_pairs(element, stiffness(kind), damping(kind));
    };
    each("lines", topology.edges);
    each("triangles", topology.triangles);
    each("quads", topology.quads);
    each("tetrahedra", topology.tetrahedra);
    each("cubes", topology.hexahedra);
  };
  // The pairs are listed before duplicates are dropped (21 bytes each while sorted): a hostile
  // element list must not make that list exhaust memory. A spring is charged kBytesPerSpring
  // (160 bytes), so a pair list up to 7 times the spring budget stays within the budget.
  std::size_t candidates = 0;
  visit_pairs([&](Index, Index, double, double) { ++candidates; });
  const std::size_t budget = context.spring_budget();
  if (candidates / 7 > budget) {
    context.Error("MeshSpringForceField: the topology's elements give " +
                  std::to_string(candidates) + " vertex pairs (expected at most " +
                  std::to_string(budget * 7) + " for a memory budget of " +
                  context.memory_budget_text() + ")");
    return;
  }
  std::vector<std::array<Index, 2>> pairs;
  pairs.reserve(candidates);
  visit_pairs([&](Index m1, Index m2, double, double) { pairs.push_back({m1, m2}); });
  const std::vector<char> first = FirstOccurrences(pairs);
  std::vector<std::array<Index, 2>>().swap(pairs);  // freed (`pairs = {}` keeps the capacity)
  const std::size_t distinct = static_cast<std::size_t>(std::count(first.begin(), first.end(), 1));
  const bool too_many = distinct > budget;
  if (too_many) {
    context.ReserveSprings(distinct);  // reports the limit
    return;
  }
  // Listed as the field stores them (32 bytes each), so that a large mesh's springs are never
  // held twice while the field is made.
  std::vector<PackedSpring> springs;
  springs.reserve(distinct);
  const int dim = object.dimension;
  const auto dof = [&](Index point) {
    const Index first_dof = object.offset + point * dim;
    FLUXION_DEMAND(first_dof >= 0 && first_dof <= std::numeric_limits<std::int32_t>::max());
    return static_cast<std::int32_t>(first_dof);
  };
  std::size_t k = 0;
  visit_pairs([&](Index m1, Index m2, double s, double d) {
    if (first[k++] == 0) return;
    const double length =
        (object.rest_position.segment(m2 * dim, dim) - object.rest_position.segment(m1 * dim, dim))
            .norm();
    const bool divide = length > std::numeric_limits<double>::epsilon();
    springs.push_back({dof(m1), dof(m2), divide ? s / length : s, divide ? d / length : d, length});
  });
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(dim, std::move(springs),
                                                                   p.flag("exactDampingJacobian")));
}

}  // namespace fluxion::internal
