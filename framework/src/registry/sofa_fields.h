// The attributes each SOFA component declares (generated from SOFA's source by
// tools/sofa_catalog/make_sofa_fields.py into sofa_fields.inc), for SOFA's rule on attributes no
// field reads: SOFA warns and goes on. Fluxion does the same for an attribute neither its
// component nor SOFA's declares (SOFA ignores it: the result cannot differ), and refuses one
// SOFA's component has and Fluxion's does not (ignoring it would change the result).
#pragma once

#include <string_view>

namespace fluxion::internal {

/// Whether SOFA's component `component` certainly has no attribute `attribute`: true only when
/// the generated list of its attributes is complete (every base class found, every field name
/// read) and does not hold `attribute`. False when SOFA has the attribute, or may have it, or
/// has no component of that name.
bool SofaIgnoresAttribute(std::string_view component, std::string_view attribute);

}  // namespace fluxion::internal
