// Membranes on a live triangle list (see the header).
#include "build/in_place_membranes.h"

#include <algorithm>
#include <optional>

#include "build/in_place_points.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/triangle_rest_shape.h"

namespace fluxion::internal {

namespace {

// The one number attribute `name` of `element` gives, or nullopt (absent, a list, a link).
std::optional<double> SingleNumber(const ElementDescription& element, const char* name) {
  const AttributeText* given = element.Find(name);
  if (given == nullptr || SplitWords(given->value).size() != 1) return std::nullopt;
  return ParseReal(given->value);
}

}  // namespace

std::string InPlaceMembranes::Add(const Simulation& simulation, AssembledSystem& system,
                                  const std::string& path, const ElementDescription* element,
                                  const Topology& topology, Index first_dof) {
  if (element == nullptr) return "is not found in the scene";
  for (const char* given : {"rotatedInitialElements", "initialTransformation", "topology"})
    if (element->Find(given) != nullptr)
      return std::string("is given '") + given + "' (a rebuild writes it)";
  Field field;
  const std::optional<double> young = SingleNumber(*element, "youngModulus");
  const std::optional<double> poisson = SingleNumber(*element, "poissonRatio");
  if (!young || !poisson) return "is not given youngModulus and poissonRatio as one number";
  field.material = {*young, *poisson, 1.0, false};
  field.optim = element->type == "TriangularFEMForceFieldOptim";
  if (field.optim) {
    const std::optional<double> scale =
        element->Find("restScale") != nullptr ? SingleNumber(*element, "restScale") : 1.0;
    if (!scale) return "is not given restScale as one number";
    field.rest_scale = *scale;
  } else {
    const AttributeText* method = element->Find("method");
    field.method = method != nullptr && method->value == "small" ? TriangleFemMethod::kSmall
                                                                 : TriangleFemMethod::kLarge;
  }
  int sources = 0;
  const ForceField* found = FieldOf(simulation, path, sources);
  if (sources == 0)
    return "was not built at the load (no triangle then): the triangles the surface gains would "
           "have elements it does not have";
  const int index = system.FieldIndex(found);
  field.fem =
      index >= 0 ? dynamic_cast<TriangleFem*>(&system.MutableField(static_cast<std::size_t>(index)))
                 : nullptr;
  if (sources != 1 || field.fem == nullptr) return "is not one membrane field of the node";
  bool in_order = field.fem->num_elements() == topology.triangles.size();
  for (std::size_t t = 0; in_order && t < topology.triangles.size(); ++t)
    for (std::size_t v = 0; in_order && v < 3; ++v)
      in_order = field.fem->element(t).dof[v] == first_dof + 3 * topology.triangles[t][v];
  if (!in_order) return "is not on the surface's triangles in order";
  field.index = static_cast<std::size_t>(index);
  field.added.reserve(topology.triangles.size());
  first_dof_ = first_dof;
  fields_.push_back(std::move(field));
  return {};
}

bool InPlaceMembranes::Follows(std::size_t index) const {
  return std::any_of(fields_.begin(), fields_.end(),
                     [&](const Field& field) { return field.index == index; });
}

bool InPlaceMembranes::Prepare(std::span<const std::array<Index, 3>> triangles,
                               const Vector& rest_position, std::string& why) {
  const auto point = [&](Index v) -> Eigen::Vector3d { return rest_position.segment<3>(3 * v); };
  for (Field& field : fields_) {
    field.added.clear();
    for (const auto& triangle : triangles) {
      const Eigen::Vector3d a = point(triangle[0]), b = point(triangle[1]), c = point(triangle[2]);
      const TriangleRestShape shape = field.optim ? ScaledLargeRest(a, b, c, field.rest_scale)
                                      : field.method == TriangleFemMethod::kSmall
                                          ? SmallRest(a, b, c)
                                          : LargeRest(a, b, c);
      const std::array<Index, 3> dof = {first_dof_ + 3 * triangle[0], first_dof_ + 3 * triangle[1],
                                        first_dof_ + 3 * triangle[2]};
      TriangleFem::Element element;
      if (!TriangleFem::MakeElement(dof, shape.b, shape.c, shape.area, field.material, element)) {
        why = "a triangle the surface would gain is flat at rest (the rebuild reports it)";
        return false;
      }
      field.added.push_back(element);
    }
  }
  return true;
}

void InPlaceMembranes::Append() {
  for (Field& field : fields_) field.fem->AppendElements(field.added);
}

void InPlaceMembranes::Remove(std::span<const Index> descending) {
  for (Field& field : fields_) field.fem->RemoveElementsMovingLast(descending);
}

void InPlaceMembranes::Rename(const Topology& topology, std::span<const Index> triangles) {
  for (Field& field : fields_)
    for (const Index t : triangles) {
      const auto& triangle = topology.triangles[static_cast<std::size_t>(t)];
      field.fem->SetElementDofs(static_cast<std::size_t>(t),
                                {first_dof_ + 3 * triangle[0], first_dof_ + 3 * triangle[1],
                                 first_dof_ + 3 * triangle[2]});
    }
}

void InPlaceMembranes::Publish(const std::shared_ptr<const Topology>& topology) {
  for (Field& field : fields_)
    if (field.fem->element_output() != nullptr) field.fem->PublishVonMises(topology);
}

}  // namespace fluxion::internal
