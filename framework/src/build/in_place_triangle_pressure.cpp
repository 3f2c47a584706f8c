// TrianglePressureForceField followed in place (see the header).
#include "build/in_place_triangle_pressure.h"

#include <algorithm>

#include "mechanics/assembled_system.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

namespace {

// The nine DOFs of triangle `t`'s vertices, in the build's order (vertex, then axis).
void TriangleDofs(const Topology& topology, Index t, Index first_dof, std::vector<Index>& out) {
  for (const Index v : topology.triangles[static_cast<std::size_t>(t)])
    for (Index axis = 0; axis < 3; ++axis) out.push_back(first_dof + 3 * v + axis);
}

}  // namespace

bool InPlaceTrianglePressure::Add(AssembledSystem& system, const ForceField* field,
                                  const std::vector<FollowedIndexList>& lists, std::size_t list,
                                  const Topology& topology, Index first_dof, std::string& why) {
  const int index = system.FieldIndex(field);
  auto* force =
      index >= 0
          ? dynamic_cast<ConstantForce*>(&system.MutableField(static_cast<std::size_t>(index)))
          : nullptr;
  if (force == nullptr || force->weight() != nullptr) {
    why = "is not a constant load (useConstantForce=0 follows through the rebuild)";
    return false;
  }
  const std::vector<Index>& triangles = lists[list].indices;
  dofs_.clear();
  for (const Index t : triangles) {
    if (t < 0 || t >= static_cast<Index>(topology.triangles.size())) {
      why = "lists a triangle past the topology's";
      return false;
    }
    TriangleDofs(topology, t, first_dof, dofs_);
  }
  if (force->dofs() != dofs_) {
    why = "does not load its listed triangles in order";
    return false;
  }
  first_dof_ = first_dof;
  fields_.push_back({force, static_cast<std::size_t>(index), list});
  dofs_.reserve(dofs_.size());
  return true;
}

bool InPlaceTrianglePressure::Follows(std::size_t index) const {
  return std::any_of(fields_.begin(), fields_.end(),
                     [&](const Followed& f) { return f.index == index; });
}

bool InPlaceTrianglePressure::AfterRemoval(const Topology& topology, const ShellRemoval& done,
                                           std::vector<FollowedIndexList>& lists) {
  bool changed = false;
  for (const Followed& f : fields_) {
    std::vector<Index>& list = lists[f.list].indices;
    // SOFA's TopologySubsetData::remove, id by id in descending order.
    auto last = static_cast<Index>(triangles_before_);
    for (const Index removed : done.removed_triangles) {
      --last;
      for (std::size_t k = list.size(); k-- > 0;)
        if (list[k] == removed) {
          list.erase(list.begin() + static_cast<std::ptrdiff_t>(k));
          f.force->EraseEntries(9 * k, 9);
          changed = true;
        }
      if (last == removed) continue;
      for (Index& t : list)
        if (t == last) {
          t = removed;
          changed = true;
        }
    }
    // Points moved into freed slots: every entry's DOFs again from the topology.
    if (done.removed_points.empty() || list.empty()) continue;
    dofs_.clear();
    for (const Index t : list) TriangleDofs(topology, t, first_dof_, dofs_);
    f.force->SetDofs(0, dofs_);
  }
  return changed;
}

}  // namespace fluxion::internal
