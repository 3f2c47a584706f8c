#include "components/edge_pressure_force_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "mechanics/pressure_force_fields.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ComponentSpec EdgePressureForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "EdgePressureForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A pressure (force per unit length) on edges, constant or along their normals",
      .fields =
          {FieldSpec::RealList("pressure", "force per unit length, a vector [N/m]")
               .DefaultText("0 0 0"),
           FieldSpec::IndexList("edgeIndices", "edges pressed, by index in the topology"),
           FieldSpec::IndexList("edges", "edges pressed, as vertex pairs"),
           FieldSpec::RealList("normal", "direction of the plane selection").DefaultText("0 0 0"),
           FieldSpec::Real("dmin", 0.0, "plane selection: lower bound of x·normal [m]"),
           FieldSpec::Real("dmax", 0.0, "plane selection: upper bound of x·normal [m]"),
           FieldSpec::Real("arrowSizeCoef", 0.0, "visual only: ignored"),
           FieldSpec::RealList("p_intensity",
                               "with a zero 'pressure': force per unit length along each edge's "
                               "in-plane normal, one per pressed edge or one for all [N/m]"),
           FieldSpec::RealList("binormal", "p_intensity form: the normal of the edges' plane"),
           FieldSpec::Link("topology", "the topology (only the node's own is supported)"),
           FieldSpec::Link("mstate",
                           "the object it acts on (default: the node's, else an "
                           "ancestor's; only that one is supported)")},
      .aliases = {}};
}

namespace {

bool Vector3(BuildContext& context, const char* field, std::vector<double>& out) {
  out = context.parameters().reals(field);
  if (out.size() == 3) return true;
  context.Error(std::string("EdgePressureForceField '") + field + "' has " +
                std::to_string(out.size()) + " numbers (expected 3)");
  return false;
}

}  // namespace

void EdgePressureForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  // SOFA's `mstate` link (every force field's): accepted when it names the object the force
  // field acts on anyway (RemovingTriangle2EdgeProcess.scn: mstate="@../dofs" from a child node
  // without an object of its own).
  if (p.has("mstate") && !p.text("mstate").empty()) {
    const ObjectModel* linked = context.LinkedObject("mstate");
    if (linked == nullptr) return;  // reported
    if (linked != found) {
      context.Error("EdgePressureForceField 'mstate' = '" + p.text("mstate") + "' names '" +
                    linked->id + "', not '" + object.id +
                    "' (expected the object of its node or of the nearest ancestor with one)");
      return;
    }
  }
  if (object.dimension != 3) {
    context.Error("EdgePressureForceField needs a Vec3 object (found Vec" +
                  std::to_string(object.dimension) + "d)");
    return;
  }
  if (p.has("topology") && !p.text("topology").empty()) {
    context.Error(
        "EdgePressureForceField 'topology' links are not supported yet (expected the topology "
        "of its own node)");
    return;
  }
  std::vector<double> pressure, normal;
  if (!Vector3(context, "pressure", pressure) || !Vector3(context, "normal", normal)) return;
  const bool zero_pressure = pressure[0] == 0 && pressure[1] == 0 && pressure[2] == 0;
  const std::vector<double>& intensities = p.reals("p_intensity");
  std::optional<std::array<double, 3>> binormal;
  if (zero_pressure && !intensities.empty() && p.has("binormal")) {
    std::vector<double> b;
    if (!Vector3(context, "binormal", b)) return;
    const double norm = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    if (norm == 0.0) {
      context.Error("EdgePressureForceField 'binormal' is zero (expected the normal of the plane)");
      return;
    }
    binormal = std::array<double, 3>{b[0] / norm, b[1] / norm, b[2] / norm};
  }
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology || topology->edges.empty()) {
    context.Error("EdgePressureForceField needs a topology with edges in node '" +
                  context.node_path() + "'");
    return;
  }
  const auto& edges = topology->edges;
  const Index num_edges = static_cast<Index>(edges.size());
  for (const auto& edge : edges)
    if (edge[0] >= object.num_points || edge[1] >= object.num_points) {
      context.Error("EdgePressureForceField: the topology's edges use points beyond the object's " +
                    std::to_string(object.num_points));
      return;
    }
  const auto rest = [&](Index point, int axis) { return object.rest_position[point * 3 + axis]; };
  // The selection, SOFA's order: plane, then edgeIndices, then edges (each replaces the last).
  std::vector<Index> selected;
  if (p.real("dmin") != p.real("dmax")) {
    const auto in_slab = [&](Index point) {
      double d = 0.0;
      for (int a = 0; a < 3; ++a) d += rest(point, a) * normal[static_cast<std::size_t>(a)];
      return d > p.real("dmin") && d < p.real("dmax");
    };
    for (Index e = 0; e < num_edges; ++e)
      if (in_slab(edges[static_cast<std::size_t>(e)][0]) &&
          in_slab(edges[static_cast<std::size_t>(e)][1]))
        selected.push_back(e);
  }
  if (!p.indices("edgeIndices").empty()) {
    selected = p.indices("edgeIndices");
    for (const Index e : selected)
      if (e >= num_edges) {
        context.Error("EdgePressureForceField 'edgeIndices' has " + std::to_string(e) +
                      " (expected indices below the topology's " + std::to_string(num_edges) +
                      " edges)");
        return;
      }
  }
  const std::vector<Index>& pairs = p.indices("edges");
  if (!pairs.empty()) {
    if (pairs.size() % 2 != 0) {
      context.Error("EdgePressureForceField 'edges' has " + std::to_string(pairs.size()) +
                    " indices (expected pairs)");
      return;
    }
    selected.clear();
    for (std::size_t k = 0; k < pairs.size(); k += 2) {
      Index match = -1;
      for (Index e = 0; e < num_edges && match < 0; ++e) {
        const auto& edge = edges[static_cast<std::size_t>(e)];
        if ((edge[0] == pairs[k] && edge[1] == pairs[k + 1]) ||
            (edge[1] == pairs[k] && edge[0] == pairs[k + 1]))
          match = e;
      }
      if (match < 0) {
        context.Error("EdgePressureForceField 'edges' has " + std::to_string(pairs[k]) + " " +
                      std::to_string(pairs[k + 1]) + " (expected an edge of the topology)");
        return;
      }
      selected.push_back(match);
    }
  }
  const auto rest_length = [&](const std::array<Index, 2>& edge) {
    double length2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double u = rest(edge[1], a) - rest(edge[0], a);
      length2 += u * u;
    }
    return std::sqrt(length2);
  };
  if (selected.empty()) return;
  if (zero_pressure && !intensities.empty()) {
    // SOFA's p_intensity form: the i-th pressed edge takes intensity i (the first one for all when
    // a single one is given) times the rest length of the topology's edge number i (SOFA's
    // indexing, kept), along its in-plane normal.
    if (selected.size() > edges.size()) {
      context.Error("EdgePressureForceField presses " + std::to_string(selected.size()) +
                    " edges with 'p_intensity' (expected at most the topology's " +
                    std::to_string(edges.size()) +
                    ": SOFA takes the i-th edge's length from edge i of the topology)");
      return;
    }
    if (!binormal && topology->triangles.empty()) {
      context.Error(
          "EdgePressureForceField 'p_intensity' without 'binormal' needs triangles in the "
          "topology of node '" +
          context.node_path() +
          "' (expected a 'binormal', or a triangle topology giving each edge its inside)");
      return;
    }
    std::vector<EdgeNormalPressure::Edge> pressed;
    for (std::size_t i = 0; i < selected.size(); ++i) {
      const auto& edge = edges[static_cast<std::size_t>(selected[i])];
      EdgeNormalPressure::Edge e;
      e.a = object.offset + edge[0] * 3;
      e.b = object.offset + edge[1] * 3;
      const double intensity = intensities.size() > i ? intensities[i] : intensities[0];
      e.scale = intensity * rest_length(edges[i]);
      if (!binormal) {
        // The third vertex of the edge's one triangle; an edge inside the mesh (two triangles)
        // or outside any gets no force.
        int count = 0;
        for (const auto& triangle : topology->triangles) {
          const bool has0 = std::find(triangle.begin(), triangle.end(), edge[0]) != triangle.end();
          const bool has1 = std::find(triangle.begin(), triangle.end(), edge[1]) != triangle.end();
          if (!has0 || !has1) continue;
          ++count;
          for (const Index vertex : triangle)
            if (vertex != edge[0] && vertex != edge[1]) e.side = object.offset + vertex * 3;
        }
        if (count != 1) continue;
      }
      pressed.push_back(e);
    }
    context.AddForceField(object,
                          std::make_unique<EdgeNormalPressure>(std::move(pressed), binormal));
    return;
  }
  if (zero_pressure) return;
  // pressure·L₀/2 on each end of each selected edge.
  std::vector<Index> dofs;
  std::vector<double> values;
  for (const Index e : selected) {
    const auto& edge = edges[static_cast<std::size_t>(e)];
    const double half_length = rest_length(edge) / 2;
    for (const Index point : edge)
      for (int a = 0; a < 3; ++a) {
        dofs.push_back(object.offset + point * 3 + a);
        values.push_back(pressure[static_cast<std::size_t>(a)] * half_length);
      }
  }
  context.AddForceField(object,
                        std::make_unique<ConstantForce>(std::move(dofs), std::move(values)));
}

}  // namespace fluxion::internal
