// Attributes SOFA renamed, moved to another component or stopped using, for the components
// Fluxion supports: an old scene that still writes them gets the new name in its error rather
// than "unknown attribute" alone.
#pragma once

#include <string>
#include <string_view>

namespace fluxion::internal {

/// What became of `attribute` of component `component` (Fluxion's name for it, as registered:
/// "UniformMass", "StaticSolver"), as a phrase for an error message: "SOFA renamed it
/// 'vertexMass' (v18.06, PR #637)"; empty when SOFA did not rename it.
std::string RenamedAttributeHint(std::string_view component, std::string_view attribute);

}  // namespace fluxion::internal
