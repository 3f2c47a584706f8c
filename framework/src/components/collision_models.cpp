#include "components/collision_models.h"

#include <string>

namespace fluxion::internal {

namespace {

constexpr const char* kInertSummary =
    " collision model: detected by the scene's collision pipeline; inert without one (SOFA runs "
    "collision models only through one)";

// core::CollisionModel's data (Sofa/framework/Core/src/sofa/core/CollisionModel.cpp), with its
// defaults.
std::vector<FieldSpec> CommonCollisionFields() {
  return {
      FieldSpec::Bool("active", true, "SOFA: included in collision detection"),
      FieldSpec::Bool("moving", true, "SOFA: the geometry moves between steps"),
      FieldSpec::Bool("simulated", true, "SOFA: controlled by a simulation"),
      FieldSpec::Bool("selfCollision", false, "SOFA: may collide with itself"),
      FieldSpec::Real("contactDistance", 0.0, "SOFA: contact skin thickness [m]")
          .Alias("proximity"),
      FieldSpec::Real("contactStiffness", 10.0, "SOFA: contact stiffness [N/m]"),
      FieldSpec::Real("contactFriction", 0.0, "SOFA: contact friction coefficient"),
      FieldSpec::Real("contactRestitution", 0.0, "SOFA: contact coefficient of restitution"),
      FieldSpec::Text("contactResponse", "", "SOFA: contact class to use"),
      FieldSpec::IndexList("group",
                           "SOFA: IDs of the groups of models that never collide with each other"),
      FieldSpec::Integer("numberOfContacts", 0, "SOFA: number of models this one is attached to")
          .AtLeast(0),
      FieldSpec::Link("previous", "SOFA: coarser model in a hierarchy (not followed)"),
      FieldSpec::Link("next", "SOFA: finer model in a hierarchy (not followed)"),
      FieldSpec::Link("collisionElementActiver",
                      "SOFA: component switching elements on and off (not followed)")};
}

std::vector<FieldSpec> WithCommonFields(std::vector<FieldSpec> own) {
  std::vector<FieldSpec> fields = CommonCollisionFields();
  for (FieldSpec& field : own) fields.push_back(std::move(field));
  return fields;
}

ComponentSpec CollisionModelSpec(std::string name, const char* elements,
                                 std::vector<FieldSpec> own) {
  return ComponentSpec{.name = std::move(name),
                       .kind = ComponentKind::kCollisionModel,
                       .summary = std::string(elements) + kInertSummary,
                       .fields = WithCommonFields(std::move(own)),
                       .aliases = {}};
}

}  // namespace

std::vector<ComponentSpec> CollisionModelComponents::Specs() {
  const auto both_side = [](const char* elements) {
    return FieldSpec::Bool("bothSide", false,
                           std::string("SOFA: collide on both sides of the ") + elements + "");
  };
  const auto topology = [] {
    return FieldSpec::Link("topology", "SOFA: the topology container (not followed)");
  };
  const auto free_position = [] {
    return FieldSpec::Bool("displayFreePosition", false, "SOFA: drawing option");
  };
  return {
      // TriangleCollisionModel.inl
      CollisionModelSpec("TriangleCollisionModel", "Triangle",
                         {both_side("triangles"),
                          FieldSpec::Bool("computeNormals", true, "SOFA: compute triangle normals"),
                          FieldSpec::Bool("useCurvature", false,
                                          "SOFA: skip some self-intersection tests by curvature"),
                          topology()}),
      // LineCollisionModel.inl
      CollisionModelSpec("LineCollisionModel", "Line",
                         {both_side("lines"), free_position(), topology()}),
      // PointCollisionModel.inl
      CollisionModelSpec("PointCollisionModel", "Point",
                         {both_side("points"),
                          FieldSpec::Bool("computeNormals", false, "SOFA: compute point normals"),
                          free_position(), topology()}),
      // TetrahedronCollisionModel.cpp: only DiscreteIntersection tests tetrahedra in SOFA;
      // under the proximity methods it finds no contact (build/collision_pipeline.cpp).
      ComponentSpec{.name = "TetrahedronCollisionModel",
                    .kind = ComponentKind::kCollisionModel,
                    .summary = "Tetrahedron collision model: no contact under the proximity "
                               "intersection methods (SOFA has no tetrahedron test there); "
                               "DiscreteIntersection's tetrahedron–point test is not supported",
                    .fields = WithCommonFields({topology()}),
                    .aliases = {}},
      // SphereCollisionModel.inl (Vec3 and Rigid3 templates: the template is not read)
      CollisionModelSpec("SphereCollisionModel", "Sphere",
                         {FieldSpec::RealList("listRadius", "SOFA: radius of each sphere [m]"),
                          FieldSpec::Real("radius", 1.0, "SOFA: default radius [m]")}),
  };
}

}  // namespace fluxion::internal
