// What the builder charges against the memory budget besides points and springs (build_state.h):
// the scene's structure — each node, component and attribute costs memory to describe, read and
// build, whatever its size — and the data components hand each other, copied once per reader
// (a link's value, an engine's output). The structure is charged before the build allocates
// it, each copy before it is kept, so that a scene of many small objects, or one large object
// read by many engines, is refused at the budget instead of exhausting memory.
#pragma once

#include <string>

#include "build/build_state.h"

namespace fluxion::internal {

/// Charges the scene's nodes, components and attributes (state.scene); false, reported at the
/// root node, when they alone exceed the budget.
bool ChargeSceneStructure(BuildState& state);

/// The bytes a field value holds.
double HeldBytes(const FieldValue& value);

/// Charges `bytes` of data kept for `what` ("link '@dofs.position' into <BoxROI> 'box'"). Over
/// the budget, reports it at `line` and throws the scene's problems: nothing more is built (a
/// scene that copies one object into a thousand engines stops at the first copy too many).
void ChargeData(BuildState& state, double bytes, int line, const std::string& what);

}  // namespace fluxion::internal
