// Detection: SOFA's SubCollisionPipeline up to its detection outputs (Sofa/Component/Collision/
// Detection/Algorithm/src/sofa/component/collision/detection/algorithm/SubCollisionPipeline.cpp):
// the models' bounding trees, the broad phase (BruteForceBroadPhase), the narrow phase
// (BVHNarrowPhase) with the pipeline's intersection method.
#include "collision/detection.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "collision/bounding_tree.h"
#include "collision/broad_phase.h"
#include "collision/grid_narrow_phase.h"
#include "collision/model_elements.h"
#include "collision/narrow_phase.h"
#include "collision/proximity_geometry.h"
#include "collision/static_grid.h"
#include "fluxion/errors.h"
#include "fluxion/threads.h"

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

// Threads for computing the boxes of n elements: none below a few thousand elements.
constexpr int kMaxTasks = 64;
int TasksFor(Index n, int threads) {
  const Index by_size = n / 4096;
  return static_cast<int>(std::clamp<Index>(by_size, 1, std::min(threads, kMaxTasks)));
}

}  // namespace

struct Detection::Impl {
  struct Model {
    explicit Model(ModelElements e) : elements(std::move(e)) {}
    ModelElements elements;
    std::vector<Box> leaves;
    Box bounds;  // the union of the leaves (the root box of its tree)
    BoundingTree tree;
    StaticGrid grid;  // a model that is not `moving`: its boxes bucketed once
    // A static triangle model: its triangles' planes at the positions `planes_at` holds (a model
    // that is not `moving` keeps its boxes, not its positions: the planes follow the positions).
    std::vector<TrianglePlane> planes;
    std::vector<double> planes_at;
    RuleModel rules;
    bool paired = false;      // in some pair the method has a test for (else never read)
    bool has_leaves = false;  // its boxes were computed once (a static model's are final)
    bool needs_tree = false;  // in a pair searched through the trees
  };

  std::vector<CollisionModelDescription> descriptions;
  IntersectionSettings intersection;
  PipelineSettings pipeline;
  std::vector<Model> models;
  std::vector<ModelPairPlan> plans;
  // Per plan, the side searched through its StaticGrid (−1: both trees), chosen at the first call.
  std::vector<int> grid_side;
  bool searches_chosen = false;
  NarrowPhase narrow;
  GridNarrowPhase grid_narrow;
  std::vector<std::vector<DetectionOutput>> spare;  // output buffers kept between calls

  // Each paired model's element boxes at these positions, and their union: SOFA computes a
  // model's boxes every step, except for a model that is not `moving`, kept as first seen.
  void UpdateLeaves(std::span<const double* const> positions, int threads) {
    for (std::size_t m = 0; m < models.size(); ++m) {
      Model& model = models[m];
      const CollisionModelDescription& d = descriptions[m];
      if (!model.paired || !d.active || model.elements.size() == 0 ||
          (model.has_leaves && !d.moving))
        continue;
      struct Context {
        Model* model;
        const double* x;
        double contact_distance;
        Index n;
        int tasks;
        Box bounds[kMaxTasks];
      } context{&model,
                positions[static_cast<std::size_t>(d.object)],
                d.contact_distance,
                model.elements.size(),
                TasksFor(model.elements.size(), threads),
                {}};
      const auto boxes = [](void* c, int task) {
        Context& ctx = *static_cast<Context*>(c);
        const auto [begin, end] = TaskRange(ctx.n, ctx.tasks, task);
        // Accumulated in a local and stored once: the tasks' slots share cache lines, and a
        // store per element from each thread made two threads 3× slower than one.
        Box bounds;
        for (Index e = begin; e < end; ++e) {
          const Box box = ElementBox(ctx.model->elements, ctx.x, e, ctx.contact_distance);
          ctx.model->leaves[static_cast<std::size_t>(e)] = box;
          if (e == begin) {
            bounds = box;
            continue;
          }
          bounds.min = bounds.min.cwiseMin(box.min);
          bounds.max = bounds.max.cwiseMax(box.max);
        }
        ctx.bounds[task] = bounds;
      };
      RunParallelTasks(context.tasks, boxes, &context);
      model.bounds = context.bounds[0];
      for (int t = 1; t < context.tasks; ++t) {
        model.bounds.min = model.bounds.min.cwiseMin(context.bounds[t].min);
        model.bounds.max = model.bounds.max.cwiseMax(context.bounds[t].max);
      }
      if (!model.has_leaves && !d.moving) model.grid.Build(model.leaves);
      model.has_leaves = true;
    }
  }

  // The planes of each static triangle model searched through its grid, recomputed when its
  // object's positions differ from those they were computed at (bit for bit).
  void UpdatePlanes(std::span<const double* const> positions) {
    for (std::size_t m = 0; m < models.size(); ++m) {
      Model& model = models[m];
      const CollisionModelDescription& d = descriptions[m];
      if (!model.has_leaves || d.moving || d.kind != ElementKind::kTriangle || !model.grid.usable())
        continue;
      const double* x = positions[static_cast<std::size_t>(d.object)];
      const std::size_t values = 3 * static_cast<std::size_t>(d.topology.num_points);
      if (model.planes_at.size() == values &&
          std::memcmp(model.planes_at.data(), x, values * sizeof(double)) == 0)
        continue;
      model.planes_at.assign(x, x + values);
      ElementPair geometry;
      geometry.elements[0] = &model.elements;
      geometry.positions[0] = x;
      model.planes.resize(static_cast<std::size_t>(model.elements.size()));
      for (Index t = 0; t < model.elements.size(); ++t)
        model.planes[static_cast<std::size_t>(t)] = PlaneOfTriangle(geometry, 0, t);
    }
  }

