// What SOFA's spring force fields share: the two objects a spring set links, and the link fields.
#pragma once

#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// `object1`, `object2` and Fluxion's `exactDampingJacobian`, shared by every spring component.
std::vector<FieldSpec> SpringLinkFields();

/// The two objects a spring component links (`object1`, `object2`, default the node's), checked
/// to have one template and one solver. `first`/`second` are null when a link did not resolve;
/// `usable` is false when the springs cannot act (reported, or both objects static).
struct SpringEnds {
  const ObjectModel* first = nullptr;
  const ObjectModel* second = nullptr;
  bool usable = false;
};
SpringEnds ResolveSpringEnds(BuildContext& context);

/// `<kind>Stiffness` and `<kind>Damping` (≥ 0, divided by L0 as in SOFA), with an optional alias
/// prefix (SOFA's "tetras" for "tetrahedra").
std::vector<FieldSpec> ElementSpringFields(const char* kind, double default_stiffness,
                                           double default_damping, const char* alias = nullptr);

}  // namespace fluxion::internal
