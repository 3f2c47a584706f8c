#include "components/subset_topological_mapping.h"

#include <algorithm>
#include <map>

#include "components/topological_mapping.h"

namespace fluxion::internal {

namespace {
constexpr Index kInvalidId = 4294967295;  // SOFA's sofa::InvalidID (unsigned int)
}  // namespace

ComponentSpec SubsetTopologicalMappingComponent::Spec() {
  ComponentSpec spec = TopologicalMappingSpec(
      "SubsetTopologicalMapping",
      "Declares the output topology a part of the input one (maps between their points and "
      "elements)");
  spec.fields.push_back(
      FieldSpec::Bool("samePoints", false, "both topologies use the same points (no point map)"));
  for (const char* kind : {"Edges", "Triangles", "Quads", "Tetrahedra", "Hexahedra"})
    spec.fields.push_back(FieldSpec::Bool(std::string("handle") + kind, false,
                                          std::string("map the ") + kind + " of the two"));
  return spec;
}

namespace {

// Output element → input element with the same points in any order (SOFA sorts the point
// indices of both, the output's first mapped to input points by pointD2S when there is one).
template <std::size_t N>
bool MapElements(BuildContext& context, const char* what, const char* d2s_name,
                 const char* s2d_name, const std::vector<std::array<Index, N>>& source,
                 const std::vector<std::array<Index, N>>& destination,
                 const std::vector<Index>& point_d2s) {
  std::vector<Index> d2s(destination.size(), kInvalidId), s2d(source.size(), kInvalidId);
  if (!source.empty() && !destination.empty()) {
    std::map<std::array<Index, N>, Index> by_points;
    for (std::size_t s = 0; s < source.size(); ++s) {
      std::array<Index, N> key = source[s];
      std::sort(key.begin(), key.end());
      by_points[key] = static_cast<Index>(s);
    }
    for (std::size_t d = 0; d < destination.size(); ++d) {
      std::array<Index, N> key = destination[d];
      if (!point_d2s.empty())
        for (Index& v : key) v = point_d2s[static_cast<std::size_t>(v)];
      std::sort(key.begin(), key.end());
      const auto found = by_points.find(key);
      if (found == by_points.end()) {
        context.Error("SubsetTopologicalMapping: output " + std::string(what) + " " +
                      std::to_string(d) +
                      " is not one of the input's (expected the output a part of the input)");
        return false;
      }
      d2s[d] = found->second;
      s2d[static_cast<std::size_t>(found->second)] = static_cast<Index>(d);
    }
  }
  context.SetOutput(d2s_name, std::move(d2s));
  context.SetOutput(s2d_name, std::move(s2d));
  return true;
}

}  // namespace

void SubsetTopologicalMappingComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  for (const char* field : {"input", "output"})
    if (!p.has(field) || p.text(field).find_first_not_of(" \t\r\n") == std::string::npos) {
      context.Error("SubsetTopologicalMapping '" + std::string(field) +
                    "' is empty (expected a link to a topology, e.g. " + field +
                    "=\"@Container\")");
      return;
    }
  const std::shared_ptr<const Topology> input = context.LinkedTopology("input");
  const std::shared_ptr<const Topology> output = context.LinkedTopology("output");
  if (!input || !output) return;
  // SOFA's maps are empty until filled: what is not handled is published empty.
  for (const char* name :
       {"pointD2S", "pointS2D", "edgeD2S", "edgeS2D", "triangleD2S", "triangleS2D", "quadD2S",
        "quadS2D", "tetrahedronD2S", "tetrahedronS2D", "hexahedronD2S", "hexahedronS2D"})
    context.SetOutput(name, std::vector<Index>{});
  std::vector<Index> point_d2s;
  if (!p.flag("samePoints")) {
    const std::size_t ns = input->points.size(), nd = output->points.size();
    std::vector<Index> point_s2d(ns, kInvalidId);
    point_d2s.assign(nd, kInvalidId);
    if (ns > 0 && nd > 0) {
      std::map<std::array<double, 3>, Index> by_position;  // the last input point at each place
      for (std::size_t s = 0; s < ns; ++s) by_position[input->points[s]] = static_cast<Index>(s);
      for (std::size_t d = 0; d < nd; ++d) {
        const auto found = by_position.find(output->points[d]);
        if (found == by_position.end()) {
          context.Error("SubsetTopologicalMapping: output point " + std::to_string(d) +
                        " is at no input point's position (expected the output's points "
                        "among the input's, or samePoints=\"true\")");
          return;
        }
        point_d2s[d] = found->second;
        point_s2d[static_cast<std::size_t>(found->second)] = static_cast<Index>(d);
      }
    }
    context.SetOutput("pointD2S", point_d2s);
    context.SetOutput("pointS2D", std::move(point_s2d));
  }
  const Topology& s = *input;
  const Topology& d = *output;
  if (p.flag("handleEdges") &&
      !MapElements(context, "edge", "edgeD2S", "edgeS2D", s.edges, d.edges, point_d2s))
    return;
  if (p.flag("handleTriangles") && !MapElements(context, "triangle", "triangleD2S", "triangleS2D",
                                                s.triangles, d.triangles, point_d2s))
    return;
  if (p.flag("handleQuads") &&
      !MapElements(context, "quad", "quadD2S", "quadS2D", s.quads, d.quads, point_d2s))
    return;
  if (p.flag("handleTetrahedra") &&
      !MapElements(context, "tetrahedron", "tetrahedronD2S", "tetrahedronS2D", s.tetrahedra,
                   d.tetrahedra, point_d2s))
    return;
  if (p.flag("handleHexahedra"))
    MapElements(context, "hexahedron", "hexahedronD2S", "hexahedronS2D", s.hexahedra, d.hexahedra,
                point_d2s);
}

}  // namespace fluxion::internal