  // At the first call, once the static models' grids exist: each pair with a static model whose
  // grid is usable is searched through it, the others through both models' trees.
  void ChooseSearches() {
    if (searches_chosen) return;
    searches_chosen = true;
    grid_side.assign(plans.size(), -1);
    for (std::size_t p = 0; p < plans.size(); ++p) {
      if (!pipeline.test_all_element_pairs)
        for (int s = 0; s < 2 && grid_side[p] < 0; ++s) {
          const auto m = static_cast<std::size_t>(plans[p].model[s]);
          if (!descriptions[m].moving && models[m].grid.usable()) grid_side[p] = s;
        }
      if (grid_side[p] < 0)
        for (const int m : plans[p].model) models[static_cast<std::size_t>(m)].needs_tree = true;
    }
  }

  // The model pairs the method tests (on the models' element counts), and which models they
  // read; the searches are chosen again at the next Detect.
  void PlanPairs() {
    std::vector<Index> sizes;
    for (const Model& model : models) sizes.push_back(model.elements.size());
    plans = PlanModelPairs(descriptions, sizes, intersection);
    // A model in no pair (a cloth's triangles and lines above a triangle floor under
    // MinProximityIntersection, which tests neither triangle–triangle nor triangle–line) keeps
    // no tree: refitting it every step would cost more than the detection itself.
    for (Model& model : models) {
      model.paired = false;
      model.needs_tree = false;
    }
    for (const ModelPairPlan& plan : plans)
      for (const int m : plan.model) models[static_cast<std::size_t>(m)].paired = true;
    searches_chosen = false;
    grid_side.clear();
    spare.reserve(plans.size());
  }

  // The trees of the models some pair searches through them: SOFA builds a model's tree the
  // first time and afterwards refits it, and leaves a model that is not `moving` as first seen.
  void UpdateTrees() {
    for (std::size_t m = 0; m < models.size(); ++m) {
      Model& model = models[m];
      if (!model.needs_tree || !model.has_leaves) continue;
      const bool built = !model.tree.empty();
      if (built && !descriptions[m].moving) continue;
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
  impl_->models.reserve(descriptions.size());
  for (std::size_t m = 0; m < descriptions.size(); ++m) {
    impl_->models.emplace_back(ModelElements(descriptions[m]));
    Impl::Model& model = impl_->models.back();
    model.leaves.resize(static_cast<std::size_t>(model.elements.size()));
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
  impl_->PlanPairs();
}

Detection::~Detection() = default;

const std::vector<CollisionModelDescription>& Detection::models() const {
  return impl_->descriptions;
}

const ModelElements& Detection::elements(int model) const {
  return impl_->models.at(static_cast<std::size_t>(model)).elements;
}

void Detection::ReplaceModelTopology(int model, ObjectTopology topology) {
  Impl& impl = *impl_;
  const auto m = static_cast<std::size_t>(model);
  if (m >= impl.models.size())
    throw UsageError("Detection::ReplaceModelTopology: no collision model " +
                     std::to_string(model));
  impl.descriptions[m].topology = std::move(topology);
  Impl::Model& old = impl.models[m];
  const RuleModel rules = old.rules;  // its pointers stay valid: the slot is reused
  old = Impl::Model(ModelElements(impl.descriptions[m]));
  old.rules = rules;
  old.leaves.resize(static_cast<std::size_t>(old.elements.size()));
  impl.PlanPairs();
}

int Detection::grid_searched_pairs() const {
  return static_cast<int>(std::count_if(impl_->grid_side.begin(), impl_->grid_side.end(),
                                        [](int s) { return s >= 0; }));
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

  const int threads = impl.pipeline.threads > 0 ? impl.pipeline.threads : ThreadCount();
  impl.UpdateLeaves(positions, threads);
  impl.ChooseSearches();
  impl.UpdateTrees();
  impl.UpdatePlanes(positions);
  for (std::size_t p = 0; p < impl.plans.size(); ++p) {
    const ModelPairPlan& plan = impl.plans[p];
    const Impl::Model* pair_models[2] = {&impl.models[static_cast<std::size_t>(plan.model[0])],
                                         &impl.models[static_cast<std::size_t>(plan.model[1])]};
    // The broad phase's per-step check: the root boxes overlap within the alarm distance.
    if (!BoxesOverlap(pair_models[0]->bounds, pair_models[1]->bounds, plan.alarm_distance))
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
    if (const int side = impl.grid_side[p]; side >= 0)
      impl.grid_narrow.Run(plan, geometry, sides, side, pair_models[side]->grid,
                           pair_models[side]->planes, threads, outputs);
    else
      impl.narrow.Run(plan, geometry, sides, threads, impl.pipeline.test_all_element_pairs,
                      outputs);
    if (outputs.empty()) {
      impl.spare.push_back(std::move(outputs));
      continue;
    }
    contacts.push_back(ModelPairContacts{plan.model[0], plan.model[1], std::move(outputs)});
  }
}

}  // namespace fluxion::internal::collision
