#include "mechanics/contact_response.h"

#include <algorithm>

#include <Eigen/Dense>

#include "fluxion/errors.h"
#include "fluxion/log.h"

namespace fluxion::internal {

using collision::ElementKind;
using collision::Vec3;

ContactResponse::ContactResponse(const std::vector<collision::CollisionModelDescription>& models,
                                 std::vector<ContactModelPlacement> placements,
                                 const collision::IntersectionSettings& intersection,
                                 int pipeline_system, std::string pipeline_node,
                                 std::vector<PenaltyContactForceField*> fields)
    : models_(models),
      placements_(std::move(placements)),
      intersection_distance_(intersection.contact_distance),
      pipeline_system_(pipeline_system),
      pipeline_node_(std::move(pipeline_node)),
      fields_(std::move(fields)),
      ignored_logged_(models.size() * models.size(), 0) {
  FLUXION_DEMAND(placements_.size() == models_.size());
  elements_.reserve(models_.size());
  for (const collision::CollisionModelDescription& model : models_) elements_.emplace_back(model);
}

void ContactResponse::ReplaceModelElements(int model, const collision::ModelElements& elements) {
  elements_.at(static_cast<std::size_t>(model)) = elements;
}

void ContactResponse::ClearContacts() {
  for (PenaltyContactForceField* field : fields_)
    if (field != nullptr) field->ClearContacts();
}

int ContactResponse::ReceivingSystem(int m1, int m2) const {
  const bool simulated1 = models_[static_cast<std::size_t>(m1)].simulated;
  const bool simulated2 = models_[static_cast<std::size_t>(m2)].simulated;
  if (simulated1 && simulated2) return pipeline_system_;
  if (simulated1) return placements_[static_cast<std::size_t>(m1)].node_system;
  if (simulated2) return placements_[static_cast<std::size_t>(m2)].node_system;
  return -1;
}

void ContactResponse::LogUnsolved(int m1, int m2) {
  char& logged =
      ignored_logged_[static_cast<std::size_t>(m1) * models_.size() + static_cast<std::size_t>(m2)];
  if (logged != 0) return;
  logged = 1;
  const auto& model1 = models_[static_cast<std::size_t>(m1)];
  const auto& model2 = models_[static_cast<std::size_t>(m2)];
  if (!model1.simulated && !model2.simulated) {
    LogInfo("contacts between '" + model1.path + "' and '" + model2.path +
            "' are ignored: neither model is simulated (SOFA creates no response)");
    return;
  }
  const std::string node =
      model1.simulated && model2.simulated
          ? "the pipeline's node '" + pipeline_node_ + "'"
          : "the simulated model's node '" +
                placements_[static_cast<std::size_t>(model1.simulated ? m1 : m2)].node_path + "'";
  LogInfo("contacts between '" + model1.path + "' and '" + model2.path +
          "' act as explicit forces computed at each step's start: SOFA places their response in " +
          node + ", which no ODE solver's subtree contains (SOFA's SolveVisitor adds such " +
          "interaction forces to each side's external force)");
}

ContactResponse::SideWeights ContactResponse::Weights(int model, Index element, const Vec3& point,
                                                      const double* positions) const {
  const auto& description = models_[static_cast<std::size_t>(model)];
  const auto at = [positions](Index vertex) {
    return Eigen::Map<const Vec3>(positions + 3 * vertex);
  };
  SideWeights side;
  switch (description.kind) {
    case ElementKind::kPoint:
    case ElementKind::kSphere: {
      // SOFA's IdentityContactMapper: the point itself (a sphere's centre, with its radius).
      side.vertex[0] = element;
      side.weight[0] = 1.0;
      side.count = 1;
      // SphereCollisionModel::getRadius: listRadius[i] where given, else `radius`.
      if (description.kind == ElementKind::kSphere)
        side.radius = static_cast<std::size_t>(element) < description.radii.size()
                          ? description.radii[static_cast<std::size_t>(element)]
                          : description.radius;
      break;
    }
    case ElementKind::kLine: {
      // BarycentricContactMapper on a line: the abscissa of the point along the edge. The edge is
      // the detection's element (the topology's edges, or the triangles' sides when it lists
      // none: collision/model_elements.h).
      const collision::ModelElements& elements = elements_[static_cast<std::size_t>(model)];
      const Index first = elements.vertex(element, 0), second = elements.vertex(element, 1);
      const Vec3 a = at(first), ab = at(second) - a;
      const double length2 = ab.squaredNorm();
      const double t = length2 > 0.0 ? (point - a).dot(ab) / length2 : 0.0;
      side.vertex[0] = first;
      side.vertex[1] = second;
      side.weight[0] = 1.0 - t;
      side.weight[1] = t;
      side.count = 2;
      break;
    }
    case ElementKind::kTriangle: {
      // BarycentricContactMapper on a triangle: the point's coordinates in the frame
      // (AB, AC, AB×AC), i.e. its projection on the triangle's plane. The triangle is the
      // detection's element (the topology's triangles, then two per quad).
      const collision::ModelElements& elements = elements_[static_cast<std::size_t>(model)];
      Index triangle[3];
      for (int k = 0; k < 3; ++k) triangle[k] = elements.vertex(element, k);
      const Vec3 a = at(triangle[0]), ab = at(triangle[1]) - a, ac = at(triangle[2]) - a;
      Eigen::Matrix3d frame;
      frame << ab, ac, ab.cross(ac);
      double u = 0.0, v = 0.0;
      if (frame.determinant() != 0.0) {
        const Vec3 coordinates = frame.inverse() * (point - a);
        u = coordinates[0];
        v = coordinates[1];
      }
      for (int k = 0; k < 3; ++k) side.vertex[k] = triangle[k];
      side.weight[0] = 1.0 - u - v;
      side.weight[1] = u;
      side.weight[2] = v;
      side.count = 3;
      break;
    }
  }
  return side;
}

Vec3 ContactResponse::Position(const SideWeights& weights, const double* positions) const {
  Vec3 p = Vec3::Zero();
  for (int k = 0; k < weights.count; ++k)
    p += weights.weight[k] * Eigen::Map<const Vec3>(positions + 3 * weights.vertex[k]);
  return p;
}

template <typename AddTerm>
void ContactResponse::ForEachSideTerm(const ContactModelPlacement& placement,
                                      const SideWeights& weights, const Vec3& normal, double sign,
                                      AddTerm add_term) {
  // sign·Wᵀ·n: vertex weight × (mapping weight) × normal component, per axis.
  for (int k = 0; k < weights.count; ++k) {
    for (Index axis = 0; axis < 3; ++axis) {
      const double coefficient = sign * weights.weight[k] * normal[axis];
      const Index dof = 3 * weights.vertex[k] + axis;
      if (placement.mapping == nullptr) {
        add_term(placement.offset + dof, coefficient);
        continue;
      }
      const LinearMapping& mapping = *placement.mapping;
      for (Index e = mapping.row_start(dof); e < mapping.row_start(dof + 1); ++e)
        add_term(mapping.col(e), coefficient * mapping.weight(e));
    }
  }
}

double ContactResponse::AddSide(int model, const SideWeights& weights, const Vec3& normal,
                                double sign, int system, const double* positions,
                                PenaltyContactForceField* field) const {
  const ContactModelPlacement& placement = placements_[static_cast<std::size_t>(model)];
  // A side outside the receiving system is a constant: its share of gᵀx moves into the offset.
  if (placement.object_system != system) return sign * Position(weights, positions).dot(normal);
  // g += sign·Wᵀ·n.
  ForEachSideTerm(placement, weights, normal, sign,
                  [field](Index dof, double coefficient) { field->AddTerm(dof, coefficient); });
  return 0.0;
}

void ContactResponse::AddExplicitSide(int model, const SideWeights& weights, const Vec3& normal,
                                      double sign, double magnitude) const {
  const ContactModelPlacement& placement = placements_[static_cast<std::size_t>(model)];
  if (placement.object_system < 0) return;  // a static side: nothing moves it
  PenaltyContactForceField* field = fields_[static_cast<std::size_t>(placement.object_system)];
  if (field == nullptr) return;
  // The side's point gets sign·ks·pen·n (f₁ = −ks·pen·n, f₂ = +ks·pen·n), its DOFs Wᵀ of it.
  ForEachSideTerm(placement, weights, normal, sign, [field, magnitude](Index dof, double c) {
    field->AddExplicitForce(dof, magnitude * c);
  });
}

void ContactResponse::KeepSmallestPerId(const std::vector<collision::DetectionOutput>& outputs,
                                        Index elements) {
  kept_.assign(outputs.size(), 0);
  // Ids are element numbers (a few times the largest element index): when they stay below a few
  // times the number of outputs, or below twice the larger model's element count (a table the
  // size of the models, kept between steps: a falling body's few contacts among many elements),
  // one pass in output order keeps, per id, the first output of smallest value — what the sort
  // below keeps — in linear time.
  std::int64_t largest = -1;
  bool negative = false;
  for (const collision::DetectionOutput& output : outputs) {
    largest = std::max(largest, output.id);
    negative = negative || output.id < 0;
  }
  const auto dense_limit = static_cast<std::int64_t>(
      std::max(4 * outputs.size() + 4096, 2 * static_cast<std::size_t>(elements)));
  if (!negative && largest < dense_limit) {
    const std::size_t ids = static_cast<std::size_t>(largest + 1);
    if (best_for_id_.size() < ids) {
      best_for_id_.resize(ids);
      best_stamp_.resize(ids, 0);
    }
    ++stamp_;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const auto id = static_cast<std::size_t>(outputs[k].id);
      if (best_stamp_[id] != stamp_) {
        best_stamp_[id] = stamp_;
        best_for_id_[id] = k;
      } else if (outputs[k].value < outputs[best_for_id_[id]].value) {
        best_for_id_[id] = k;
      }
    }
    for (std::size_t k = 0; k < outputs.size(); ++k)
      if (best_stamp_[static_cast<std::size_t>(outputs[k].id)] == stamp_ &&
          best_for_id_[static_cast<std::size_t>(outputs[k].id)] == k)
        kept_[k] = 1;
    return;
  }
  order_.resize(outputs.size());
  for (std::size_t k = 0; k < outputs.size(); ++k) order_[k] = k;
  std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
    return outputs[a].id != outputs[b].id ? outputs[a].id < outputs[b].id : a < b;
  });
  for (std::size_t start = 0; start < order_.size();) {
    std::size_t best = order_[start], end = start + 1;
    for (; end < order_.size() && outputs[order_[end]].id == outputs[best].id; ++end)
      if (outputs[order_[end]].value < outputs[best].value) best = order_[end];
    kept_[best] = 1;
    start = end;
  }
}

