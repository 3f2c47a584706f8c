#include "components/subset_topology.h"

#include <algorithm>
#include <cmath>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec SubsetTopologyComponent::Spec() {
  return ComponentSpec{
      .name = "SubsetTopology",
      .kind = ComponentKind::kEngine,
      .summary =
          "Splits a mesh into the part inside boxes or spheres and the rest (outputs for "
          "links)",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
           FieldSpec::RealList("box", "boxes, xmin ymin zmin xmax ymax zmax each [m]")
               .DefaultText("0 0 0 1 1 1"),
           FieldSpec::RealList("centers",
                               "sphere centres [m]; when given, the regions are spheres"),
           FieldSpec::RealList("radii", "sphere radii, one per centre [m]"),
           FieldSpec::RealList("direction", "SOFA option its update never reads (no effect)"),
           FieldSpec::RealList("normal", "SOFA option its update never reads (no effect)"),
           FieldSpec::Real("edgeAngle", 0, "SOFA option its update never reads (no effect)"),
           FieldSpec::Real("triAngle", 0, "SOFA option its update never reads (no effect)"),
           FieldSpec::RealList("rest_position",
                               "points to split [m] (default: the node's object's positions)"),
           FieldSpec::IndexList("edges", "edges (default: the node topology's)"),
           FieldSpec::IndexList("triangles", "triangles (default: the node topology's)"),
           FieldSpec::IndexList("quads", "quads"),
           FieldSpec::IndexList("tetrahedra", "tetrahedra (default: the node topology's)"),
           FieldSpec::IndexList("hexahedra", "hexahedra"),
           FieldSpec::IndexList("tetrahedraInput",
                                "SOFA's tetrahedra to keep instead of a region: not supported"),
           FieldSpec::IndexList("indices",
                                "SOFA output: a value written in the scene is replaced by the "
                                "selection, as SOFA does"),
           FieldSpec::Bool("localIndices", false,
                           "number each side's elements into its own point list (border "
                           "points first)"),
           FieldSpec::Bool("drawROI", false, "SOFA drawing option (no effect)"),
           FieldSpec::Bool("drawPoints", false, "SOFA drawing option (no effect)"),
           FieldSpec::Bool("drawEdges", false, "SOFA drawing option (no effect)"),
           FieldSpec::Bool("drawTriangle", false, "SOFA drawing option (no effect)"),
           FieldSpec::Bool("drawTetrahedra", false, "SOFA drawing option (no effect)"),
           FieldSpec::Real("drawSize", 1, "SOFA drawing option (no effect)"),
           FieldSpec::Link("src",
                           "a loader or topology whose published data of the same names "
                           "(edges, triangles, …) this takes")},
      .aliases = {}};
}

namespace {

// The regions: boxes (min and max corners, each axis ordered as SOFA's update orders them) or
// spheres; a point on a bound is inside.
struct Regions {
  std::vector<std::array<double, 6>> boxes;
  std::vector<Point3> centers;
  std::vector<double> radii;

  std::size_t size() const { return centers.empty() ? boxes.size() : centers.size(); }

  bool Contains(std::size_t region, const Point3& p) const {
    if (centers.empty()) {
      const auto& b = boxes[region];
      return p[0] >= b[0] && p[0] <= b[3] && p[1] >= b[1] && p[1] <= b[4] && p[2] >= b[2] &&
             p[2] <= b[5];
    }
    const Point3& c = centers[region];
    const double d = std::sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) +
                               (p[2] - c[2]) * (p[2] - c[2]));
    return !(d > radii[region]);
  }
};

// The elements of `field`: given (N indices each, below `points`), else the topology's.
template <std::size_t N>
bool Elements(BuildContext& context, const char* field,
              const std::vector<std::array<Index, N>>* topology, Index points,
              std::vector<std::array<Index, N>>& elements) {
  if (!context.parameters().has(field)) {
    if (topology != nullptr) elements = *topology;
    for (const auto& element : elements)
      if (!CheckIndices(context, field, {element.begin(), element.end()}, points)) return false;
    return true;
  }
  const auto read = ReadElements<N>(context, field, points);
  if (!read) return false;
  elements = *read;
  return true;
}

// One kind of element split into the inside (all its points in one region) and the rest, with
// points renumbered by `local` when it is not empty.
template <std::size_t N>
void Split(BuildContext& context, const std::vector<std::array<Index, N>>& elements,
           const std::vector<Point3>& x, const Regions& regions, const std::vector<Index>& local,
           const char* index_name, const char* in_name, const char* out_name) {
  std::vector<Index> indices, in, out;
  for (std::size_t e = 0; e < elements.size(); ++e) {
    std::array<Index, N> element = elements[e];
    bool inside = false;
    for (std::size_t r = 0; r < regions.size() && !inside; ++r)
      inside = std::all_of(element.begin(), element.end(), [&](Index v) {
        return regions.Contains(r, x[static_cast<std::size_t>(v)]);
      });
    if (!local.empty())
      for (Index& v : element) v = local[static_cast<std::size_t>(v)];
    if (inside) indices.push_back(static_cast<Index>(e));
    auto& side = inside ? in : out;
    side.insert(side.end(), element.begin(), element.end());
  }
  context.SetOutput(index_name, std::move(indices));
  context.SetOutput(in_name, std::move(in));
  context.SetOutput(out_name, std::move(out));
}

