#include "components/mesh_spring_force_field.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

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

// The element kinds in SOFA's order, as the fields name them (`<kind>Stiffness`).
constexpr const char* kSpringKinds[] = {"lines", "triangles", "quads", "tetrahedra", "cubes"};

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

// Every field that sets the springs' coefficients may change between steps (fluxion-view's
// panel, a SofaPython3 controller): `<kind>Stiffness` and `<kind>Damping` set the springs that
// kind claimed, `stiffness` and `damping` every spring, each with the rule of the build (ks = s/L0,
// kd = d/L0, or s and d themselves for a spring of zero rest length), so that a value set before
// a step gives the bits a scene giving that value in its XML would. Unlike the XML, a change
// adds no spring: a kind whose stiffness and damping were both 0 has none, and setting it is
// refused.
void AddRuntimeCoefficients(BuildContext& context, SpringForceField* live,
                            std::vector<std::uint8_t> kinds) {
  const auto shared = std::make_shared<const std::vector<std::uint8_t>>(std::move(kinds));
  const auto add = [&](const std::string& field, int kind, bool stiffness) {
    context.AddRuntimeField(
        field, [live, shared, field, kind, stiffness](std::span<const double> values) {
          if (values.size() != 1 || !std::isfinite(values[0]) || values[0] < 0)
            throw ConfigError(field, "expected one finite value ≥ 0");
          const double value = values[0];
          bool any = false;
          // A topological change followed in place removes springs (the last moved into each
          // removed slot; build/topology_in_place.h): only the first entries of `kinds` are
          // read then, right since springs that are the edges are all of one kind.
          for (std::size_t k = 0; k < std::min(shared->size(), live->springs().size()); ++k) {
            if (kind >= 0 && (*shared)[k] != kind) continue;
            const PackedSpring& spring = live->springs()[k];
            const double length = spring.rest_length;
            const double scaled =
                length > std::numeric_limits<double>::epsilon() ? value / length : value;
            live->SetCoefficients(k, stiffness ? scaled : spring.stiffness,
                                  stiffness ? spring.damping : scaled);
            any = true;
          }
          if (!any)
            throw ConfigError(field,
                              "no spring of this kind was built (its stiffness and damping were 0 "
                              "when the scene was loaded: expected a kind that has springs)");
        });
  };
  for (int kind = 0; kind < static_cast<int>(std::size(kSpringKinds)); ++kind) {
    add(std::string(kSpringKinds[kind]) + "Stiffness", kind, true);
    add(std::string(kSpringKinds[kind]) + "Damping", kind, false);
  }
  add("stiffness", -1, true);
  add("damping", -1, false);
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
    const auto all_pairs = [&](const auto& element, double s, double d, std::uint8_t kind) {
      for (std::size_t k = 0; k < element.size(); ++k)
        for (std::size_t j = k + 1; j < element.size(); ++j)
          emit(element[k], element[j], s, d, kind);
    };
    const auto each = [&](std::uint8_t kind, const auto& elements) {
      const char* name = kSpringKinds[kind];
      if (stiffness(name) == 0 && damping(name) == 0) return;
      for (const auto& element : elements) all_pairs(element, stiffness(name), damping(name), kind);
    };
    each(0, topology.edges);
    each(1, topology.triangles);
    each(2, topology.quads);
    each(3, topology.tetrahedra);
    each(4, topology.hexahedra);
  };
  // The pairs are listed before duplicates are dropped (21 bytes each while sorted): a hostile
  // element list must not make that list exhaust memory. A spring is charged kBytesPerSpring
  // (160 bytes), so a pair list up to 7 times the spring budget stays within the budget.
  std::size_t candidates = 0;
  visit_pairs([&](Index, Index, double, double, std::uint8_t) { ++candidates; });
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
  visit_pairs([&](Index m1, Index m2, double, double, std::uint8_t) { pairs.push_back({m1, m2}); });
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
  std::vector<std::uint8_t> kinds;  // which element kind claimed each spring (kSpringKinds)
  kinds.reserve(distinct);
  const int dim = object.dimension;
  const auto dof = [&](Index point) {
    const Index first_dof = object.offset + point * dim;
    FLUXION_DEMAND(first_dof >= 0 && first_dof <= std::numeric_limits<std::int32_t>::max());
    return static_cast<std::int32_t>(first_dof);
  };
  std::size_t k = 0;
  visit_pairs([&](Index m1, Index m2, double s, double d, std::uint8_t kind) {
    if (first[k++] == 0) return;
    kinds.push_back(kind);
    const double length =
        (object.rest_position.segment(m2 * dim, dim) - object.rest_position.segment(m1 * dim, dim))
            .norm();
    const bool divide = length > std::numeric_limits<double>::epsilon();
    springs.push_back({dof(m1), dof(m2), divide ? s / length : s, divide ? d / length : d, length});
  });
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  auto field =
      std::make_unique<SpringForceField>(dim, std::move(springs), p.flag("exactDampingJacobian"));
  AddRuntimeCoefficients(context, field.get(), std::move(kinds));
  context.AddForceField(object, std::move(field));
}

}  // namespace fluxion::internal
