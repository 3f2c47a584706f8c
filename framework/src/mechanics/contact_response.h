// SOFA's contact response for a penalty pipeline: which system receives each model pair's
// contacts, and each contact's side as weights over that system's DOFs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collision/detection.h"
#include "collision/model_elements.h"
#include "fluxion/simulation.h"
#include "mechanics/linear_mapping.h"
#include "mechanics/penalty_contact_force_field.h"

namespace fluxion::internal {

/// The response Fluxion implements, by SOFA's name (CollisionResponse's `response`): the penalty
/// contact, BarycentricPenalityContact with a PenalityContactForceField.
inline constexpr const char* kPenaltyResponse = "PenalityContactForceField";

/// Where a collision model's object lives, for the response (the builder fills it; the model's
/// own data is its CollisionModelDescription).
struct ContactModelPlacement {
  /// The solver node whose subtree holds the model's node (SOFA's mechanical visitors reach it),
  /// −1 when none does.
  int node_system = -1;
  std::string node_path;  ///< for messages
  /// The system integrating the model's object (−1: static, its positions are constants), and
  /// how the object's point i, axis a, reaches that system's DOFs: DOF offset + 3·i + a for an
  /// object of the system, row 3·i + a of `mapping` (child DOFs × system DOFs, the composed
  /// Jacobian of Identity, Subset and Barycentric mappings) for a mapped one.
  int object_system = -1;
  Index offset = 0;
  const LinearMapping* mapping = nullptr;  ///< not owned; null for an object of the system
};

/// The response half of SOFA's collision pipeline with response="PenalityContactForceField"
/// (Sofa/Component/Collision/Response/Contact/src/sofa/component/collision/response/contact/
/// CollisionResponse.cpp, BarycentricPenalityContact.inl; the mappers of Sofa/Component/
/// Collision/Response/Mapper/):
///
/// - Placement (CollisionResponse::createContacts and the contact's setInteractionTags): the
///   response of two simulated models goes into the pipeline's node, that of a simulated and a
///   non-simulated model into the simulated model's node; two non-simulated models get none. A
///   response is solved implicitly when an ODE solver's subtree contains its node (SOFA's
///   mechanical visitors start at the solver's node): the system of the nearest solver at or
///   above that node receives the contacts. Without one, SOFA's SolveVisitor computes the
///   response's force once, at the step's start, into each side's external force
///   (computeForceIsolatedInteractionForceFields, Sofa/framework/Simulation/Core/src/sofa/
///   simulation/SolveVisitor.cpp): each side's own system gets it as a constant force for the
///   step, without stiffness (logged once at info level).
/// - Contacts (BarycentricPenalityContact::setDetectionOutputs): outputs sharing an id keep the
///   one of smallest value (the first on a tie); each kept output maps o.point[k] onto element k
///   — identity for a point or a sphere (then its radius r_k counts), barycentric coordinates on
///   an edge (abscissa along it) or a triangle (projection on its plane) at the positions of
///   detection, then fixed for the step — with
///     d  = intersection.contactDistance + model₁.contactDistance + model₂.contactDistance + r₁ +
///     r₂ ks = model₁.contactStiffness·model₂.contactStiffness / d   (unchanged when d = 0)
///   A side whose object the receiving system integrates becomes weights over its DOFs; any
///   other side (a static obstacle, an object of another solver) is a constant position.
///
/// Fluxion deliberately differs: one PenaltyContactForceField per system holds every pair's
/// contacts (SOFA creates one force field per model pair); the force is the same sum.
/// Apply never allocates once its lists have reached their largest sizes.
class ContactResponse {
 public:
  /// `models` and `placements` are parallel (the detection's models); `fields[s]` is the contact
  /// field of system s, null for a system that cannot receive contacts (none may then be routed
  /// to it: the builder checks). `pipeline_system` is the system at or above the pipeline's
  /// node (−1: none). Pointers must outlive the response.
  ContactResponse(const std::vector<collision::CollisionModelDescription>& models,
                  std::vector<ContactModelPlacement> placements,
                  const collision::IntersectionSettings& intersection, int pipeline_system,
                  std::string pipeline_node, std::vector<PenaltyContactForceField*> fields);

