#include "components/box_roi.h"

#include "components/box_region.h"

namespace fluxion::internal {

ComponentSpec BoxRoiComponent::Spec() {
  ComponentSpec spec{
      .name = "BoxROI",
      .kind = ComponentKind::kEngine,
      .summary = "Selects the points and elements inside boxes (outputs for links)",
      .fields =
          {FieldSpec::RealList("box",
                               "boxes, xmin ymin zmin xmax ymax zmax each [m] "
                               "(default: 0 0 0 1 1 1 when no box is given)"),
           FieldSpec::RealList("orientedBox", "boxes, p0 p1 p2 depth each [m]"),
           FieldSpec::RealList("position",
                               "points to select from (default: the node's "
                               "object's rest positions)"),
           FieldSpec::IndexList("edges", "edges (default: the node topology's)"),
           FieldSpec::IndexList("triangles", "triangles (default: the node topology's)"),
           FieldSpec::IndexList("quads", "quads (default: the node topology's)").Alias("quad"),
           FieldSpec::IndexList("tetrahedra", "tetrahedra (default: the node topology's)"),
           FieldSpec::IndexList("hexahedra", "hexahedra (default: the node topology's)"),
           FieldSpec::Bool("computeEdges", true, "select edges"),
           FieldSpec::Bool("computeTriangles", true, "select triangles"),
           FieldSpec::Bool("computeQuads", true, "select quads").Alias("computeQuad"),
           FieldSpec::Bool("computeTetrahedra", true, "select tetrahedra"),
           FieldSpec::Bool("computeHexahedra", true, "select hexahedra"),
           FieldSpec::Bool("strict", true,
                           "an element is inside when all its points are (else: its center)"),
           FieldSpec::Bool("doUpdate", true, "SOFA option: the selection is static here"),
           FieldSpec::IndexList("indices",
                                "SOFA output: a value written in the scene is replaced by the "
                                "selection, as SOFA does")},
      .aliases = {}};
  return spec;
}

namespace {

struct Selection {
  std::vector<Index> in, out;
  std::vector<Index> in_elements, out_elements;  // flattened
};

template <std::size_t N>
bool Select(BuildContext& context, const char* field,
            const std::vector<std::array<Index, N>>& given, const std::vector<double>& x, int dim,
            const BoxRegion& region, bool strict, Selection& selection) {
  const Index points = static_cast<Index>(x.size()) / dim;
  for (std::size_t e = 0; e < given.size(); ++e) {
    const auto& element = given[e];
    std::array<double, 3> center = {0, 0, 0};
    bool all = true;
    for (const Index v : element) {
      if (v >= points) {
        context.Error("BoxROI '" + std::string(field) + "' uses point " + std::to_string(v) +
                      " (expected indices below the " + std::to_string(points) + " positions)");
        return false;
      }
      all = all && region.Contains(&x[static_cast<std::size_t>(v * dim)], dim);
      for (int c = 0; c < dim; ++c) center[c] += x[static_cast<std::size_t>(v * dim + c)];
    }
    for (int c = 0; c < dim; ++c) center[c] /= static_cast<double>(N);
    const bool inside = strict ? all : region.Contains(center.data(), dim);
    (inside ? selection.in : selection.out).push_back(static_cast<Index>(e));
    auto& elements = inside ? selection.in_elements : selection.out_elements;
    elements.insert(elements.end(), element.begin(), element.end());
  }
  return true;
}

template <std::size_t N>
std::vector<std::array<Index, N>> Elements(const Parameters& p, const char* field,
                                           const std::vector<std::array<Index, N>>* topology,
                                           BuildContext& context, bool& ok) {
  if (!p.has(field)) return topology ? *topology : std::vector<std::array<Index, N>>{};
  const std::vector<Index>& flat = p.indices(field);
  if (flat.size() % N != 0) {
    context.Error("BoxROI '" + std::string(field) + "' has " + std::to_string(flat.size()) +
                  " indices (expected " + std::to_string(N) + " per element)");
    ok = false;
    return {};
  }
  std::vector<std::array<Index, N>> elements(flat.size() / N);
  for (std::size_t e = 0; e < elements.size(); ++e)
    for (std::size_t v = 0; v < N; ++v) elements[e][v] = flat[e * N + v];
  return elements;
}

}  // namespace

void BoxRoiComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  BoxRegion region;
  std::string why;
  const bool any_box = p.has("box") || p.has("orientedBox");
  if (!region.Set(any_box ? p.reals("box") : std::vector<double>{0, 0, 0, 1, 1, 1},
                  p.reals("orientedBox"), why)) {
    context.Error("BoxROI " + why);
    return;
  }
  std::vector<double> x;
  int dim = 3;
  if (p.has("position")) {
    x = p.reals("position");
    if (x.size() % 3 != 0) {
      context.Error("BoxROI 'position' has " + std::to_string(x.size()) +
                    " numbers (expected 3 per point)");
      return;
    }
  } else {
    const ObjectModel* object = context.NodeObject();
    if (object == nullptr) return;
    x.assign(object->rest_position.data(),
             object->rest_position.data() + object->rest_position.size());
    dim = object->dimension;
  }
  // A position given and empty (a link SOFA ignores: build/data_links.cpp, EmptyWhenUnresolved):
  // SOFA's BaseROI::doUpdate warns and leaves every output empty.
  const bool no_points = p.has("position") && x.empty();
  if (no_points)
    context.Warn(
        "BoxROI has no position (SOFA: \"No rest position yet defined\"): it selects "
        "nothing");
  // Points.
  Selection points;
  std::vector<double> in_points, out_points;
  for (std::size_t i = 0; i * static_cast<std::size_t>(dim) < x.size(); ++i) {
    const double* point = &x[i * static_cast<std::size_t>(dim)];
    const bool inside = region.Contains(point, dim);
    (inside ? points.in : points.out).push_back(static_cast<Index>(i));
    (inside ? in_points : out_points)
        .insert((inside ? in_points : out_points).end(), point, point + dim);
  }
  context.SetOutput("indices", points.in);
  context.SetOutput("indicesOut", points.out);
  context.SetOutput("pointsInROI", in_points);
  context.SetOutput("pointsOutROI", out_points);
  context.SetOutput("nbIndices", static_cast<long>(points.in.size()));
  // Elements.
  const std::shared_ptr<const Topology> topology = context.topology();
  const bool strict = p.flag("strict");
  bool ok = true;
  const auto select = [&](const char* field, const char* option, const char* index_name,
                          const char* out_index_name, const char* in_name, const char* out_name,
                          const auto& elements) {
    Selection selection;
    if (p.flag(option) && !no_points &&
        !Select(context, field, elements, x, dim, region, strict, selection)) {
      ok = false;
      return;
    }
    context.SetOutput(index_name, selection.in);
    context.SetOutput(out_index_name, selection.out);
    context.SetOutput(in_name, selection.in_elements);
    context.SetOutput(out_name, selection.out_elements);
  };
  const Topology* t = topology.get();
  select("edges", "computeEdges", "edgeIndices", "edgeOutIndices", "edgesInROI", "edgesOutROI",
         Elements<2>(p, "edges", t ? &t->edges : nullptr, context, ok));
  select("triangles", "computeTriangles", "triangleIndices", "triangleOutIndices", "trianglesInROI",
         "trianglesOutROI", Elements<3>(p, "triangles", t ? &t->triangles : nullptr, context, ok));
  select("quads", "computeQuads", "quadIndices", "quadOutIndices", "quadsInROI", "quadsOutROI",
         Elements<4>(p, "quads", t ? &t->quads : nullptr, context, ok));
  select("tetrahedra", "computeTetrahedra", "tetrahedronIndices", "tetrahedronOutIndices",
         "tetrahedraInROI", "tetrahedraOutROI",
         Elements<4>(p, "tetrahedra", t ? &t->tetrahedra : nullptr, context, ok));
  select("hexahedra", "computeHexahedra", "hexahedronIndices", "hexahedronOutIndices",
         "hexahedraInROI", "hexahedraOutROI",
         Elements<8>(p, "hexahedra", t ? &t->hexahedra : nullptr, context, ok));
  (void)ok;  // problems are reported; the outputs so far are harmless
}

}  // namespace fluxion::internal
