#include "components/mesh_closing_engine.h"

#include <map>
#include <set>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec MeshClosingEngineComponent::Spec() {
  return ComponentSpec{
      .name = "MeshClosingEngine",
      .kind = ComponentKind::kEngine,
      .summary = "Closes the holes of a surface with centroid fans (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("inputPosition", "points of the surface [m]"),
                 FieldSpec::IndexList("inputTriangles", "triangles of the surface"),
                 FieldSpec::IndexList("inputQuads", "quads of the surface")},
      .aliases = {}};
}

namespace {

// The loops of border points, each closed by its first point repeated (SOFA's chaining: follow
// the edge leaving the last point; at a loop's end start a new one; when no edge leaves the
// last point, jump to the smallest remaining start in the same loop).
std::vector<std::vector<Index>> BorderLoops(const std::set<std::pair<Index, Index>>& border) {
  std::map<Index, Index> next;
  for (const auto& [from, to] : border) next[from] = to;
  std::vector<std::vector<Index>> loops;
  if (next.empty()) return loops;
  auto edge = next.begin();
  loops.push_back({edge->first});
  while (!next.empty()) {
    const Index reached = edge->second;
    loops.back().push_back(reached);
    next.erase(edge);
    if (next.empty()) break;
    if (reached == loops.back().front()) loops.emplace_back();
    edge = next.find(reached);
    if (edge == next.end()) {
      edge = next.begin();
      loops.back().push_back(edge->first);
    }
  }
  return loops;
}

}  // namespace

void MeshClosingEngineComponent::Build(BuildContext& context) {
  const auto x = ReadPoints(context, "inputPosition");
  if (!x) return;
  const auto points = static_cast<Index>(x->size());
  const auto triangles = ReadElements<3>(context, "inputTriangles", points);
  const auto quads = ReadElements<4>(context, "inputQuads", points);
  if (!triangles || !quads) return;

  // Oriented sides (previous point, point) of every element; a side meets its reverse and both
  // go.
  std::set<std::pair<Index, Index>> border;
  const auto add_sides = [&](const auto& element) {
    const std::size_t n = element.size();
    for (std::size_t j = 0; j < n; ++j) {
      const Index from = element[(j + n - 1) % n], to = element[j];
      const auto reverse = border.find({to, from});
      if (reverse == border.end())
        border.insert({from, to});
      else
        border.erase(reverse);
    }
  };
  for (const auto& t : *triangles) add_sides(t);
  for (const auto& q : *quads) add_sides(q);

  std::vector<Point3> position = *x;
  std::vector<std::array<Index, 3>> closed = *triangles;
  std::vector<Point3> closing_position;
  std::vector<std::array<Index, 3>> closing_triangles;
  std::vector<Index> indices;
  for (const std::vector<Index>& loop : BorderLoops(border)) {
    if (loop.size() <= 2) continue;
    const std::size_t m = loop.size() - 1;  // points of the loop (the first is repeated)
    const auto centroid_here = static_cast<Index>(closing_position.size() + m);
    const auto centroid = static_cast<Index>(position.size());
    Point3 sum{0.0, 0.0, 0.0};
    for (std::size_t j = 0; j < m; ++j) {
      const Index point = loop[j];
      indices.push_back(point);
      closing_position.push_back((*x)[static_cast<std::size_t>(point)]);
      for (std::size_t k = 0; k < 3; ++k) sum[k] += (*x)[static_cast<std::size_t>(point)][k];
      const auto here = static_cast<Index>(closing_position.size() - 1);
      closing_triangles.push_back({centroid_here, here, j > 0 ? here - 1 : centroid_here - 1});
      closed.push_back({centroid, point, j > 0 ? loop[j - 1] : loop[m - 1]});
    }
    for (double& s : sum) s /= static_cast<double>(m);
    closing_position.push_back(sum);
    indices.push_back(centroid);
    position.push_back(sum);
  }
  context.SetOutput("position", Flatten(position));
  context.SetOutput("triangles", Flatten(closed));
  context.SetOutput("quads", Flatten(*quads));
  context.SetOutput("indices", std::move(indices));
  context.SetOutput("closingPosition", Flatten(closing_position));
  context.SetOutput("closingTriangles", Flatten(closing_triangles));
}

}  // namespace fluxion::internal
