#include "components/identity_multi_mapping.h"

#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "components/mechanical_mapping.h"

namespace fluxion::internal {

ComponentSpec IdentityMultiMappingComponent::Spec() {
  std::vector<FieldSpec> fields = MechanicalMappingFields();
  for (FieldSpec& field : fields) {
    if (field.name != "input") continue;
    field = FieldSpec::Link("input",
                            "the objects concatenated, in order: links separated by spaces, "
                            "e.g. input=\"@../../dof1 @../dof2\" (required)");
  }
  return ComponentSpec{.name = "IdentityMultiMapping",
                       .kind = ComponentKind::kMapping,
                       .summary =
                           "Maps several objects onto one, their points one after another "
                           "(x_out = [x_in1; x_in2; …])",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void IdentityMultiMappingComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  for (const char* flag : {"mapForces", "mapMasses"}) {
    if (!p.flag(flag)) {
      context.Error(context.type() + " '" + flag +
                    "' = 0 is not supported (expected 1: the output's forces and mass act on "
                    "the inputs through the mapping)");
      return;
    }
  }
  if (!p.has("input")) {
    context.Error(context.type() +
                  " needs 'input' (expected the links of the objects it "
                  "concatenates, e.g. input=\"@../../dof1 @../dof2\")");
    return;
  }
  const std::vector<const ObjectModel*> parents = context.LinkedObjects("input");
  const ObjectModel* child = context.LinkedObject("output");
  if (parents.empty() || child == nullptr) return;
  // J: child point (offset_k + j) = point j of input k, on every axis.
  Index rows = 0, columns = 0;
  for (const ObjectModel* parent : parents) {
    if (parent->dimension != child->dimension) {
      context.Error(context.type() + " maps '" + parent->id + "' (Vec" +
                    std::to_string(parent->dimension) + ") onto '" + child->id + "' (Vec" +
                    std::to_string(child->dimension) +
                    ") (expected inputs of the output's template)");
      return;
    }
    rows += parent->num_dofs();
  }
  std::vector<Eigen::Triplet<double, int>> ones;
  ones.reserve(static_cast<std::size_t>(rows));
  for (Index k = 0; k < rows; ++k) ones.emplace_back(static_cast<int>(k), static_cast<int>(k), 1.0);
  columns = rows;
  SparseMatrix jacobian(rows, columns);
  jacobian.setFromTriplets(ones.begin(), ones.end());
  context.MapObjectFromParents(*child, parents, jacobian);
}

}  // namespace fluxion::internal
