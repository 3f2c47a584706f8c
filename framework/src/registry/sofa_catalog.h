// Every component SOFA registers (generated from SOFA's source by
// tools/sofa_catalog/make_sofa_catalog.py into sofa_catalog.inc): its category, and whether
// Fluxion accepts and ignores it. A scene element Fluxion does not register is looked up here to
// tell a real SOFA component Fluxion does not support ("not supported (category: …)") from a
// misspelt name ("did you mean …").
#pragma once

#include <string_view>

namespace fluxion::internal {

struct SofaComponent {
  const char* name;
  const char* category;  ///< SOFA's module folder, e.g. "Collision", "Mapping"
  bool ignored;          ///< it only draws, or only changes how a linear system is stored
};

/// The SOFA component called `name`, or null.
const SofaComponent* FindSofaComponent(std::string_view name);

/// For a name SOFA's example scenes still write but SOFA no longer has (older than the renames
/// its helper/ComponentChange.cpp records, so not in the catalog), what replaced it; else null.
/// SOFA itself refuses these names and loads the scene without them.
const char* RetiredSofaComponent(std::string_view name);

}  // namespace fluxion::internal