void ContactResponse::Apply(std::span<const double* const> positions,
                            const std::vector<collision::ModelPairContacts>& pairs,
                            std::vector<Contact>& contacts) {
  for (PenaltyContactForceField* field : fields_)
    if (field != nullptr) field->ClearContacts();
  contacts.clear();
  for (const collision::ModelPairContacts& pair : pairs) {
    const int system = ReceivingSystem(pair.model1, pair.model2);
    PenaltyContactForceField* field =
        system >= 0 ? fields_[static_cast<std::size_t>(system)] : nullptr;
    if (system >= 0) FLUXION_DEMAND(field != nullptr);
    if (field == nullptr) LogUnsolved(pair.model1, pair.model2);
    const auto& model1 = models_[static_cast<std::size_t>(pair.model1)];
    const auto& model2 = models_[static_cast<std::size_t>(pair.model2)];
    const double* x1 = positions[static_cast<std::size_t>(model1.object)];
    const double* x2 = positions[static_cast<std::size_t>(model2.object)];
    const double model_distance =
        intersection_distance_ + model1.contact_distance + model2.contact_distance;
    KeepSmallestPerId(pair.outputs,
                      std::max(elements_[static_cast<std::size_t>(pair.model1)].size(),
                               elements_[static_cast<std::size_t>(pair.model2)].size()));
    for (std::size_t k = 0; k < pair.outputs.size(); ++k) {
      if (kept_[k] == 0) continue;
      const collision::DetectionOutput& output = pair.outputs[k];
      const SideWeights side1 = Weights(pair.model1, output.element[0], output.point[0], x1);
      const SideWeights side2 = Weights(pair.model2, output.element[1], output.point[1], x2);
      const double distance = model_distance + side1.radius + side2.radius;
      double stiffness = model1.contact_stiffness * model2.contact_stiffness;
      if (distance != 0.0) stiffness /= distance;
      const Vec3& n = output.normal;
      if (field != nullptr) {
        // pen = offset − gᵀx with offset = d − (c₂ − c₁)·n and g = (W₂ − W₁)ᵀ·n.
        field->AddContact(stiffness, distance);
        const double constant = AddSide(pair.model1, side1, n, -1.0, system, x1, field) +
                                AddSide(pair.model2, side2, n, 1.0, system, x2, field);
        field->AdjustOffset(-constant);
      }
      Contact& contact = contacts.emplace_back();
      contact.model = {pair.model1, pair.model2};
      contact.element = output.element;
      for (int s = 0; s < 2; ++s)
        for (int a = 0; a < 3; ++a)
          contact.point[static_cast<std::size_t>(s)][static_cast<std::size_t>(a)] =
              output.point[static_cast<std::size_t>(s)][a];
      for (int a = 0; a < 3; ++a) contact.normal[static_cast<std::size_t>(a)] = n[a];
      contact.distance = distance;
      contact.penetration = distance - (Position(side2, x2) - Position(side1, x1)).dot(n);
      contact.stiffness = stiffness;
      contact.solver_node = field != nullptr ? system : -1;
      // A response outside every solver's subtree: SOFA's SolveVisitor computes it once, at the
      // step's start, into each side's external force (computeForceIsolatedInteractionForceFields,
      // Sofa/framework/Simulation/Core/src/sofa/simulation/SolveVisitor.cpp). No stiffness.
      if (field == nullptr && contact.penetration > 0.0 && (model1.simulated || model2.simulated)) {
        const double magnitude = stiffness * contact.penetration;
        AddExplicitSide(pair.model1, side1, n, -1.0, magnitude);
        AddExplicitSide(pair.model2, side2, n, 1.0, magnitude);
      }
    }
  }
}

}  // namespace fluxion::internal
