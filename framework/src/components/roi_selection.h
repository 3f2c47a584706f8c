// What SOFA's region-of-interest engines share (BaseROI: Sofa/Component/Engine/Select/src/sofa/
// component/engine/select/BaseROI.{h,inl}): the input fields (position, edges, …, compute…,
// strict) and the selection of points and elements with its outputs (indices, pointsInROI,
// edgeIndices, edgesInROI, …, the …Out… complements, nbIndices), for an engine that only says
// which points its region contains. BoxROI predates this helper and keeps its own copy.
#pragma once

#include <array>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// BaseROI's input fields: position, edges, triangles, quads, tetrahedra, hexahedra, their
/// compute… switches, strict, doUpdate, and SOFA's `src` (those inputs from a loader's data).
std::vector<FieldSpec> RoiFields();

/// What decides a region: whether it contains a point (coordinates padded to 3 with zeros), and
/// optional extra tests an edge or triangle must also pass (its point indices, the positions).
struct RoiTests {
  std::function<bool(const std::array<double, 3>& x)> contains;
  std::function<bool(std::span<const Index> element, std::span<const std::array<double, 3>> x)>
      edge_test, triangle_test;
  /// Optional: a further test every element (of any kind) must pass, e.g. PlaneROI's "all its
  /// points in the same plane".
  std::function<bool(std::span<const Index> element, std::span<const std::array<double, 3>> x)>
      element_test;
};

/// Selects points and elements with `tests` and publishes BaseROI's outputs. Points are the
/// `position` field, else the node object's rest positions; elements the fields, else the node
/// topology's. An element is inside when all its points are (`strict`) or its center is, and it
/// passes its extra test. `also_indices` names an alias the point indices are published under
/// too (SphereROI's pointIndices). False after reporting a problem.
bool SelectRoi(BuildContext& context, const RoiTests& tests, const char* also_indices = nullptr);

}  // namespace fluxion::internal
