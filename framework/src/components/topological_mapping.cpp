#include "components/topological_mapping.h"

#include "mechanics/topology_elements.h"

namespace fluxion::internal {

ComponentSpec TopologicalMappingSpec(std::string name, std::string summary) {
  return ComponentSpec{
      .name = std::move(name),
      .kind = ComponentKind::kTopologicalMapping,
      .summary = std::move(summary),
      .fields = {FieldSpec::Link("input", "the input topology, e.g. input=\"@../Container\""),
                 FieldSpec::Link("output", "the container filled, e.g. output=\"@Container\"")},
      .aliases = {}};
}

namespace {

bool Linked(BuildContext& context, const char* field, const char* example) {
  const Parameters& p = context.parameters();
  if (p.has(field) && p.text(field).find_first_not_of(" \t\r\n") != std::string::npos) return true;
  context.Error(context.type() + " '" + field + "' is empty (expected a link to a topology, e.g. " +
                field + "=\"" + example + "\")");
  return false;
}

}  // namespace

bool RequireInputElements(BuildContext& context, std::size_t count, const char* what) {
  if (count > 0) return true;
  context.Error(context.type() + " 'input' = '" + context.parameters().text("input") + "' has no " +
                what + " (expected a topology with " + what + ")");
  return false;
}

void BuildTopologicalMapping(BuildContext& context, MappingRule rule) {
  if (!Linked(context, "input", "@../Container") || !Linked(context, "output", "@Container"))
    return;
  const std::shared_ptr<const Topology> input = context.LinkedTopology("input");
  if (!input) return;
  // An input without any element (a dynamic container its TopologicalChangeProcessor fills
  // later: SOFA's Adding*Process examples) gives an empty output, as SOFA's init does.
  const bool no_elements = input->edges.empty() && input->triangles.empty() &&
                           input->quads.empty() && input->tetrahedra.empty() &&
                           input->hexahedra.empty();
  std::optional<Topology> output = no_elements ? Topology{} : rule(context, *input);
  if (!output) return;
  // SOFA sets the output's number of points to the input's: the same points, shared.
  output->points = input->points;
  CompleteTopology(*output);
  context.SetLinkedTopology("output", std::move(*output));
}

}  // namespace fluxion::internal
