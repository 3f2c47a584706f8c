// Contact detection: SOFA's collision pipeline up to its detection outputs (bounding trees, broad
// phase, narrow phase, intersection tests), on plain geometry. What a contact does to the
// mechanics (SOFA's contact response: PenalityContactForceField) is not this layer's business.
//
// This header is the contract between the detection layer (framework/src/collision/) and its
// users (the scene builder, which describes the models; the runtime, which asks for contacts
// before each step and hands them to the contact response). Fields may be added; the meaning of
// those here is fixed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "fluxion/types.h"

namespace fluxion::internal::collision {

class ModelElements;

using Vec3 = Eigen::Vector3d;

/// The element type of a collision model (SOFA's Sofa/Component/Collision/Geometry/:
/// PointCollisionModel, LineCollisionModel, TriangleCollisionModel, SphereCollisionModel).
enum class ElementKind { kPoint, kLine, kTriangle, kSphere };

/// The topology of the object a collision model lies on, as the scene gives it: every element
/// list SOFA's models may read (a LineCollisionModel reads the edges, a TriangleCollisionModel the
/// triangles, and the neighbourhood of both decides which features a triangle tests). Point
/// indices into the object's positions.
struct ObjectTopology {
  Index num_points = 0;
  std::vector<std::array<Index, 2>> edges;
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
};

/// One collision model as detection sees it. The fields are SOFA's core::CollisionModel data
/// (Sofa/framework/Core/src/sofa/core/CollisionModel.cpp) and the model's own.
struct CollisionModelDescription {
  std::string path;  ///< e.g. "root/Torus/Surf/TriangleCollisionModel", for messages
  ElementKind kind = ElementKind::kPoint;
  /// The node the model is in (an index the caller chooses): two models of one node collide only
  /// when `self_collision` is set (SOFA's CollisionModel::canCollideWith compares contexts).
  int node = -1;
  /// The object whose positions the model reads: an index into the position spans given to
  /// Detection::Detect.
  int object = -1;
  ObjectTopology topology;
  /// kSphere: SOFA's listRadius (one per point) or, when empty, `radius` for every sphere.
  std::vector<double> radii;
  double radius = 1.0;

  bool active = true;
  bool moving = true;
  bool simulated = true;
  bool self_collision = false;
  bool both_side = false;           ///< Triangle/Line/PointCollisionModel bothSide
  double contact_distance = 0.0;    ///< contactDistance (old name proximity)
  double contact_stiffness = 10.0;  ///< contactStiffness
  double contact_friction = 0.0;    ///< contactFriction
  std::vector<int> groups;          ///< group: models sharing a group never collide
  /// A LineCollisionModel is in the model's node or above it (SOFA's node->get<LineCollisionModel>,
  /// which searches up): LocalMinDistance filters a point model's contacts only then.
  bool line_model_in_context = false;
};

/// The intersection method of the pipeline and its fields (Sofa/Component/Collision/Detection/
/// Intersection/: BaseProximityIntersection, MinProximityIntersection, NewProximityIntersection,
/// LocalMinDistance, DiscreteIntersection).
struct IntersectionSettings {
  enum class Method { kMinProximity, kNewProximity, kLocalMinDistance, kDiscrete };
  Method method = Method::kMinProximity;
  double alarm_distance = 1.0;
  double contact_distance = 0.5;
  // MinProximityIntersection (NewProximityIntersection has use_line_line only, default false).
  bool use_sphere_triangle = true;
  bool use_point_point = true;
  bool use_surface_normals = false;
  bool use_line_point = true;
  bool use_line_line = true;
  // LocalMinDistance.
  bool filter_intersection = true;
  double angle_cone = 0.0;
  double cone_factor = 0.5;
  bool use_lmd_filters = false;
};

/// The pipeline's own settings (CollisionPipeline depth; which broad and narrow phase).
struct PipelineSettings {
  int depth = 6;  ///< CollisionPipeline's `depth`: the bounding trees' maximal depth
  /// Threads the detection may use (1: sequential; 0: fluxion::ThreadCount() at each call, what
  /// a scene's pipeline uses). Results are the same bits for any count.
  int threads = 1;
  /// Test every element pair of each model pair, without bounding boxes: a slow reference for
  /// tests (the contacts are the same set; the trees only skip pairs too far apart).
  bool test_all_element_pairs = false;
};

/// One contact found between an element of model 1 and an element of model 2 (SOFA's
/// core::collision::DetectionOutput, Sofa/framework/Core/src/sofa/core/collision/
/// DetectionOutput.h).
struct DetectionOutput {
  std::array<Index, 2> element{};  ///< element index in each model (a point, edge, triangle…)
  std::array<Vec3, 2> point;       ///< the contact point on each element's surface
  /// Unit, from point[0] towards point[1]: outward from model 1, towards model 2 (SOFA: Q − P).
  Vec3 normal = Vec3::Zero();
  double value = 0.0;   ///< the distance between the points minus the contact distance
  std::int64_t id = 0;  ///< unique per model pair: duplicates keep the smallest value
};

/// Every contact between two models, model1 < model2 unless SOFA orders the pair the other way
/// (its intersector's swap): `model1` is the model of `point[0]`.
struct ModelPairContacts {
  int model1 = -1;
  int model2 = -1;
  std::vector<DetectionOutput> outputs;  ///< in a deterministic order
};

/// The detection of one collision pipeline over its models.
class Detection {
 public:
  Detection(std::vector<CollisionModelDescription> models, IntersectionSettings intersection,
            PipelineSettings pipeline);
  ~Detection();
  Detection(const Detection&) = delete;
  Detection& operator=(const Detection&) = delete;

  const std::vector<CollisionModelDescription>& models() const;

  /// Detects every contact at the given positions: `positions[o]` holds object o's points,
  /// 3 doubles each. `contacts` is overwritten (its storage reused: no allocation once the
  /// number of contacts has been reached before). Pairs with no contact are left out; pairs
  /// and outputs come in the same order for any thread count.
  void Detect(std::span<const double* const> positions, std::vector<ModelPairContacts>& contacts);

  /// Model `model`'s elements re-read from `topology` (a topological change of its object:
  /// SOFA's models call updateFromTopology when their container's revision changes, e.g.
  /// TriangleCollisionModel::computeBoundingTree). The model's boxes, tree, grid and planes are
  /// made again at the next Detect from the positions then, as a fresh Detection makes them; the
  /// other models keep theirs, and the pairs and searches are planned again. Costs the model's
  /// size (its elements and neighbourhoods are read whole, as SOFA's are). Between Detect calls.
  void ReplaceModelTopology(int model, ObjectTopology topology);

  /// Model `model`'s elements as the detection reads them.
  const ModelElements& elements(int model) const;

  /// How many model pairs are searched through the grid of a model that is not `moving` rather
  /// than through both models' bounding trees (decided at the first Detect: 0 before). The
  /// contacts are the same either way; this says which search ran, for tests and logs.
  int grid_searched_pairs() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion::internal::collision
