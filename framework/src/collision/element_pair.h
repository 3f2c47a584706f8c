// What an intersection method's element test reads and writes: one pair of models' geometry and
// distances, and the outputs it appends.
#pragma once

#include <vector>

#include "collision/detection.h"
#include "collision/model_elements.h"

namespace fluxion::internal::collision {

/// One pair of models, in the intersector's order (model 0 is the model of DetectionOutput's
/// point[0]).
struct ElementPair {
  const ModelElements* elements[2] = {nullptr, nullptr};
  const double* positions[2] = {nullptr, nullptr};  ///< each model's object: 3 doubles a point
  /// The alarm distance of the pair: the intersection's alarmDistance plus both models'
  /// contactDistance (BaseProximityIntersection); 0 for DiscreteIntersection, which has none.
  double alarm_distance = 0.0;
  /// The contact distance likewise: the intersection's contactDistance plus both models'.
  double contact_distance = 0.0;
  bool both_side[2] = {false, false};
  const IntersectionSettings* settings = nullptr;

  Vec3 point(int side, Index element, int k) const {
    const double* x = positions[side] + 3 * elements[side]->vertex(element, k);
    return Vec3(x[0], x[1], x[2]);
  }
  double radius(int side, Index element) const { return elements[side]->radius(element); }
  Index size(int side) const { return elements[side]->size(); }
  /// SOFA's id for contacts of symmetric pairs (point–point, line–line, sphere–sphere): the
  /// element of the model with more elements, the second model's on a tie.
  std::int64_t LargerModelId(Index e0, Index e1) const { return size(0) > size(1) ? e0 : e1; }
};

/// Tests elements e0 (of model 0) and e1 (of model 1) and appends their contacts (SOFA's
/// ElementIntersector::intersect, i.e. computeIntersection). Returns how many it appended.
using ElementTest = int (*)(const ElementPair& pair, Index e0, Index e1,
                            std::vector<DetectionOutput>& out);

/// Appends the contact between P (on model 0's element) and Q (on model 1's), SOFA's common
/// ending of its proximity tests: normal = (Q − P)/|Q − P| (from model 0 towards model 1), or
/// (1, 0, 0) when |Q − P| ≤ 1e-15 (SOFA's "Null distance between contact detected"), value =
/// |Q − P| − `contact_distance`.
inline void AppendContact(std::vector<DetectionOutput>& out, const Vec3& p, const Vec3& q,
                          double contact_distance, std::int64_t id) {
  DetectionOutput& o = out.emplace_back();
  o.point[0] = p;
  o.point[1] = q;
  o.normal = q - p;
  o.value = o.normal.norm();
  if (o.value > 1e-15)
    o.normal /= o.value;
  else
    o.normal = Vec3(1.0, 0.0, 0.0);
  o.value -= contact_distance;
  o.id = id;
}

}  // namespace fluxion::internal::collision
