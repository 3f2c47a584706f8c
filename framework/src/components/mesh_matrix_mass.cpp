#include "components/mesh_matrix_mass.h"

#include "components/point_mass.h"
#include "components/topology_mass.h"

namespace fluxion::internal {

ComponentSpec MeshMatrixMassComponent::Spec() {
  ComponentSpec spec{.name = "MeshMatrixMass",
                     .kind = ComponentKind::kMass,
                     .summary = "The mass of a mesh's linear elements, lumped (lumping=1)",
                     .fields = TopologyMassFields(),
                     .aliases = {}};
  spec.fields.push_back(FieldSpec::Bool(
      "lumping", false, "lump the mass matrix onto its diagonal (only supported as 1 for now)"));
  spec.fields.push_back(FieldSpec::RealList("edgeMass", "SOFA's consistent-mass output: unused"));
  spec.fields.push_back(FieldSpec::Bool("printMass", false, "SOFA option, ignored"));
  return spec;
}

void MeshMatrixMassComponent::Build(BuildContext& context) {
  if (!context.parameters().flag("lumping")) {
    context.Error(
        "MeshMatrixMass with lumping=0 (a consistent mass) is not supported yet (expected "
        "lumping=\"1\")");
    return;
  }
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  std::vector<double> masses;
  if (!TopologyMasses(context, *object, masses)) return;
  ApplyPointMasses(context, *object, masses);
}

}  // namespace fluxion::internal