// SOFA's border points: inside the first region and on an element with a point outside it.
template <std::size_t N>
std::vector<bool> Border(const std::vector<std::array<Index, N>>& elements,
                         const std::vector<Point3>& x, const Regions& regions) {
  std::vector<bool> border(x.size(), false);
  for (const auto& element : elements) {
    bool any_in = false, any_out = false;
    for (const Index v : element)
      (regions.Contains(0, x[static_cast<std::size_t>(v)]) ? any_in : any_out) = true;
    if (!any_in || !any_out) continue;
    for (const Index v : element)
      if (regions.Contains(0, x[static_cast<std::size_t>(v)]))
        border[static_cast<std::size_t>(v)] = true;
  }
  return border;
}

bool ReadRegions(BuildContext& context, Regions& regions) {
  const Parameters& p = context.parameters();
  const std::vector<double>& box = p.reals("box");
  if (box.size() % 6 != 0) {
    context.Error("SubsetTopology 'box' has " + std::to_string(box.size()) +
                  " numbers (expected 6 per box: xmin ymin zmin xmax ymax zmax)");
    return false;
  }
  for (std::size_t b = 0; b < box.size(); b += 6) {
    std::array<double, 6> corners;
    for (std::size_t k = 0; k < 3; ++k) {
      corners[k] = std::min(box[b + k], box[b + k + 3]);
      corners[k + 3] = std::max(box[b + k], box[b + k + 3]);
    }
    regions.boxes.push_back(corners);
  }
  if (!p.has("centers")) return true;
  const auto centers = ReadPoints(context, "centers");
  if (!centers) return false;
  regions.centers = *centers;
  regions.radii = p.reals("radii");
  if (regions.centers.empty() || regions.centers.size() != regions.radii.size()) {
    context.Error("SubsetTopology has " + std::to_string(regions.centers.size()) +
                  " sphere centers and " + std::to_string(regions.radii.size()) +
                  " radii (expected at least one center, and one radius per center)");
    return false;
  }
  return true;
}

}  // namespace

void SubsetTopologyComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  if (p.has("tetrahedraInput")) {
    context.Error(
        "SubsetTopology 'tetrahedraInput' is not supported (expected a box or spheres to "
        "select by)");
    return;
  }
  Regions regions;
  if (!ReadRegions(context, regions)) return;
  std::vector<Point3> x;
  if (p.has("rest_position")) {
    const auto read = ReadPoints(context, "rest_position");
    if (!read) return;
    x = *read;
  } else {
    const ObjectModel* object = context.NodeObject();
    if (object == nullptr) return;
    if (object->dimension != 3) {
      context.Error("SubsetTopology needs 3-D positions, but object '" + object->name + "' has " +
                    std::to_string(object->dimension) +
                    " coordinates per point (expected a Vec3 object or 'rest_position')");
      return;
    }
    for (Index i = 0; i < object->num_points; ++i)
      x.push_back(
          {object->position[3 * i], object->position[3 * i + 1], object->position[3 * i + 2]});
  }
  const auto points = static_cast<Index>(x.size());
  const std::shared_ptr<const Topology> topology = context.topology();
  const Topology* t = topology.get();
  std::vector<std::array<Index, 2>> edges;
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads, tetrahedra;
  std::vector<std::array<Index, 8>> hexahedra;
  if (!Elements<2>(context, "edges", t ? &t->edges : nullptr, points, edges) ||
      !Elements<3>(context, "triangles", t ? &t->triangles : nullptr, points, triangles) ||
      !Elements<4>(context, "quads", nullptr, points, quads) ||
      !Elements<4>(context, "tetrahedra", t ? &t->tetrahedra : nullptr, points, tetrahedra) ||
      !Elements<8>(context, "hexahedra", nullptr, points, hexahedra))
    return;

  // Points. With localIndices, the border points take the first places of both lists.
  const bool local = p.flag("localIndices");
  std::vector<bool> border;
  if (local)
    border = tetrahedra.empty() ? Border(triangles, x, regions) : Border(tetrahedra, x, regions);
  const auto border_count = static_cast<Index>(std::count(border.begin(), border.end(), true));
  std::vector<Index> indices, renumber;
  std::vector<Point3> in, out;
  if (local) renumber.assign(x.size(), 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (local && border[i]) {
      renumber[i] = static_cast<Index>(indices.size());
      indices.push_back(static_cast<Index>(i));
      in.push_back(x[i]);
      out.push_back(x[i]);
    }
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (local && border[i]) continue;
    bool inside = false;
    for (std::size_t r = 0; r < regions.size() && !inside; ++r) inside = regions.Contains(r, x[i]);
    if (inside) {
      if (local) renumber[i] = static_cast<Index>(in.size());
      indices.push_back(static_cast<Index>(i));
      in.push_back(x[i]);
    } else {
      if (local) renumber[i] = static_cast<Index>(out.size());
      out.push_back(x[i]);
    }
  }
  context.SetOutput("indices", std::move(indices));
  context.SetOutput("pointsInROI", Flatten(in));
  context.SetOutput("pointsOutROI", Flatten(out));
  context.SetOutput("nbrborder", static_cast<long>(border_count));

  Split(context, edges, x, regions, renumber, "edgeIndices", "edgesInROI", "edgesOutROI");
  Split(context, triangles, x, regions, renumber, "triangleIndices", "trianglesInROI",
        "trianglesOutROI");
  Split(context, quads, x, regions, renumber, "quadIndices", "quadsInROI", "quadsOutROI");
  Split(context, tetrahedra, x, regions, renumber, "tetrahedronIndices", "tetrahedraInROI",
        "tetrahedraOutROI");
  Split(context, hexahedra, x, regions, renumber, "hexahedronIndices", "hexahedraInROI",
        "hexahedraOutROI");
}

}  // namespace fluxion::internal
