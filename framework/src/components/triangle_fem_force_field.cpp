#include "components/triangle_fem_force_field.h"

#include <memory>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/element_topology.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/triangle_fem.h"
#include "mechanics/triangle_rest_shape.h"

namespace fluxion::internal {

namespace {

// --- Fields shared by the three components ------------------------------------------------------

std::vector<FieldSpec> MaterialFields() {
  return {YoungModulusField("triangle"), PoissonRatioField("triangle")};
}

FieldSpec TopologyField() {
  return FieldSpec::Link("topology",
                         "the topology, e.g. topology=\"@../Container\" (default: the node's)");
}

FieldSpec DrawingFlag(const char* name, bool value) {
  return FieldSpec::Bool(name, value, "SOFA drawing option: accepted, no effect");
}

// --- Rest data
// ------------------------------------------------------------------------------------

using RestShape = TriangleRestShape;

// Builds the elements from one RestShape per triangle (`shape(t)`), reports a flat one.
template <class Shape>
bool Elements(BuildContext& context, const ObjectModel& object,
              const std::vector<std::array<Index, 3>>& triangles, double thickness,
              bool plane_strain, const char* small_note, Shape&& shape,
              std::vector<TriangleFem::Element>& elements) {
  const Parameters& p = context.parameters();
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  elements.resize(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const RestShape s = shape(t);
    const TriangleFem::Material material{InElement(young, t), InElement(poisson, t), thickness,
                                         plane_strain};
    const std::array<Index, 3> dof = {object.offset + 3 * tri[0], object.offset + 3 * tri[1],
                                      object.offset + 3 * tri[2]};
    if (!TriangleFem::MakeElement(dof, s.b, s.c, s.area, material, elements[t])) {
      context.Error(context.type() + ": triangle " + std::to_string(t) + " (" +
                    std::to_string(tri[0]) + " " + std::to_string(tri[1]) + " " +
                    std::to_string(tri[2]) + ") is flat at rest" + small_note +
                    " (expected three points not on one line)");
      return false;
    }
  }
  return true;
}

// The triangles of the component's topology; with `split_quads`, a topology with quads and no
// triangles gives each quad's (q0, q1, q2) and (q0, q2, q3) (TriangleFEMForceField's init).
// `source` is the topology whose triangle list they are (for split quads, a topology made of
// them): what the elements' per-element output is published on.
bool Triangles(BuildContext& context, const ObjectModel& object, bool split_quads,
               std::vector<std::array<Index, 3>>& triangles,
               std::shared_ptr<const Topology>& source) {
  const char* kSofaMessage = "No triangles found in linked Topology.";
  if (split_quads) {
    const Parameters& p = context.parameters();
    const bool linked = p.has("topology") && !p.text("topology").empty();
    std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
    if (linked && !topology) return false;  // reported
    if (!topology) topology = object.topology;
    if (topology && topology->triangles.empty() && !topology->quads.empty()) {
      const auto quads = ElementTopology(context, object, &Topology::quads, "quads", kSofaMessage);
      if (!quads) return false;
      triangles.clear();
      for (const auto& q : quads->quads) {
        triangles.push_back({q[0], q[1], q[2]});
        triangles.push_back({q[0], q[2], q[3]});
      }
      auto split = std::make_shared<Topology>();
      split->points = quads->points;
      split->triangles = triangles;
      source = std::move(split);
      return true;
    }
  }
  const auto topology =
      ElementTopology(context, object, &Topology::triangles, "triangles", kSofaMessage);
  if (!topology) return false;
  triangles = topology->triangles;
  source = topology;
  return true;
}

Eigen::Vector3d Point(const Vector& positions, Index i) { return positions.segment<3>(3 * i); }

// `values` (9 per triangle: three points or a 3×3 matrix) must cover every triangle.
bool CoversTriangles(BuildContext& context, const char* field, std::size_t count) {
  const std::size_t size = context.parameters().reals(field).size();
  if (size == 9 * count) return true;
  context.Error(context.type() + " '" + field + "' has " + std::to_string(size) +
                " values (expected 9 per triangle: " + std::to_string(9 * count) + ")");
  return false;
}

TriangleFemMethod MethodOf(const Parameters& p) {
  return p.text("method") == "small" ? TriangleFemMethod::kSmall : TriangleFemMethod::kLarge;
}

const char* SmallNote(TriangleFemMethod method) {
  return method == TriangleFemMethod::kSmall ? " in the xy plane (method small)" : "";
}

}  // namespace

// --- TriangleFEMForceField ---------------------------------------------------------------------

ComponentSpec TriangleFEMForceFieldComponent::Spec() {
  std::vector<FieldSpec> fields = MaterialFields();
  fields.push_back(FieldSpec::Choice("method", "large", {"small", "large"},
                                     "large: corotational, frame of the first edge; small: "
                                     "linear in the world xy plane (SOFA: not validated)"));
  fields.push_back(FieldSpec::Real("thickness", 1.0, "thickness of the membrane [m]").AtLeast(0));
  fields.push_back(
      FieldSpec::Bool("planeStrain", false, "plane strain instead of plane stress (Hooke's law)"));
  fields.push_back(FieldSpec::RealList(
      "initialPoints", "rest positions (3 per point; default: the object's rest positions)"));
  fields.push_back(TopologyField());
  return ComponentSpec{.name = "TriangleFEMForceField",
                       .kind = ComponentKind::kForceField,
                       .summary =
                           "Linear elastic triangular membrane (plane stress), small "
                           "displacements or corotational",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void TriangleFEMForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (!CheckElasticMaterial(context, "triangle")) return;
  std::vector<std::array<Index, 3>> triangles;
  std::shared_ptr<const Topology> source;
  if (!Triangles(context, object, true, triangles, source)) return;
  // SOFA's d_initialPoints: the rest positions when given.
  const std::vector<double>& initial = p.reals("initialPoints");
  if (!initial.empty() && static_cast<Index>(initial.size()) != object.num_dofs()) {
    context.Error(context.type() + " 'initialPoints' has " + std::to_string(initial.size()) +
                  " values (expected 3 per point of '" + object.id +
                  "': " + std::to_string(object.num_dofs()) + ")");
    return;
  }
  const Vector rest = initial.empty()
                          ? object.rest_position
                          : Vector(Eigen::Map<const Vector>(initial.data(), object.num_dofs()));
  const TriangleFemMethod method = MethodOf(p);
  std::vector<TriangleFem::Element> elements;
  const auto shape = [&](std::size_t t) {
    const auto& tri = triangles[t];
    const Eigen::Vector3d a = Point(rest, tri[0]), b = Point(rest, tri[1]), c = Point(rest, tri[2]);
    RestShape s = method == TriangleFemMethod::kSmall ? SmallRest(a, b, c) : LargeRest(a, b, c);
    s.area = 0.5 * (b - a).cross(c - a).norm();  // SOFA's Triangle::area, for both methods
    return s;
  };
  if (!Elements(context, object, triangles, p.real("thickness"), p.flag("planeStrain"),
                SmallNote(method), shape, elements))
    return;
  auto field =
      std::make_unique<TriangleFem>(method, TriangleFemGradients::kCurrent, std::move(elements));
  field->PublishVonMises(std::move(source));  // Fluxion's output (the file comment of TriangleFem)
  context.AddForceField(object, std::move(field));
}

// --- TriangularFEMForceField -------------------------------------------------------------------

ComponentSpec TriangularFEMForceFieldComponent::Spec() {
  std::vector<FieldSpec> fields = MaterialFields();
  fields.push_back(FieldSpec::Choice("method", "large", {"small", "large"},
                                     "large: corotational, frame of the first edge; small: "
                                     "linear in the world xy plane"));
  fields.push_back(FieldSpec::RealList(
      "rotatedInitialElements",
      "rest triangles in their own frames (3 points per triangle, the first at 0); large uses "
      "them only with initialTransformation"));
  fields.push_back(FieldSpec::RealList(
      "initialTransformation",
      "rest frames (a 3×3 matrix per triangle); with rotatedInitialElements, large takes its rest "
      "shape from those"));
  fields.push_back(FieldSpec::Real("hosfordExponant", 1.0,
                                   "exponent of the Hosford yield criterion (drawing only)"));
  fields.push_back(FieldSpec::Real("criteriaValue", 1e15, "fracture threshold (drawing only)"));
  fields.push_back(DrawingFlag("showStressValue", true));
  fields.push_back(DrawingFlag("showStressVector", false));
  fields.push_back(DrawingFlag("showFracturableTriangles", false));
  fields.push_back(DrawingFlag("computePrincipalStress", false));
  fields.push_back(TopologyField());
  return ComponentSpec{.name = "TriangularFEMForceField",
                       .kind = ComponentKind::kForceField,
                       .summary =
                           "Linear elastic triangular membrane (plane stress, no "
                           "thickness), small displacements or corotational",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void TriangularFEMForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (!CheckElasticMaterial(context, "triangle")) return;
  std::vector<std::array<Index, 3>> triangles;
  std::shared_ptr<const Topology> source;
  if (!Triangles(context, object, false, triangles, source)) return;
  const TriangleFemMethod method = MethodOf(p);
  // SOFA's initSmall takes rotatedInitialElements when set; initLarge only with
  // initialTransformation too (which then matters for its drawing only).
  const bool has_elements = !p.reals("rotatedInitialElements").empty();
  const bool given_small = method == TriangleFemMethod::kSmall && has_elements;
  const bool given_large = method == TriangleFemMethod::kLarge && has_elements &&
                           !p.reals("initialTransformation").empty();
  if (given_small || given_large) {
    if (!CoversTriangles(context, "rotatedInitialElements", triangles.size())) return;
    if (given_large && !CoversTriangles(context, "initialTransformation", triangles.size())) return;
  }
  const std::vector<double>& given = p.reals("rotatedInitialElements");
  const auto shape = [&](std::size_t t) {
    if (given_small || given_large) {
      const Eigen::Map<const Eigen::Vector3d> b(&given[9 * t + 3]), c(&given[9 * t + 6]);
      if (given_small) return RestShape{b.head<2>(), c.head<2>(), 0.5 * b.cross(c).norm()};
      // SOFA's computeStrainDisplacementLocal and computeDisplacementLarge read b_x, c_x, c_y.
      return RestShape{Eigen::Vector2d(b.x(), 0.0), c.head<2>(), 0.5 * b.x() * c.y()};
    }
    const auto& tri = triangles[t];
    const Vector& x = object.rest_position;
    const Eigen::Vector3d a = Point(x, tri[0]), b = Point(x, tri[1]), c = Point(x, tri[2]);
    return method == TriangleFemMethod::kSmall ? SmallRest(a, b, c) : LargeRest(a, b, c);
  };
  std::vector<TriangleFem::Element> elements;
  if (!Elements(context, object, triangles, 1.0, false, SmallNote(method), shape, elements)) return;
  auto field =
      std::make_unique<TriangleFem>(method, TriangleFemGradients::kCurrent, std::move(elements));
  field->PublishVonMises(std::move(source));  // Fluxion's output (the file comment of TriangleFem)
  context.AddForceField(object, std::move(field));
}

// --- TriangularFEMForceFieldOptim ----------------------------------------------------------------

ComponentSpec TriangularFEMForceFieldOptimComponent::Spec() {
  std::vector<FieldSpec> fields = MaterialFields();
  fields.push_back(FieldSpec::Choice("method", "large", {"large"},
                                     "only large (corotational) exists: SOFA ignores the "
                                     "attribute"));
  fields.push_back(
      FieldSpec::Real("restScale", 1.0,
                      "factor on the rest triangles' edges (below 1: a pre-stretched membrane)")
          .AtLeast(0));
  fields.push_back(FieldSpec::Real("damping", 0.0, "ratio damping/stiffness: unused, as in SOFA"));
  fields.push_back(DrawingFlag("computePrincipalStress", false));
  fields.push_back(FieldSpec::Real("stressMaxValue", 0.0,
                                   "SOFA's output (largest principal stress): accepted, ignored"));
  fields.push_back(DrawingFlag("showStressVector", false));
  fields.push_back(
      FieldSpec::Real("showStressThreshold", 0.0, "SOFA drawing option: accepted, no effect"));
  fields.push_back(TopologyField());
  return ComponentSpec{.name = "TriangularFEMForceFieldOptim",
                       .kind = ComponentKind::kForceField,
                       .summary =
                           "Corotational linear triangular membrane (plane stress, no "
                           "thickness), strain from the rest triangle",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void TriangularFEMForceFieldOptimComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (!CheckElasticMaterial(context, "triangle")) return;
  std::vector<std::array<Index, 3>> triangles;
  std::shared_ptr<const Topology> source;
  if (!Triangles(context, object, false, triangles, source)) return;
  const double scale = p.real("restScale");
  // SOFA's initTriangleInfo: the edges from a scaled by restScale, in the frame of
  // computeTriangleRotation (that of computeRotationLarge); weight b_x·c_y/2 (ss_factor).
  const auto shape = [&](std::size_t t) {
    const auto& tri = triangles[t];
    const Vector& x = object.rest_position;
    return ScaledLargeRest(Point(x, tri[0]), Point(x, tri[1]), Point(x, tri[2]), scale);
  };
  std::vector<TriangleFem::Element> elements;
  if (!Elements(context, object, triangles, 1.0, false, "", shape, elements)) return;
  auto field = std::make_unique<TriangleFem>(TriangleFemMethod::kLarge, TriangleFemGradients::kRest,
                                             std::move(elements));
  field->PublishVonMises(std::move(source));
  context.AddForceField(object, std::move(field));
}

}  // namespace fluxion::internal
