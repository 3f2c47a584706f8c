// The membranes and volumes a TopologicalChangeProcessor's node holds while its container has no
// element yet (SOFA's AddingTrianglesProcess.scn and AddingTetraProcess.scn start from a container
// of points only): built as fields without elements, so that the first addition appends its
// elements to them in place (build/addition_in_place.h) instead of rebuilding the scene to create
// them. A field without elements adds no force, no stiffness entry and no output cell — what
// leaving it out gives — and sits in the system where a build with elements puts it (its
// component's place in the scene), so that the rebuild, which builds it with its elements, keeps
// the same order of fields and the same bits. SOFA builds these components on the empty container
// too (their TriangleData / TetrahedronData start empty and grow with the creation callbacks,
// TriangularFEMForceField.inl, TetrahedralCorotationalFEMForceField.inl).
// Built empty: TriangularFEMForceField, TriangularFEMForceFieldOptim,
// TetrahedralCorotationalFEMForceField, TetrahedronFEMForceField, each with its material given as
// one number (E, ν) and none of the per-element inputs (rotatedInitialElements,
// initialTransformation, localStiffnessFactor, initialPoints); and EdgePressureForceField with a
// constant pressure whose `edges` are a link (a Triangle2Edge child's: build/edge_child_in_place.h
// follows it). Any other component, or one of these given more, stays unbuilt as before (the
// first addition then rebuilds).
#pragma once

#include <memory>

#include "fluxion/component.h"
#include "fluxion/topology.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

/// Builds component `type`'s (scene element `element`'s) field without elements on `object` (its
/// publishing of element outputs on `topology`, the empty container), when `type` is one of the
/// above and its parameters allow; false (nothing added) otherwise.
bool BuildEmptyElementField(BuildContext& context, const std::string& type,
                            const ElementDescription& element, const ObjectModel& object,
                            std::shared_ptr<const Topology> topology);

}  // namespace fluxion::internal
