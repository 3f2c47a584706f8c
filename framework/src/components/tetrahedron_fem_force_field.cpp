#include "components/tetrahedron_fem_force_field.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "components/element_material.h"
#include "components/element_topology.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec TetrahedronFEMForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TetrahedronFEMForceField",
      .kind = ComponentKind::kForceField,
      .summary =
          "Linear elastic tetrahedra, small displacements or corotational (large, polar, "
          "svd)",
      .fields =
          {YoungModulusField("tetrahedron"), PoissonRatioField("tetrahedron"),
           FieldSpec::Choice("method", "large", {"small", "large", "polar", "svd"},
                             "small: linear (no rotation); large: corotational, frame of the "
                             "first edges; polar: polar decomposition; svd: polar, with a "
                             "rotation-only SVD for inverted elements"),
           FieldSpec::RealList("localStiffnessFactor",
                               "factors of E per element: with M values for N tetrahedra, "
                               "element i uses value i·M/N"),
           FieldSpec::Bool("updateStiffnessMatrix", false,
                           "rebuild the strain-displacement matrix from the current element "
                           "(corotational methods)"),
           FieldSpec::Bool("computeGlobalMatrix", false,
                           "SOFA's assembled force path for small/large (same force); not "
                           "available with polar/svd, as in SOFA")
               .Alias("assembling"),
           FieldSpec::Real("plasticMaxThreshold", 0.0, "plasticity: only 0 (none) is supported"),
           FieldSpec::Real("plasticYieldThreshold", 0.0001,
                           "plasticity yield threshold (no effect without plasticity)"),
           FieldSpec::Real("plasticCreep", 0.9,
                           "plasticity creep factor (no effect without plasticity)"),
           FieldSpec::Integer("computeVonMisesStress", 0,
                              "von Mises stress per element for output: 0 none, 1 corotational "
                              "strain (not with small), 2 Green strain")
               .AtLeast(0)
               .AtMost(2),
           FieldSpec::Bool("updateStiffness", false,
                           "SOFA re-reads youngModulus every step; Fluxion's fields do not change "
                           "during a run: no effect"),
           FieldSpec::RealList("initialPoints",
                               "ignored, as in SOFA (the object's rest positions are used)"),
           FieldSpec::Text("gatherPt", "", "GPU option, ignored (as SOFA's CPU version does)"),
           FieldSpec::Text("gatherBsize", "", "GPU option, ignored (as SOFA's CPU version does)"),
           FieldSpec::Link("topology",
                           "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      .aliases = {}};
}

namespace {

TetrahedronFemMethod MethodNamed(const std::string& name) {
  if (name == "small") return TetrahedronFemMethod::kSmall;
  if (name == "polar") return TetrahedronFemMethod::kPolar;
  if (name == "svd") return TetrahedronFemMethod::kSvd;
  return TetrahedronFemMethod::kLarge;
}

// SOFA's TetrahedronFEMForceField on a topology with hexahedra and no tetrahedra (a grid): six
// tetrahedra per hexahedron, cut as its init does (mechanics/topology_elements.h), with the
// grid's cells per row and layer (SOFA's 2 and 1 for a topology that is not a grid). Null when
// `source` has tetrahedra or no hexahedra.
std::shared_ptr<const Topology> HexahedraCutIntoTetrahedra(const Topology* source) {
  if (source == nullptr || !source->tetrahedra.empty() || source->hexahedra.empty()) return nullptr;
  Index nx = 2, ny = 1;
  if (source->grid_size[0] > 0) {
    nx = std::max<Index>(1, source->grid_size[0] - 1);
    ny = std::max<Index>(1, source->grid_size[1] - 1);
  }
  auto cut = std::make_shared<Topology>();
  cut->tetrahedra = SplitHexahedraAsTetrahedronFem(source->hexahedra, nx, ny);
  return cut;
}

// The build of both components: `von_mises` is 0 (none), 1 (corotational strain) or 2 (Green);
// `tetrahedron_fem_rules`: TetrahedronFEMForceField's own rules — computeVonMisesStress=1 needs
// a corotational method, and hexahedra are cut into tetrahedra
// (TetrahedralCorotationalFEMForceField has neither: with small, its strain is the linear one; it
// reads tetrahedra only).
void BuildTetrahedronFem(BuildContext& context, long von_mises, bool tetrahedron_fem_rules) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const std::string type = context.type();
  const std::string& method_name = p.text("method");
  const TetrahedronFemMethod method = MethodNamed(method_name);
  // Values SOFA replaces or turns into a silent component: errors here.
  if (!CheckElasticMaterial(context, "tetrahedron")) return;
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  if (p.has_value("plasticMaxThreshold") && p.real("plasticMaxThreshold") > 0.0) {
    context.Error(type + " 'plasticMaxThreshold' > 0 (plasticity) is not supported (expected 0)");
    return;
  }
  if (tetrahedron_fem_rules && von_mises == 1 && method == TetrahedronFemMethod::kSmall) {
    context.Error(type +
                  " 'computeVonMisesStress=1' needs a corotational method (expected 2 "
                  "with method=\"small\", as SOFA says)");
    return;
  }
  if (p.flag("computeGlobalMatrix") &&
      (method == TetrahedronFemMethod::kPolar || method == TetrahedronFemMethod::kSvd)) {
    context.Error(type + " 'computeGlobalMatrix' is not available with method=\"" + method_name +
                  "\" (SOFA computes no force then; expected small or large)");
    return;
  }
  bool reported = false;
  std::shared_ptr<const Topology> topology = ComponentTopology(context, object, reported);
  if (reported) return;
  if (tetrahedron_fem_rules)
    if (auto cut = HexahedraCutIntoTetrahedra(topology.get())) topology = std::move(cut);
  topology = CheckedElements(context, object, std::move(topology), &Topology::tetrahedra,
                             "tetrahedra", "object must have a tetrahedric topology");
  if (!topology) return;  // reported
  const auto& tetrahedra = topology->tetrahedra;
  // E and ν per element (SOFA's computeMaterialStiffness, with localStiffnessFactor).
  const std::vector<double>& factor = p.reals("localStiffnessFactor");
  std::vector<double> element_young(tetrahedra.size()), element_poisson(tetrahedra.size());
  for (std::size_t t = 0; t < tetrahedra.size(); ++t) {
    const double scale = factor.empty() ? 1.0 : factor[t * factor.size() / tetrahedra.size()];
    element_young[t] = scale * InElement(young, t);
    element_poisson[t] = InElement(poisson, t);
  }
  std::vector<TetrahedronFem::Element> elements;
  const long degenerate =
      TetrahedronFem::RestElements(method, tetrahedra, object.rest_position, object.offset,
                                   element_young, element_poisson, elements);
  if (degenerate >= 0) {
    const auto& tet = tetrahedra[static_cast<std::size_t>(degenerate)];
    context.Error(type + ": tetrahedron " + std::to_string(degenerate) + " (" +
                  std::to_string(tet[0]) + " " + std::to_string(tet[1]) + " " +
                  std::to_string(tet[2]) + " " + std::to_string(tet[3]) +
                  ") has zero rest volume (expected four points not in one plane)");
    return;
  }
  auto field = std::make_unique<TetrahedronFem>(method, p.flag("updateStiffnessMatrix"),
                                                std::move(elements), int(von_mises));
  field->PublishVonMises(topology);
  context.AddForceField(object, std::move(field));
}

}  // namespace

