#include "components/hexahedron_fem_force_field.h"

#include <memory>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/element_topology.h"
#include "mechanics/hexahedron_fem.h"
#include "mechanics/sparse_grid.h"

namespace fluxion::internal {

ComponentSpec HexahedronFEMForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "HexahedronFEMForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Linear elastic 8-node hexahedra, small displacements or corotational (large, "
          "polar)",
      .fields =
          {YoungModulusField("hexahedron"), PoissonRatioField("hexahedron"),
           FieldSpec::Choice("method", "large", {"large", "polar", "small"},
                             "large: corotational, frame of the mean edges; polar: polar "
                             "decomposition of the mean edges; small: linear (no rotation)"),
           FieldSpec::Bool("updateStiffnessMatrix", false,
                           "rebuild each element's stiffness from its current shape in its frame "
                           "at every evaluation"),
           FieldSpec::RealList("initialPoints",
                               "ignored, as in SOFA (the object's rest positions are used)"),
           FieldSpec::RealList("stiffnessMatrices",
                               "SOFA's output of the element stiffnesses: ignored as an input"),
           FieldSpec::Text("gatherPt", "", "GPU option, ignored (as SOFA's CPU version does)"),
           FieldSpec::Text("gatherBsize", "", "GPU option, ignored (as SOFA's CPU version does)"),
           FieldSpec::Link("topology",
                           "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      // SOFA's MultiThreading plugin: the same element, its elements' forces in parallel.
      .aliases = {"ParallelHexahedronFEMForceField"}};
}

namespace {

HexahedronFemMethod MethodNamed(const std::string& name) {
  if (name == "small") return HexahedronFemMethod::kSmall;
  if (name == "polar") return HexahedronFemMethod::kPolar;
  return HexahedronFemMethod::kLarge;
}

}  // namespace

std::shared_ptr<const Topology> AddHexahedronFem(BuildContext& context, HexahedraCheck check) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return nullptr;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = context.type();
  if (!CheckElasticMaterial(context, "hexahedron")) return nullptr;
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  const std::shared_ptr<const Topology> topology =
      ElementTopology(context, object, &Topology::hexahedra, "hexahedra",
                      "Object must have a hexahedric MeshTopology.");
  if (!topology) return nullptr;  // reported
  const auto& hexahedra = topology->hexahedra;
  if (check != nullptr && !check(context, hexahedra, object.rest_position, object.dimension))
    return nullptr;
  std::vector<double> element_young(hexahedra.size()), element_poisson(hexahedra.size());
  for (std::size_t h = 0; h < hexahedra.size(); ++h) {
    element_young[h] = InElement(young, h);
    element_poisson[h] = InElement(poisson, h);
  }
  // SOFA scales a sparse grid cell's stiffness by its filling (getStiffnessCoef: ½ for a boundary
  // cell with fillWeighted); Kₑ is linear in E, so the coefficient goes on E.
  if (topology->sparse_grid)
    for (std::size_t h = 0; h < hexahedra.size(); ++h)
      element_young[h] *= static_cast<double>(topology->sparse_grid->stiffness_coefficients[h]);
  std::vector<HexahedronFem::Element> elements;
  std::vector<HexahedronFem::Stiffness> stiffnesses;
  const HexahedronFemMethod method = MethodNamed(p.text("method"));
  const long bad =
      HexahedronFem::RestElements(method, hexahedra, object.rest_position, object.offset,
                                  element_young, element_poisson, elements, stiffnesses);
  if (bad >= 0) {
    const auto& hexa = hexahedra[static_cast<std::size_t>(bad)];
    std::string vertices;
    for (const Index v : hexa) vertices += (vertices.empty() ? "" : " ") + std::to_string(v);
    context.Error(type + ": hexahedron " + std::to_string(bad) + " (" + vertices +
                  ") is flat or inverted at rest (expected SOFA's vertex order: 0 1 2 3 "
                  "counterclockwise at the bottom seen from above, 4 5 6 7 above them)");
    return nullptr;
  }
  const bool update = p.has("updateStiffnessMatrix") && p.flag("updateStiffnessMatrix");
  auto field =
      std::make_unique<HexahedronFem>(method, update, std::move(elements), std::move(stiffnesses));
  field->PublishVonMises(topology);  // Fluxion's output (SOFA's component has none)
  context.AddForceField(object, std::move(field));
  return topology;
}

void HexahedronFEMForceFieldComponent::Build(BuildContext& context) { AddHexahedronFem(context); }

}  // namespace fluxion::internal
