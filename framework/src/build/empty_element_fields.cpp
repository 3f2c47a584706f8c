// Element fields built without elements on an empty container (see the header).
#include "build/empty_element_fields.h"

#include <cmath>
#include <utility>

#include "mechanics/simple_force_fields.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/triangle_fem.h"

namespace fluxion::internal {

namespace {

// E > 0 and −1 < ν < 1/2 given as one number each (the additions read them so), nothing per
// element.
bool OneMaterial(const Parameters& p) {
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  if (young.size() != 1 || poisson.size() != 1) return false;
  if (!(young[0] > 0.0) || !std::isfinite(young[0]) || !(poisson[0] > -1.0) || !(poisson[0] < 0.5))
    return false;
  for (const char* per_element :
       {"rotatedInitialElements", "initialTransformation", "localStiffnessFactor", "initialPoints"})
    if (p.has(per_element) && p.has_value(per_element) && !p.reals(per_element).empty())
      return false;
  return !(p.has("topology") && !p.text("topology").empty());
}

}  // namespace

bool BuildEmptyElementField(BuildContext& context, const std::string& type,
                            const ElementDescription& element, const ObjectModel& object,
                            std::shared_ptr<const Topology> topology) {
  if (type == "EdgePressureForceField") {
    // As components/edge_pressure_force_field.cpp makes its constant form: pressure·L₀/2 on each
    // end of each selected edge — here none yet, its edges a link the builds read again.
    const Parameters& p = context.parameters();
    const std::vector<double>& pressure = p.reals("pressure");
    const AttributeText* edges = element.Find("edges");
    const bool linked = edges != nullptr && edges->value.starts_with("@");
    if (object.dimension != 3 || pressure.size() != 3 ||
        (pressure[0] == 0 && pressure[1] == 0 && pressure[2] == 0) || !linked ||
        p.has("edgeIndices") || p.real("dmin") != p.real("dmax") ||
        (p.has("topology") && !p.text("topology").empty()))
      return false;
    context.AddForceField(
        object, std::make_unique<ConstantForce>(std::vector<Index>{}, std::vector<double>{}));
    return true;
  }
  const bool triangles =
      type == "TriangularFEMForceField" || type == "TriangularFEMForceFieldOptim";
  const bool tetrahedra =
      type == "TetrahedralCorotationalFEMForceField" || type == "TetrahedronFEMForceField";
  if ((!triangles && !tetrahedra) || object.dimension != 3) return false;
  const Parameters& p = context.parameters();
  if (!OneMaterial(p)) return false;
  if (type == "TriangularFEMForceField") {
    // As TriangularFEMForceFieldComponent::Build makes it
    // (components/triangle_fem_force_field.cpp).
    const TriangleFemMethod method =
        p.text("method") == "small" ? TriangleFemMethod::kSmall : TriangleFemMethod::kLarge;
    auto field = std::make_unique<TriangleFem>(method, TriangleFemGradients::kCurrent,
                                               std::vector<TriangleFem::Element>{});
    field->PublishVonMises(std::move(topology));
    context.AddForceField(object, std::move(field));
    return true;
  }
  if (type == "TriangularFEMForceFieldOptim") {
    auto field =
        std::make_unique<TriangleFem>(TriangleFemMethod::kLarge, TriangleFemGradients::kRest,
                                      std::vector<TriangleFem::Element>{});
    field->PublishVonMises(std::move(topology));
    context.AddForceField(object, std::move(field));
    return true;
  }
  // As components/tetrahedron_fem_force_field.cpp's BuildTetrahedronFem makes them; its checks
  // that need no element (plasticity, computeGlobalMatrix with polar or svd, von Mises with small)
  // leave the component unbuilt here, for its own build to report once it has elements.
  const std::string& name = p.text("method");
  const TetrahedronFemMethod method = name == "small"   ? TetrahedronFemMethod::kSmall
                                      : name == "polar" ? TetrahedronFemMethod::kPolar
                                      : name == "svd"   ? TetrahedronFemMethod::kSvd
                                                        : TetrahedronFemMethod::kLarge;
  const bool fem = type == "TetrahedronFEMForceField";
  const long von_mises =
      fem ? p.integer("computeVonMisesStress") : (p.flag("computeVonMisesStress") ? 1 : 0);
  if ((fem && p.has_value("plasticMaxThreshold") && p.real("plasticMaxThreshold") > 0.0) ||
      (fem && von_mises == 1 && method == TetrahedronFemMethod::kSmall) ||
      (p.flag("computeGlobalMatrix") &&
       (method == TetrahedronFemMethod::kPolar || method == TetrahedronFemMethod::kSvd)))
    return false;
  auto field = std::make_unique<TetrahedronFem>(method, p.flag("updateStiffnessMatrix"),
                                                std::vector<TetrahedronFem::Element>{},
                                                static_cast<int>(von_mises));
  field->PublishVonMises(std::move(topology));
  context.AddForceField(object, std::move(field));
  return true;
}

}  // namespace fluxion::internal
