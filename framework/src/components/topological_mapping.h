// What SOFA's static topological mappings share (Sofa/framework/Core/src/sofa/core/topology/
// TopologicalMapping.cpp): an `input` link to a topology, an `output` link to the container
// they fill, usually an empty container declared before the mapping in the child node.
#pragma once

#include <optional>
#include <string>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The spec of a topological mapping: `input`, `output` and SOFA's options accepted.
ComponentSpec TopologicalMappingSpec(std::string name, std::string summary);

/// The elements a mapping derives from its input topology; nullopt after reporting.
using MappingRule = std::optional<Topology> (*)(BuildContext& context, const Topology& input);

/// Resolves `input` and `output`, derives the output's elements with `rule`, gives them the
/// input's points, completes them as the output container's init does (edges, and triangles
/// for tetrahedra: CompleteTopology) and replaces the output's topology with them.
void BuildTopologicalMapping(BuildContext& context, MappingRule rule);

/// The input's elements of one kind are required: reports "… has no <what>" and returns false
/// when `count` is 0.
bool RequireInputElements(BuildContext& context, std::size_t count, const char* what);

}  // namespace fluxion::internal