void TetrahedronFEMForceFieldComponent::Build(BuildContext& context) {
  BuildTetrahedronFem(context, context.parameters().integer("computeVonMisesStress"), true);
}

ComponentSpec TetrahedralCorotationalFEMForceFieldComponent::Spec() {
  ComponentSpec spec = TetrahedronFEMForceFieldComponent::Spec();
  spec.name = "TetrahedralCorotationalFEMForceField";
  spec.summary =
      "Linear elastic tetrahedra, small displacements or corotational (large, polar): "
      "TetrahedronFEMForceField's element";
  std::vector<FieldSpec> fields;
  for (FieldSpec& field : spec.fields) {
    if (field.name == "method") {
      field.choices = {"small", "large", "polar"};
      field.help =
          "small: linear (no rotation); large: corotational, frame of the first edges; polar: "
          "polar decomposition";
    }
    if (field.name == "computeGlobalMatrix") {  // SOFA's alias "assembling" kept
      field.help =
          "SOFA's assembled force path for small/large (same force); not available with "
          "polar, as in SOFA";
    }
    if (field.name == "computeVonMisesStress") {
      fields.push_back(FieldSpec::Bool("computeVonMisesStress", false,
                                       "von Mises stress per element for output (corotational "
                                       "strain; not with small)"));
      continue;
    }
    const bool only_tetrahedron_fem =
        field.name.rfind("plastic", 0) == 0 || field.name == "updateStiffness" ||
        field.name == "initialPoints" || field.name.rfind("gather", 0) == 0;
    if (!only_tetrahedron_fem) fields.push_back(field);
  }
  spec.fields = std::move(fields);
  return spec;
}

void TetrahedralCorotationalFEMForceFieldComponent::Build(BuildContext& context) {
  BuildTetrahedronFem(context, context.parameters().flag("computeVonMisesStress") ? 1 : 0, false);
}

}  // namespace fluxion::internal
