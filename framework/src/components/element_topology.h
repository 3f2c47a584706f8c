// Where a finite-element force field finds its elements (tetrahedra, hexahedra): the topology
// its `topology` link names, else its node's, else its object's node's (SOFA's context search
// goes up the tree), checked against the object's points. Shared by the tetrahedron and
// hexahedron components so that every one reports the same errors the same way.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "fluxion/component.h"
#include "fluxion/model.h"
#include "fluxion/topology.h"

namespace fluxion::internal {

/// The topology a finite-element component of `object` reads: its `topology` link's, else its
/// node's, else the object's. Null with `reported` set after a broken link (reported by the link),
/// or after refusing an object that is not Vec3; null without `reported` when there is none.
inline std::shared_ptr<const Topology> ComponentTopology(BuildContext& context,
                                                         const ObjectModel& object,
                                                         bool& reported) {
  reported = false;
  if (object.dimension != 3) {
    context.Error(context.type() + " needs a Vec3 object (found Vec" +
                  std::to_string(object.dimension) + "d)");
    reported = true;
    return nullptr;
  }
  const Parameters& p = context.parameters();
  const bool linked = p.has("topology") && !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) {
    reported = true;
    return nullptr;
  }
  if (!linked && !topology) topology = object.topology;
  return topology;
}

/// `topology` if it has elements of N vertices (`elements`, e.g. &Topology::tetrahedra) that
/// use only `object`'s points, else null after one error: no such elements ("<type> needs a
/// topology with <name> in node '<path>' (SOFA's "<sofa_message>")") or an element using a point
/// the object does not have.
template <std::size_t N>
std::shared_ptr<const Topology> CheckedElements(
    BuildContext& context, const ObjectModel& object, std::shared_ptr<const Topology> topology,
    std::vector<std::array<Index, N>> Topology::*elements, const std::string& name,
    const std::string& sofa_message) {
  const std::string& type = context.type();
  if (!topology || ((*topology).*elements).empty()) {
    context.Error(type + " needs a topology with " + name + " in node '" + context.node_path() +
                  "' (SOFA's \"" + sofa_message + "\")");
    return nullptr;
  }
  for (const auto& element : (*topology).*elements)
    for (const Index v : element)
      if (v < 0 || v >= object.num_points) {
        context.Error(type + ": the topology's " + name + " use point " + std::to_string(v) +
                      " but '" + object.id + "' has " + std::to_string(object.num_points) +
                      " points");
        return nullptr;
      }
  return topology;
}

/// The topology holding `object`'s elements of N vertices: ComponentTopology, then
/// CheckedElements (null after one error).
template <std::size_t N>
std::shared_ptr<const Topology> ElementTopology(
    BuildContext& context, const ObjectModel& object,
    std::vector<std::array<Index, N>> Topology::*elements, const std::string& name,
    const std::string& sofa_message) {
  bool reported = false;
  std::shared_ptr<const Topology> topology = ComponentTopology(context, object, reported);
  if (reported) return nullptr;
  return CheckedElements(context, object, std::move(topology), elements, name, sofa_message);
}

}  // namespace fluxion::internal
