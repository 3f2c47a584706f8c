// What SOFA's data engines share when they read a mesh: points as flat lists of numbers, element
// lists checked against the number of points, and SOFA's fallbacks — positions from the
// mechanical state in context, elements from the topology in context — when a field is not set.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

using Point3 = std::array<double, 3>;

/// The list in `field` as points of `dimension` coordinates, padded to 3 with zeros; nullopt
/// after reporting a length that is not a multiple of `dimension`.
std::optional<std::vector<Point3>> ReadPoints(BuildContext& context, const std::string& field,
                                              int dimension = 3);

/// The 3-D positions an engine works on: the `field` when the scene sets it (or links it), else
/// the initial positions of the object the link `state_link` names (the node's object when that
/// link is empty), as SOFA engines link their position to the mechanical state in context.
/// nullopt after reporting.
std::optional<std::vector<Point3>> PositionsOrState(BuildContext& context, const char* field,
                                                    const char* state_link);

/// The flat index list in `field` as elements of N points each, every index below `points`;
/// nullopt after reporting.
template <std::size_t N>
std::optional<std::vector<std::array<Index, N>>> ReadElements(BuildContext& context,
                                                              const std::string& field,
                                                              Index points);

/// Elements of a list flattened, as engines publish them.
template <std::size_t N>
std::vector<Index> Flatten(const std::vector<std::array<Index, N>>& elements) {
  std::vector<Index> flat;
  flat.reserve(elements.size() * N);
  for (const auto& element : elements) flat.insert(flat.end(), element.begin(), element.end());
  return flat;
}

/// Points flattened to 3 numbers each.
std::vector<double> Flatten(const std::vector<Point3>& points);

/// Whether every index of `list` is below `points`; reports the first that is not.
bool CheckIndices(BuildContext& context, const std::string& field, const std::vector<Index>& list,
                  Index points);

}  // namespace fluxion::internal
