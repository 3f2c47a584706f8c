// The <Node> element's own attributes, and the attributes every element accepts and ignores.
#pragma once

#include <string>

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// The <Node> element's own attributes.
ComponentSpec NodeSpec();

/// Attributes every component accepts and ignores (SOFA display and bookkeeping options):
/// names starting with "show" or "draw", those starting with '_' or "NO" (SOFA's way of
/// commenting an attribute out), and a few SOFA bookkeeping fields.
bool IsIgnoredAttribute(const std::string& name);

}  // namespace fluxion::internal
