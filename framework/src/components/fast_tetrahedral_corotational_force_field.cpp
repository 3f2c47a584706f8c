#include "components/fast_tetrahedral_corotational_force_field.h"

#include <memory>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/element_topology.h"
#include "mechanics/tetrahedron_fem.h"

namespace fluxion::internal {

ComponentSpec FastTetrahedralCorotationalForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "FastTetrahedralCorotationalForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Linear elastic tetrahedra, corotational (qr, polar, polar2) or linear (none): "
          "TetrahedronFEMForceField's element",
      .fields = {YoungModulusField("tetrahedron"), PoissonRatioField("tetrahedron"),
                 FieldSpec::Choice("method", "qr",
                                   {"qr", "large", "polar", "polar2", "none", "linear", "small"},
                                   "qr/large: frame of the first edges; polar: polar factor of the "
                                   "deformation gradient; polar2: polar factor of the edge matrix; "
                                   "none/linear/small: no rotation"),
                 FieldSpec::Bool("drawing", true, "SOFA drawing option: accepted, no effect"),
                 FieldSpec::Text("drawColor1", "", "SOFA drawing option: accepted, no effect"),
                 FieldSpec::Text("drawColor2", "", "SOFA drawing option: accepted, no effect"),
                 FieldSpec::Text("drawColor3", "", "SOFA drawing option: accepted, no effect"),
                 FieldSpec::Text("drawColor4", "", "SOFA drawing option: accepted, no effect"),
                 FieldSpec::Link(
                     "topology",
                     "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      .aliases = {}};
}

void FastTetrahedralCorotationalForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string& name = p.text("method");
  const TetrahedronFemMethod method = name == "polar"    ? TetrahedronFemMethod::kGradientPolar
                                      : name == "polar2" ? TetrahedronFemMethod::kPolar
                                      : (name == "qr" || name == "large")
                                          ? TetrahedronFemMethod::kLarge
                                          : TetrahedronFemMethod::kSmall;
  if (!CheckElasticMaterial(context, "tetrahedron")) return;
  const std::shared_ptr<const Topology> topology =
      ElementTopology(context, object, &Topology::tetrahedra, "tetrahedra",
                      "No tetrahedra found in linked Topology.");
  if (!topology) return;  // reported
  const auto& tetrahedra = topology->tetrahedra;
  std::vector<double> young(tetrahedra.size()), poisson(tetrahedra.size());
  for (std::size_t t = 0; t < tetrahedra.size(); ++t) {
    young[t] = InElement(p.reals("youngModulus"), t);
    poisson[t] = InElement(p.reals("poissonRatio"), t);
  }
  std::vector<TetrahedronFem::Element> elements;
  const long degenerate = TetrahedronFem::RestElements(method, tetrahedra, object.rest_position,
                                                       object.offset, young, poisson, elements);
  if (degenerate >= 0) {
    const auto& tet = tetrahedra[static_cast<std::size_t>(degenerate)];
    context.Error(context.type() + ": tetrahedron " + std::to_string(degenerate) + " (" +
                  std::to_string(tet[0]) + " " + std::to_string(tet[1]) + " " +
                  std::to_string(tet[2]) + " " + std::to_string(tet[3]) +
                  ") has zero rest volume (expected four points not in one plane)");
    return;
  }
  context.AddForceField(object,
                        std::make_unique<TetrahedronFem>(method, false, std::move(elements)));
}

}  // namespace fluxion::internal
