#include "collision/collision_rules.h"

#include <algorithm>
#include <span>

namespace fluxion::internal::collision {

bool CanCollideWith(const CollisionModelDescription& a, const CollisionModelDescription& b) {
  if (a.node == b.node) return a.self_collision;
  if (a.groups.empty() || b.groups.empty()) return true;
  for (const int group : a.groups)
    if (std::find(b.groups.begin(), b.groups.end(), group) != b.groups.end()) return false;
  return true;
}

namespace {

bool Contains(std::span<const Index> list, Index value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// PointCollisionModel::canCollideWithElement, model2 == this.
bool PointsMayTouch(const ModelElements& points, Index p, Index q) {
  if (p <= q) return false;  // each pair once: p > q
  const auto around_p = points.vertices_around_vertex(p);
  const auto around_q = points.vertices_around_vertex(q);
  for (const Index v1 : around_p)
    for (const Index v2 : around_q)
      if (v1 == v2 || v1 == q || p == v2) return false;
  return true;
}

// LineCollisionModel::canCollideWithElement, model2 == this.
bool LinesMayTouch(const ModelElements& lines, Index a, Index b) {
  const Index a1 = lines.vertex(a, 0), a2 = lines.vertex(a, 1);
  const Index b1 = lines.vertex(b, 0), b2 = lines.vertex(b, 1);
  if (a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2) return false;
  for (const Index va : {a1, a2})
    for (const Index line : lines.lines_around_vertex(va))
      if (Contains(lines.lines_around_vertex(b1), line) ||
          Contains(lines.lines_around_vertex(b2), line))
        return false;
  return true;
}

// LineCollisionModel::canCollideWithElement, model2 == the node's point model.
bool LineMayTouchPoint(const ModelElements& lines, Index a, Index p) {
  const Index a1 = lines.vertex(a, 0), a2 = lines.vertex(a, 1);
  if (p == a1 || p == a2) return false;
  for (const Index va : {a1, a2})
    for (const Index line : lines.lines_around_vertex(va))
      if (p == lines.vertex(line, 0) || p == lines.vertex(line, 1)) return false;
  return true;
}

// One model's own rule; `asked_back` false the first time, when a model without a rule for the
// other model may ask the other one.
bool ElementRule(const RuleModel& m1, Index e1, const RuleModel& m2, Index e2, bool asked_back) {
  if (!m1.description->self_collision) return true;
  if (m1.description->node != m2.description->node) return true;
  const ModelElements& elements = *m1.elements;
  const bool same_model = m1.index == m2.index;
  const auto ask_other = [&] { return asked_back || ElementRule(m2, e2, m1, e1, true); };
  switch (elements.kind()) {
    case ElementKind::kPoint:
      return same_model ? PointsMayTouch(elements, e1, e2) : ask_other();
    case ElementKind::kLine:
      if (same_model) return LinesMayTouch(elements, e1, e2);
      if (m2.index == m1.node_point_model) return LineMayTouchPoint(elements, e1, e2);
      return ask_other();
    case ElementKind::kTriangle:
      if (m2.index == m1.node_point_model)
        return e2 != elements.vertex(e1, 0) && e2 != elements.vertex(e1, 1) &&
               e2 != elements.vertex(e1, 2);
      return true;
    case ElementKind::kSphere:
      return !(same_model && e1 == e2);
  }
  return true;
}

}  // namespace

bool CanCollideWithElement(const RuleModel& m1, Index e1, const RuleModel& m2, Index e2) {
  return ElementRule(m1, e1, m2, e2, false);
}

}  // namespace fluxion::internal::collision
