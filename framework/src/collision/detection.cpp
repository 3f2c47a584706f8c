// Detection: SOFA's SubCollisionPipeline up to its detection outputs (Sofa/Component/Collision/
// Detection/Algorithm/src/sofa/component/collision/detection/algorithm/SubCollisionPipeline.cpp):
// the models' bounding trees, the broad phase (BruteForceBroadPhase), the narrow phase
// (BVHNarrowPhase) with the pipeline's intersection method.
#include "collision/detection.h"

#include <string>
#include <utility>

#include "collision/bounding_tree.h"
#include "collision/broad_phase.h"
#include "collision/model_elements.h"
#include "collision/narrow_phase.h"
#include "fluxion/errors.h"

namespace fluxion::internal::collision {

namespace {

// The box of element e (the models' computeBoundingTree): its vertices' bounds, grown by the
// model's contactDistance, and by the radius for a sphere.
Box ElementBox(const ModelElements& elements, const double* x, Index e, double contact_distance) {
  const int vertices = elements.kind() == ElementKind::kLine       ? 2
                       : elements.kind() == ElementKind::kTriangle ? 3
                                                                   : 1;
  Box box;
  box.min = box.max = Vec3::Map(x + 3 * elements.vertex(e, 0));
  for (int k = 1; k < vertices; ++k) {
    const Vec3 p = Vec3::Map(x + 3 * elements.vertex(e, k));
    box.min = box.min.cwiseMin(p);
    box.max = box.max.cwiseMax(p);
  }
  double grow = contact_distance;
  if (elements.kind() == ElementKind::kSphere) grow += elements.radius(e);
  box.min.array() -= grow;
  box.max.array() += grow;
  return box;
}

}  // namespace

struct Detection::Impl {
  struct Model {
    ModelElements elements;
    std::vector<Box> leaves;
    BoundingTree tree;
    RuleModel rules;
    bool paired = false;  // in some pair the method has a test for (else its tree is never read)
  };

  std::vector<CollisionModelDescription> descriptions;
  IntersectionSettings intersection;
  PipelineSettings pipeline;
  std::vector<Model> models;
  std::vector<ModelPairPlan> plans;
  NarrowPhase narrow;
  std::vector<std::vector<DetectionOutput>> spare;  // output buffers kept between calls

