#include "components/topological_change_processor.h"

namespace fluxion::internal {

ComponentSpec TopologicalChangeProcessorComponent::Spec() {
  const auto list = [](const char* name, const char* what) {
    return FieldSpec::IndexList(
        name, std::string("with useDataInputs: the ") + what + " to remove at timeToRemove");
  };
  return ComponentSpec{
      .name = "TopologicalChangeProcessor",
      // Built with the observers (its links are resolved then), read by the builder.
      .kind = ComponentKind::kObserver,
      .summary =
          "Removes and adds elements of its node's dynamic topology (edges, triangles, "
          "quads, tetrahedra or hexahedra) while the scene runs, at the times its file gives "
          "(REMOVE= and ADD= lines) or at timeToRemove (useDataInputs): the object's "
          "points, masses, springs, elements, constrained indices and the topologies "
          "mapped from it follow, renumbered as SOFA's modifiers and mappings do",
      .fields = {FieldSpec::Text("filename", "",
                                 "the file of timed changes (T= time, then REMOVE= count and a "
                                 "line of element indices, or ADD= Triangles count and a line "
                                 "of their vertices)"),
                 FieldSpec::IndexList("listChanges",
                                      "SOFA data that SOFA never reads: "
                                      "only supported empty"),
                 FieldSpec::Real("interval", 0.0,
                                 "with useDataInputs: time between two removals (0: once)")
                     .AtLeast(0),
                 FieldSpec::Real("shift", 0.0, "added to the time before the file is read"),
                 FieldSpec::Bool("loop", false, "read the file again from its start at its end"),
                 FieldSpec::Bool("useDataInputs", false,
                                 "remove the elements of the lists below instead of the file's"),
                 FieldSpec::Real("timeToRemove", 0.0,
                                 "with useDataInputs: the lists are removed at the first step "
                                 "that starts after this time"),
                 list("pointsToRemove", "points"), list("edgesToRemove", "edges"),
                 list("trianglesToRemove", "triangles"), list("quadsToRemove", "quads"),
                 list("tetrahedraToRemove", "tetrahedra"), list("hexahedraToRemove", "hexahedra"),
                 FieldSpec::Bool("saveIndicesAtInit", false, "incisions only: only supported 0"),
                 FieldSpec::Real("epsilonSnapPath", 0.1, "incisions only: no effect on removals"),
                 FieldSpec::Real("epsilonSnapBorder", 0.25,
                                 "incisions only: no effect on removals"),
                 FieldSpec::Bool("draw", false, "drawing option: no effect"),
                 FieldSpec::Link("topology",
                                 "the topology container (default: the node's; only "
                                 "the node's is supported)")},
      .aliases = {}};
}

void TopologicalChangeProcessorComponent::Build(BuildContext& /*context*/) {}

}  // namespace fluxion::internal
