#include "components/roi_selection.h"

namespace fluxion::internal {

std::vector<FieldSpec> RoiFields() {
  return {FieldSpec::RealList("position",
                              "points to select from (default: the node's object's rest "
                              "positions)"),
          FieldSpec::IndexList("edges", "edges (default: the node topology's)"),
          FieldSpec::IndexList("triangles", "triangles (default: the node topology's)"),
          FieldSpec::IndexList("quads", "quads (default: the node topology's)"),
          FieldSpec::IndexList("tetrahedra", "tetrahedra (default: the node topology's)"),
          FieldSpec::IndexList("hexahedra", "hexahedra (default: the node topology's)"),
          FieldSpec::Bool("computeEdges", true, "select edges"),
          FieldSpec::Bool("computeTriangles", true, "select triangles"),
          FieldSpec::Bool("computeQuads", true, "select quads"),
          FieldSpec::Bool("computeTetrahedra", true, "select tetrahedra"),
          FieldSpec::Bool("computeHexahedra", true, "select hexahedra"),
          FieldSpec::Bool("strict", true,
                          "an element is inside when all its points are (else: its center)"),
          FieldSpec::Bool("doUpdate", true, "SOFA option: the selection is static here"),
          FieldSpec::Link("src",
                          "a loader or topology whose published data of the same names "
                          "(position, edges, triangles, …) this takes")};
}

namespace {

struct Selection {
  std::vector<Index> in, out;
  std::vector<Index> in_elements, out_elements;  // flattened
};

// The elements of `field`: given in the scene (N indices each), else the topology's.
template <std::size_t N>
bool Elements(BuildContext& context, const char* field,
              const std::vector<std::array<Index, N>>* topology,
              std::vector<std::array<Index, N>>& elements) {
  const Parameters& p = context.parameters();
  if (!p.has(field)) {
    if (topology != nullptr) elements = *topology;
    return true;
  }
  const std::vector<Index>& flat = p.indices(field);
  if (flat.size() % N != 0) {
    context.Error(context.type() + " '" + field + "' has " + std::to_string(flat.size()) +
                  " indices (expected " + std::to_string(N) + " per element)");
    return false;
  }
  elements.resize(flat.size() / N);
  for (std::size_t e = 0; e < elements.size(); ++e)
    for (std::size_t v = 0; v < N; ++v) elements[e][v] = flat[e * N + v];
  return true;
}

template <std::size_t N>
bool Select(BuildContext& context, const char* field,
            const std::vector<std::array<Index, N>>& elements,
            const std::vector<std::array<double, 3>>& x, const std::vector<bool>& inside_point,
            bool strict, const RoiTests& tests, const decltype(RoiTests::edge_test)& extra,
            Selection& selection) {
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const auto& element = elements[e];
    std::array<double, 3> center = {0, 0, 0};
    bool all = true;
    for (const Index v : element) {
      if (v >= static_cast<Index>(x.size())) {
        context.Error(context.type() + " '" + field + "' uses point " + std::to_string(v) +
                      " (expected indices below the " + std::to_string(x.size()) + " positions)");
        return false;
      }
      all = all && inside_point[static_cast<std::size_t>(v)];
      for (int c = 0; c < 3; ++c) center[c] += x[static_cast<std::size_t>(v)][c];
    }
    for (double& c : center) c /= static_cast<double>(N);
    bool inside = strict ? all : tests.contains(center);
    if (inside && extra) inside = extra(element, x);
    if (inside && tests.element_test) inside = tests.element_test(element, x);
    (inside ? selection.in : selection.out).push_back(static_cast<Index>(e));
    auto& flat = inside ? selection.in_elements : selection.out_elements;
    flat.insert(flat.end(), element.begin(), element.end());
  }
  return true;
}

}  // namespace

