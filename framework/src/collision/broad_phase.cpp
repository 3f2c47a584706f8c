#include "collision/broad_phase.h"

#include "collision/collision_rules.h"

namespace fluxion::internal::collision {

namespace {

ModelPairPlan Plan(const std::vector<CollisionModelDescription>& models,
                   const IntersectionSettings& settings, int first, int second,
                   const Intersector& intersector) {
  ModelPairPlan plan;
  plan.model[0] = intersector.swap ? second : first;
  plan.model[1] = intersector.swap ? first : second;
  plan.test = intersector.test;
  plan.needs_inside_projection = intersector.needs_inside_projection;
  const double model_distances = models[static_cast<std::size_t>(first)].contact_distance +
                                 models[static_cast<std::size_t>(second)].contact_distance;
  // DiscreteIntersection has neither distance (core::collision::Intersection's 0) and its tests
  // do not add the models' contactDistance.
  if (settings.method != IntersectionSettings::Method::kDiscrete) {
    plan.alarm_distance = settings.alarm_distance + model_distances;
    plan.contact_distance = settings.contact_distance + model_distances;
  }
  plan.same_node =
      models[static_cast<std::size_t>(first)].node == models[static_cast<std::size_t>(second)].node;
  return plan;
}

}  // namespace

std::vector<ModelPairPlan> PlanModelPairs(const std::vector<CollisionModelDescription>& models,
                                          const std::vector<Index>& sizes,
                                          const IntersectionSettings& settings) {
  std::vector<ModelPairPlan> plans;
  std::vector<int> added;  // the models already in the broad phase, in order
  for (int m = 0; m < static_cast<int>(models.size()); ++m) {
    const CollisionModelDescription& model = models[static_cast<std::size_t>(m)];
    if (!model.active || sizes[static_cast<std::size_t>(m)] == 0) continue;
    if (model.simulated && CanCollideWith(model, model))
      if (const Intersector self = FindIntersector(settings, model.kind, model.kind))
        plans.push_back(Plan(models, settings, m, m, self));
    for (const int earlier : added) {
      const CollisionModelDescription& other = models[static_cast<std::size_t>(earlier)];
      if (!model.simulated && !other.simulated) continue;
      if (!CanCollideWith(model, other) || !CanCollideWith(other, model)) continue;
      if (const Intersector intersector = FindIntersector(settings, model.kind, other.kind))
        plans.push_back(Plan(models, settings, m, earlier, intersector));
    }
    added.push_back(m);
  }
  return plans;
}

}  // namespace fluxion::internal::collision
