#include "components/element_fem_force_fields.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/element_template.h"
#include "components/element_topology.h"
#include "mechanics/hexahedron_fem.h"
#include "mechanics/tetrahedron_fem.h"

namespace fluxion::internal {

namespace {

// The fields both components share (FEMForceField's and BaseLinearElasticityFEMForceField's).
std::vector<FieldSpec> SharedFields() {
  return {
      ElementTemplateField(),
      YoungModulusField("element"),
      PoissonRatioField("element"),
      FieldSpec::Choice("computeForceStrategy", "parallel", {"parallel", "sequenced"},
                        "SOFA's threading of the element forces; in Fluxion both give the "
                        "same bits (the run's threads are used)"),
      FieldSpec::Choice("computeForceDerivStrategy", "parallel", {"parallel", "sequenced"},
                        "SOFA's threading of the force derivatives; same bits either way"),
      FieldSpec::Real("elementSpace", 0.125, "drawing: the space between elements (ignored)"),
      FieldSpec::RealList("elementStiffness",
                          "SOFA's output of the element stiffness matrices: ignored as an "
                          "input"),
      FieldSpec::Link("topology", "the topology, e.g. topology=\"@grid\" (default: the node's)")};
}

// The element frame SOFA's formulation and rotationMethod give (`linear` is
// LinearSmallStrainFEMForceField): none, the element's own frame (SOFA's default, "triangle" for
// tetrahedra, "hexahedron" for hexahedra), or the polar rotations of the whole rest element.
// Nothing after reporting a rotation method SOFA does not offer for the element.
enum class ElementRotation { kNone, kOwn, kPolar, kStablePolar };  // KernelMethod's order

std::optional<ElementRotation> RotationOf(BuildContext& context, ElementShape shape, bool linear) {
  if (linear) return ElementRotation::kNone;
  const std::string& method = context.parameters().text("rotationMethod");
  const char* own = shape == ElementShape::kTetrahedron ? "triangle" : "hexahedron";
  if (method.empty() || method == own) return ElementRotation::kOwn;
  if (method == "identity") return ElementRotation::kNone;
  if (method == "polar") return ElementRotation::kPolar;
  if (method == "stable_polar") return ElementRotation::kStablePolar;
  context.Error(context.type() + " rotationMethod=\"" + method +
                "\" is not SOFA's for this element (expected \"" + own +
                "\", \"polar\", \"stable_polar\" or \"identity\")");
  return std::nullopt;
}

// The kernel's method for each ElementRotation, in the enumeration's order.
template <class Method>
Method KernelMethod(ElementRotation rotation, const std::array<Method, 4>& by_rotation) {
  return by_rotation[static_cast<std::size_t>(rotation)];
}

void BuildElementFem(BuildContext& context, bool linear) {
  const std::optional<ElementShape> shape = ElementShapeOf(context);
  if (!shape) return;
  const std::optional<ElementRotation> rotation = RotationOf(context, *shape, linear);
  if (!rotation) return;
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const bool tetrahedra = *shape == ElementShape::kTetrahedron;
  if (!CheckElasticMaterial(context, tetrahedra ? "tetrahedron" : "hexahedron")) return;
  const Parameters& p = context.parameters();
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  const auto material = [&](std::size_t count, std::vector<double>& E, std::vector<double>& nu) {
    E.resize(count);
    nu.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      E[i] = InElement(young, i);
      nu[i] = InElement(poisson, i);
    }
  };
  std::vector<double> element_young, element_poisson;
  if (tetrahedra) {
    const auto topology = ElementTopology(context, object, &Topology::tetrahedra, "tetrahedra",
                                          "no tetrahedra in the topology");
    if (!topology) return;  // reported
    material(topology->tetrahedra.size(), element_young, element_poisson);
    const TetrahedronFemMethod method = KernelMethod<TetrahedronFemMethod>(
        *rotation,
        {TetrahedronFemMethod::kSmall, TetrahedronFemMethod::kLarge,
         TetrahedronFemMethod::kCentroidPolar, TetrahedronFemMethod::kCentroidStablePolar});
    std::vector<TetrahedronFem::Element> elements;
    const long bad =
        TetrahedronFem::RestElements(method, topology->tetrahedra, object.rest_position,
                                     object.offset, element_young, element_poisson, elements);
    if (bad >= 0) {
      context.Error(context.type() + ": tetrahedron " + std::to_string(bad) +
                    " has no volume at rest (expected four points not in one plane)");
      return;
    }
    context.AddForceField(object,
                          std::make_unique<TetrahedronFem>(method, false, std::move(elements)));
    return;
  }
  const auto topology = ElementTopology(context, object, &Topology::hexahedra, "hexahedra",
                                        "no hexahedra in the topology");
  if (!topology) return;  // reported
  material(topology->hexahedra.size(), element_young, element_poisson);
  const HexahedronFemMethod method = KernelMethod<HexahedronFemMethod>(
      *rotation, {HexahedronFemMethod::kSmall, HexahedronFemMethod::kLarge,
                  HexahedronFemMethod::kCentroidPolar, HexahedronFemMethod::kCentroidStablePolar});
  std::vector<HexahedronFem::Element> elements;
  std::vector<HexahedronFem::Stiffness> stiffnesses;
  const long bad =
      HexahedronFem::RestElements(method, topology->hexahedra, object.rest_position, object.offset,
                                  element_young, element_poisson, elements, stiffnesses);
  if (bad >= 0) {
    context.Error(context.type() + ": hexahedron " + std::to_string(bad) +
                  " is flat or inverted at rest (expected SOFA's vertex order: 0 1 2 3 "
                  "counterclockwise at the bottom seen from above, 4 5 6 7 above them)");
    return;
  }
  context.AddForceField(object, std::make_unique<HexahedronFem>(method, false, std::move(elements),
                                                                std::move(stiffnesses)));
}

}  // namespace

ComponentSpec CorotationalFEMForceFieldComponent::Spec() {
  ComponentSpec spec{.name = "CorotationalFEMForceField",
                     .kind = ComponentKind::kForceField,
                     .summary =
                         "Linear elastic tetrahedra or hexahedra in a frame that follows "
                         "each element's rotation (SOFA's element FEM)",
                     .fields = SharedFields(),
                     .aliases = {}};
  spec.fields.push_back(FieldSpec::Text(
      "rotationMethod", "",
      "how each element's rotation is found: \"triangle\" (tetrahedra, the default: frame of the "
      "first face), \"hexahedron\" (hexahedra, the default: frame of the mean edges), "
      "\"identity\" (no rotation), \"polar\" (the polar factor of the best fit of the rest element "
      "onto the current one, about their centroids) or \"stable_polar\" (the same, kept a rotation "
      "when the element inverts)"));
  return spec;
}

void CorotationalFEMForceFieldComponent::Build(BuildContext& context) {
  BuildElementFem(context, false);
}

ComponentSpec LinearSmallStrainFEMForceFieldComponent::Spec() {
  return ComponentSpec{.name = "LinearSmallStrainFEMForceField",
                       .kind = ComponentKind::kForceField,
                       .summary =
                           "Linear elastic tetrahedra or hexahedra, small displacements "
                           "(SOFA's element FEM)",
                       .fields = SharedFields(),
                       .aliases = {}};
}

void LinearSmallStrainFEMForceFieldComponent::Build(BuildContext& context) {
  BuildElementFem(context, true);
}

}  // namespace fluxion::internal