  // The models' element boxes and trees at these positions: SOFA builds a model's tree the first
  // time and afterwards refits it, and leaves a model that is not `moving` as it was first seen.
  void UpdateTrees(std::span<const double* const> positions) {
    for (std::size_t m = 0; m < models.size(); ++m) {
      Model& model = models[m];
      const CollisionModelDescription& d = descriptions[m];
      const bool built = !model.tree.empty();
      if (!model.paired || !d.active || model.elements.size() == 0 || (built && !d.moving))
        continue;
      const double* x = positions[static_cast<std::size_t>(d.object)];
      for (Index e = 0; e < model.elements.size(); ++e)
        model.leaves[static_cast<std::size_t>(e)] =
            ElementBox(model.elements, x, e, d.contact_distance);
      if (built)
        model.tree.Refit(model.leaves);
      else
        model.tree.Build(model.leaves, DepthForLeafCells(model.elements.size(), pipeline.depth));
    }
  }
};

Detection::Detection(std::vector<CollisionModelDescription> models,
                     IntersectionSettings intersection, PipelineSettings pipeline)
    : impl_(std::make_unique<Impl>()) {
  impl_->descriptions = std::move(models);
  impl_->intersection = intersection;
  impl_->pipeline = pipeline;
  const auto& descriptions = impl_->descriptions;
  std::vector<Index> sizes;
  impl_->models.reserve(descriptions.size());
  for (std::size_t m = 0; m < descriptions.size(); ++m) {
    impl_->models.push_back(Impl::Model{ModelElements(descriptions[m]), {}, {}, {}});
    Impl::Model& model = impl_->models.back();
    model.leaves.resize(static_cast<std::size_t>(model.elements.size()));
    sizes.push_back(model.elements.size());
  }
  for (std::size_t m = 0; m < descriptions.size(); ++m) {
    int node_points = -1;  // the first point model of the node (SOFA's context lookup)
    for (std::size_t p = 0; p < descriptions.size() && node_points < 0; ++p)
      if (descriptions[p].node == descriptions[m].node &&
          descriptions[p].kind == ElementKind::kPoint)
        node_points = static_cast<int>(p);
    impl_->models[m].rules =
        RuleModel{static_cast<int>(m), &descriptions[m], &impl_->models[m].elements, node_points};
  }
  impl_->plans = PlanModelPairs(descriptions, sizes, intersection);
  // A model in no pair (a cloth's triangles and lines above a triangle floor under
  // MinProximityIntersection, which tests neither triangle–triangle nor triangle–line) keeps no
  // tree: refitting it every step would cost more than the detection itself.
  for (const ModelPairPlan& plan : impl_->plans)
    for (const int m : plan.model) impl_->models[static_cast<std::size_t>(m)].paired = true;
  impl_->spare.reserve(impl_->plans.size());
}

Detection::~Detection() = default;

const std::vector<CollisionModelDescription>& Detection::models() const {
  return impl_->descriptions;
}

void Detection::Detect(std::span<const double* const> positions,
                       std::vector<ModelPairContacts>& contacts) {
  Impl& impl = *impl_;
  for (const CollisionModelDescription& d : impl.descriptions)
    if (d.object < 0 || static_cast<std::size_t>(d.object) >= positions.size())
      throw UsageError("Detection::Detect: collision model " + d.path + " reads object " +
                       std::to_string(d.object) + ", but " + std::to_string(positions.size()) +
                       " position arrays were given");
  // Keep the previous call's output buffers (their capacity), in an order that hands each pair
  // back its own buffer when the same pairs touch again.
  for (std::size_t k = contacts.size(); k-- > 0;)
    impl.spare.push_back(std::move(contacts[k].outputs));
  contacts.clear();
  contacts.reserve(impl.plans.size());

  impl.UpdateTrees(positions);
  for (const ModelPairPlan& plan : impl.plans) {
    const Impl::Model* pair_models[2] = {&impl.models[static_cast<std::size_t>(plan.model[0])],
                                         &impl.models[static_cast<std::size_t>(plan.model[1])]};
    // The broad phase's per-step check: the root boxes overlap within the alarm distance.
    if (!BoxesOverlap(pair_models[0]->tree.nodes()[0].box, pair_models[1]->tree.nodes()[0].box,
                      plan.alarm_distance))
      continue;
    ElementPair geometry;
    NarrowSide sides[2];
    for (int s = 0; s < 2; ++s) {
      const CollisionModelDescription& d =
          impl.descriptions[static_cast<std::size_t>(plan.model[s])];
      geometry.elements[s] = &pair_models[s]->elements;
      geometry.positions[s] = positions[static_cast<std::size_t>(d.object)];
      geometry.both_side[s] = d.both_side;
      sides[s] = NarrowSide{&pair_models[s]->tree, pair_models[s]->leaves, pair_models[s]->rules};
    }
    geometry.alarm_distance = plan.alarm_distance;
    geometry.contact_distance = plan.contact_distance;
    geometry.settings = &impl.intersection;

    std::vector<DetectionOutput> outputs;
    if (!impl.spare.empty()) {
      outputs = std::move(impl.spare.back());
      impl.spare.pop_back();
    }
    impl.narrow.Run(plan, geometry, sides, impl.pipeline.threads,
                    impl.pipeline.test_all_element_pairs, outputs);
    if (outputs.empty()) {
      impl.spare.push_back(std::move(outputs));
      continue;
    }
    contacts.push_back(ModelPairContacts{plan.model[0], plan.model[1], std::move(outputs)});
  }
}

}  // namespace fluxion::internal::collision
