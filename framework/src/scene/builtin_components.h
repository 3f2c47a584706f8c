// Declarations (ComponentSpec) of the components built into the framework.
#pragma once

#include <string>
#include <vector>

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// Every built-in component: node, state, masses, force fields, constraints, topology, linear
/// solvers, RequiredPlugin, and SOFA's visual-only components (accepted, ignored).
std::vector<ComponentSpec> BuiltinComponentSpecs();

/// The <Node> element's own attributes.
ComponentSpec NodeSpec();

/// Attributes every component accepts and ignores (SOFA display and bookkeeping options):
/// names starting with "show" or "draw", those starting with '_' or "NO" (SOFA's way of
/// commenting an attribute out), and a few SOFA bookkeeping fields.
bool IsIgnoredAttribute(const std::string& name);

}  // namespace fluxion::internal
