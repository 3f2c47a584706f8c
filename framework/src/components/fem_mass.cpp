#include "components/fem_mass.h"

#include <array>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "components/element_template.h"
#include "components/element_topology.h"
#include "components/nodal_mass_density.h"
#include "components/point_mass.h"
#include "mechanics/element_mass.h"

namespace fluxion::internal {

ComponentSpec FEMMassComponent::Spec() {
  return ComponentSpec{
      .name = "FEMMass",
      .kind = ComponentKind::kMass,
      .summary =
          "Consistent finite-element mass of tetrahedra or hexahedra from a "
          "NodalMassDensity",
      .fields = {ElementTemplateField(),
                 FieldSpec::Link("nodalMassDensity",
                                 "the NodalMassDensity, \"@name\" (default: the first of the "
                                 "node or its nearest ancestor)"),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@grid\" (default: "
                                 "the node's)")},
      .aliases = {}};
}

namespace {

// The NodalMassDensity's `property`; null after reporting.
std::optional<std::vector<double>> Densities(BuildContext& context) {
  std::string name = context.parameters().text("nodalMassDensity");
  if (!name.empty() && name.front() == '@') name.erase(0, 1);
  if (name.find_first_of("/.") != std::string::npos) {
    context.Error(context.type() + " 'nodalMassDensity' link \"" +
                  context.parameters().text("nodalMassDensity") +
                  "\" is not supported (expected \"@name\" of a NodalMassDensity in this node "
                  "or above)");
    return std::nullopt;
  }
  const std::optional<FieldValue> property =
      context.ContextOutput("NodalMassDensity", name, "property");
  if (!property || !std::holds_alternative<std::vector<double>>(*property)) {
    context.Error(context.type() + " needs a NodalMassDensity" +
                  (name.empty() ? std::string() : " named '" + name + "'") + " in node '" +
                  context.node_path() +
                  "' or above (SOFA's \"No nodal mass density component found\")");
    return std::nullopt;
  }
  return std::get<std::vector<double>>(*property);
}

// Adds the element matrices of `elements` (N vertices each, `Mass` their N×N matrix) to the
// object's mass: diagonal, pair couplings, and the row sums as the weight.
template <std::size_t N, class MassMatrix>
void AddElementMasses(BuildContext& context, const ObjectModel& object,
                      const std::vector<std::array<Index, N>>& elements,
                      const std::vector<double>& density, MassMatrix&& mass_matrix) {
  const auto n = static_cast<std::size_t>(object.num_points);
  std::vector<double> diagonal(n, 0.0), row_sum(n, 0.0);
  std::array<Eigen::Vector3d, N> X;
  std::array<double, N> rho;
  for (const auto& element : elements) {
    for (std::size_t a = 0; a < N; ++a) {
      X[a] = object.rest_position.segment<3>(3 * element[a]);
      rho[a] = NodalProperty(density, static_cast<std::size_t>(element[a]));
    }
    const auto M = mass_matrix(X, rho);
    for (std::size_t a = 0; a < N; ++a) {
      const auto point = static_cast<std::size_t>(element[a]);
      const auto i = static_cast<Eigen::Index>(a);
      diagonal[point] += M(i, i);
      for (std::size_t b = 0; b < N; ++b) {
        const auto j = static_cast<Eigen::Index>(b);
        row_sum[point] += M(i, j);
        // Each unordered pair once: AddMassCoupling fills M(a, b) and M(b, a).
        if (b > a && element[a] != element[b])
          context.AddMassCoupling(object, element[a], element[b], M(i, j));
      }
    }
  }
  context.SetPointMass(object, diagonal);
  AddWeight(context, object, row_sum);
}

}  // namespace

void FEMMassComponent::Build(BuildContext& context) {
  const std::optional<ElementShape> shape = ElementShapeOf(context);
  if (!shape) return;
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const std::optional<std::vector<double>> density = Densities(context);
  if (!density) return;
  if (*shape == ElementShape::kTetrahedron) {
    const auto topology = ElementTopology(context, object, &Topology::tetrahedra, "tetrahedra",
                                          "no tetrahedra in the topology");
    if (!topology || object.system < 0) return;
    AddElementMasses(context, object, topology->tetrahedra, *density, &TetrahedronMassMatrix);
  } else {
    const auto topology = ElementTopology(context, object, &Topology::hexahedra, "hexahedra",
                                          "no hexahedra in the topology");
    if (!topology || object.system < 0) return;
    AddElementMasses(context, object, topology->hexahedra, *density, &HexahedronMassMatrix);
  }
}

}  // namespace fluxion::internal