bool SelectRoi(BuildContext& context, const RoiTests& tests, const char* also_indices) {
  const Parameters& p = context.parameters();
  // The points, padded to 3 coordinates.
  std::vector<std::array<double, 3>> x;
  int dim = 3;
  if (p.has("position")) {
    const std::vector<double>& flat = p.reals("position");
    if (flat.size() % 3 != 0) {
      context.Error(context.type() + " 'position' has " + std::to_string(flat.size()) +
                    " numbers (expected 3 per point)");
      return false;
    }
    for (std::size_t i = 0; i < flat.size(); i += 3)
      x.push_back({flat[i], flat[i + 1], flat[i + 2]});
  } else {
    const ObjectModel* object = context.NodeObject();
    if (object == nullptr) return false;
    dim = object->dimension;
    const double* data = object->rest_position.data();
    const std::size_t n = static_cast<std::size_t>(object->rest_position.size() / dim);
    for (std::size_t i = 0; i < n; ++i) {
      std::array<double, 3> point = {0, 0, 0};
      for (int c = 0; c < dim; ++c) point[c] = data[i * static_cast<std::size_t>(dim) + c];
      x.push_back(point);
    }
  }
  // Points.
  std::vector<bool> inside_point(x.size());
  Selection points;
  std::vector<double> in_points, out_points;
  for (std::size_t i = 0; i < x.size(); ++i) {
    inside_point[i] = tests.contains(x[i]);
    (inside_point[i] ? points.in : points.out).push_back(static_cast<Index>(i));
    auto& coordinates = inside_point[i] ? in_points : out_points;
    coordinates.insert(coordinates.end(), x[i].begin(), x[i].begin() + dim);
  }
  if (also_indices != nullptr) context.SetOutput(also_indices, points.in);
  context.SetOutput("nbIndices", static_cast<long>(points.in.size()));
  context.SetOutput("indices", std::move(points.in));
  context.SetOutput("indicesOut", std::move(points.out));
  context.SetOutput("pointsInROI", std::move(in_points));
  context.SetOutput("pointsOutROI", std::move(out_points));
  // Elements.
  const std::shared_ptr<const Topology> topology = context.topology();
  const Topology* t = topology.get();
  const bool strict = p.flag("strict");
  bool ok = true;
  const auto select = [&](const char* field, const char* option, const char* names[4],
                          const auto* given, const decltype(RoiTests::edge_test)& extra) {
    std::remove_cvref_t<decltype(*given)> elements;
    Selection selection;
    if (!Elements(context, field, given, elements)) {
      ok = false;
      return;
    }
    if (p.flag(option) &&
        !Select(context, field, elements, x, inside_point, strict, tests, extra, selection)) {
      ok = false;
      return;
    }
    context.SetOutput(names[0], std::move(selection.in));
    context.SetOutput(names[1], std::move(selection.out));
    context.SetOutput(names[2], std::move(selection.in_elements));
    context.SetOutput(names[3], std::move(selection.out_elements));
  };
  const decltype(RoiTests::edge_test) none;
  const char* edges[4] = {"edgeIndices", "edgeOutIndices", "edgesInROI", "edgesOutROI"};
  const char* triangles[4] = {"triangleIndices", "triangleOutIndices", "trianglesInROI",
                              "trianglesOutROI"};
  const char* quads[4] = {"quadIndices", "quadOutIndices", "quadsInROI", "quadsOutROI"};
  const char* tetrahedra[4] = {"tetrahedronIndices", "tetrahedronOutIndices", "tetrahedraInROI",
                               "tetrahedraOutROI"};
  const char* hexahedra[4] = {"hexahedronIndices", "hexahedronOutIndices", "hexahedraInROI",
                              "hexahedraOutROI"};
  select("edges", "computeEdges", edges, t ? &t->edges : nullptr, tests.edge_test);
  select("triangles", "computeTriangles", triangles, t ? &t->triangles : nullptr,
         tests.triangle_test);
  select("quads", "computeQuads", quads, t ? &t->quads : nullptr, none);
  select("tetrahedra", "computeTetrahedra", tetrahedra, t ? &t->tetrahedra : nullptr, none);
  select("hexahedra", "computeHexahedra", hexahedra, t ? &t->hexahedra : nullptr, none);
  return ok;
}

}  // namespace fluxion::internal