  /// True when system `system` has a contact field (it may receive contacts).
  bool receives(int system) const { return fields_[static_cast<std::size_t>(system)] != nullptr; }

  /// The system receiving the contacts of models m1 and m2 (−1: none), SOFA's placement rule.
  int ReceivingSystem(int m1, int m2) const;

  /// Model `model`'s elements as the detection now reads them (after a topological change of
  /// its object: Detection::ReplaceModelTopology). Between Apply calls.
  void ReplaceModelElements(int model, const collision::ModelElements& elements);

  /// Removes every field's contacts (their storage kept): a change of the systems' points makes
  /// the contacts found before it name stale DOFs; the next Apply finds them again.
  void ClearContacts();

  /// Replaces every field's contacts by those of `pairs`, with `positions[o]` the current
  /// points of object o (3 doubles each), and lists them in `contacts`.
  void Apply(std::span<const double* const> positions,
             const std::vector<collision::ModelPairContacts>& pairs,
             std::vector<Contact>& contacts);

 private:
  // One side's points and weights: at most 3 (a triangle).
  struct SideWeights {
    Index vertex[3] = {0, 0, 0};
    double weight[3] = {0.0, 0.0, 0.0};
    int count = 0;
    double radius = 0.0;
  };
  SideWeights Weights(int model, Index element, const collision::Vec3& point,
                      const double* positions) const;
  // Adds to `field` the terms of side `weights` of `model` (sign −1 for side 1, +1 for side 2),
  // or, for a side outside `system`, its position's share of the offset; returns that share.
  double AddSide(int model, const SideWeights& weights, const collision::Vec3& normal, double sign,
                 int system, const double* positions, PenaltyContactForceField* field) const;
  // Adds to the field of the side's own system the explicit force of a contact of penalty force
  // `magnitude` (ks·pen at the step's start) on side `weights` of `model` (sign as AddSide).
  void AddExplicitSide(int model, const SideWeights& weights, const collision::Vec3& normal,
                       double sign, double magnitude) const;
  // Calls add_term(dof, coefficient) for each term of sign·Wᵀ·n of one side.
  template <typename AddTerm>
  static void ForEachSideTerm(const ContactModelPlacement& placement, const SideWeights& weights,
                              const collision::Vec3& normal, double sign, AddTerm add_term);
  collision::Vec3 Position(const SideWeights& weights, const double* positions) const;
  // Says once per pair, at info level, that its contacts are ignored or explicit, and why.
  void LogUnsolved(int m1, int m2);
  // Marks the outputs kept after dropping duplicate ids (SOFA keeps the smallest value);
  // `elements`: the larger model's element count.
  void KeepSmallestPerId(const std::vector<collision::DetectionOutput>& outputs, Index elements);

  const std::vector<collision::CollisionModelDescription>& models_;
  // Each model's elements as the detection makes them from the topology (lines from the
  // triangles' sides when it lists no edges, two triangles per quad): an output's element index
  // is an index into these, not into the topology's lists.
  std::vector<collision::ModelElements> elements_;
  std::vector<ContactModelPlacement> placements_;
  double intersection_distance_;
  int pipeline_system_;
  std::string pipeline_node_;
  std::vector<PenaltyContactForceField*> fields_;
  std::vector<char> ignored_logged_;  // per ordered model pair
  std::vector<char> kept_;            // per output of the pair being applied
  std::vector<std::size_t> order_;    // outputs sorted by id, then index (duplicate search)
  // The dense form of the duplicate search, when the ids are few enough: per id, the output kept
  // so far and the call that set it (so that nothing is cleared between calls).
  std::vector<std::size_t> best_for_id_;
  std::vector<std::uint64_t> best_stamp_;
  std::uint64_t stamp_ = 0;
};

}  // namespace fluxion::internal
