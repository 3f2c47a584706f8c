#include "components/mesh_spring_force_field.h"

#include <algorithm>
#include <limits>
#include <set>

#include "components/point_selection.h"
#include "components/spring_components.h"
#include "mechanics/spring_force_field.h"

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
  std::set<std::pair<Index, Index>> seen;
  std::vector<Spring> springs;
  bool too_many = false;
  const int dim = object.dimension;
  const std::size_t budget = context.spring_budget();
  const auto add = [&](Index m1, Index m2, double s, double d) {
    if (too_many || !seen.insert({std::min(m1, m2), std::max(m1, m2)}).second) return;
    if (springs.size() >= budget) {
      too_many = true;
      return;
    }
    const double length =
        (object.rest_position.segment(m2 * dim, dim) - object.rest_position.segment(m1 * dim, dim))
            .norm();
    const bool divide = length > std::numeric_limits<double>::epsilon();
    springs.push_back({object.offset + m1 * dim, object.offset + m2 * dim, divide ? s / length : s,
                       divide ? d / length : d, length});
  };
  const auto all_pairs = [&](const auto& element, double s, double d) {
    for (std::size_t k = 0; k < element.size(); ++k)
      for (std::size_t j = k + 1; j < element.size(); ++j) add(element[k], element[j], s, d);
  };
  if (stiffness("lines") != 0 || damping("lines") != 0)
    for (const auto& e : topology.edges) add(e[0], e[1], stiffness("lines"), damping("lines"));
  if (stiffness("triangles") != 0 || damping("triangles") != 0)
    for (const auto& t : topology.triangles)
      all_pairs(t, stiffness("triangles"), damping("triangles"));
  if (stiffness("quads") != 0 || damping("quads") != 0)
    for (const auto& q : topology.quads) all_pairs(q, stiffness("quads"), damping("quads"));
  if (stiffness("tetrahedra") != 0 || damping("tetrahedra") != 0)
    for (const auto& t : topology.tetrahedra)
      all_pairs(t, stiffness("tetrahedra"), damping("tetrahedra"));
  if (stiffness("cubes") != 0 || damping("cubes") != 0)
    for (const auto& h : topology.hexahedra) all_pairs(h, stiffness("cubes"), damping("cubes"));
  if (too_many) {
    context.ReserveSprings(springs.size() + 1);  // reports the limit
    return;
  }
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(dim, std::move(springs),
                                                                   p.flag("exactDampingJacobian")));
}

}  // namespace fluxion::internal
