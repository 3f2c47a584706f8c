#include "components/collision_pipeline_components.h"

#include <string>

#include "mechanics/contact_response.h"

namespace fluxion::internal {

namespace {

ComponentSpec PipelineSpec(std::string name, std::string summary, std::vector<FieldSpec> fields,
                           std::vector<std::string> aliases = {}) {
  return ComponentSpec{.name = std::move(name),
                       .kind = ComponentKind::kCollisionPipeline,
                       .summary = std::move(summary),
                       .fields = std::move(fields),
                       .aliases = std::move(aliases)};
}

// BaseProximityIntersection's data (alarmDistance, contactDistance).
std::vector<FieldSpec> ProximityFields(std::vector<FieldSpec> own) {
  std::vector<FieldSpec> fields = {
      FieldSpec::Real("alarmDistance", 1.0,
                      "SOFA: distance below which a pair of elements is tested as a contact [m]"),
      FieldSpec::Real("contactDistance", 0.5,
                      "SOFA: distance the response keeps between contact points [m]")};
  for (FieldSpec& field : own) fields.push_back(std::move(field));
  return fields;
}

// CollisionResponse's data; `response` names the contact class.
std::vector<FieldSpec> ResponseFields() {
  return {FieldSpec::Text("response", kPenaltyResponse,
                          "SOFA: contact response class (Fluxion: PenalityContactForceField, "
                          "also named default)"),
          FieldSpec::Text("responseParams", "",
                          "SOFA: response parameters, name1=value1&name2=value2 (none used by "
                          "the penalty response)")};
}

}  // namespace

std::vector<ComponentSpec> CollisionPipelineComponents::Specs() {
  return {
      PipelineSpec(
          "CollisionPipeline",
          "SOFA's collision pipeline: detection at the start of each step, then the response",
          {FieldSpec::Bool("verbose", false, "SOFA: log the pipeline's phases (info level)"),
           FieldSpec::Bool("draw", false, "SOFA: drawing option (ignored)"),
           FieldSpec::Integer("depth", 6, "SOFA: maximal depth of the bounding trees").AtLeast(0)},
          {"DefaultPipeline"}),
      // The MultiThreading plugin's Parallel… variants find the same pairs and contacts on
      // several threads: Fluxion's detection is parallel and bit-identical for any thread count
      // (docs/contact.md), so they are the same components.
      PipelineSpec("BruteForceBroadPhase", "SOFA's broad phase: every pair of models' boxes", {},
                   {"ParallelBruteForceBroadPhase"}),
      PipelineSpec("BVHNarrowPhase", "SOFA's narrow phase: the models' bounding trees", {},
                   {"ParallelBVHNarrowPhase"}),
      PipelineSpec("BruteForceDetection",
                   "SOFA's old detection: BruteForceBroadPhase and BVHNarrowPhase in one", {}),
      PipelineSpec(
          "MinProximityIntersection", "SOFA's proximity tests with the closest points",
          ProximityFields(
              {FieldSpec::Bool("useSphereTriangle", true, "SOFA: test spheres against triangles"),
               FieldSpec::Bool("usePointPoint", true, "SOFA: test points against points"),
               FieldSpec::Bool("useSurfaceNormals", false, "SOFA: use the surfaces' normals"),
               FieldSpec::Bool("useLinePoint", true, "SOFA: test lines against points"),
               FieldSpec::Bool("useLineLine", true, "SOFA: test lines against lines")})),
      PipelineSpec("NewProximityIntersection", "SOFA's proximity tests, newer variant",
                   ProximityFields(
                       {FieldSpec::Bool("useLineLine", false, "SOFA: test lines against lines")})),
      PipelineSpec(
          "LocalMinDistance", "SOFA's proximity tests filtered by the local geometry",
          ProximityFields(
              {FieldSpec::Bool("filterIntersection", true, "SOFA: filter by the local cones"),
               FieldSpec::Real("angleCone", 0.0, "SOFA: extra angle of the filtering cones [rad]"),
               FieldSpec::Real("coneFactor", 0.5, "SOFA: factor of the filtering cones"),
               FieldSpec::Bool("useLMDFilters", false,
                               "SOFA: filter with its separate LMD filter components (removed "
                               "from SOFA in v21.12): 1 filters nothing")})),
      PipelineSpec("DiscreteIntersection", "SOFA's intersection tests without proximity", {}),
      PipelineSpec("CollisionResponse",
                   "SOFA's contact manager: creates the contact response of each model pair",
                   ResponseFields(), {"DefaultContactManager"}),
      PipelineSpec("RuleBasedContactManager",
                   "SOFA's contact manager with per-group rules (Fluxion: its default response "
                   "for every pair)",
                   [] {
                     std::vector<FieldSpec> fields = ResponseFields();
                     fields.push_back(
                         FieldSpec::Text("rules", "",
                                         "SOFA: rules 'group1 group2 response' (only the default "
                                         "response is supported: refused when set)"));
                     fields.push_back(
                         FieldSpec::Text("variables", "", "SOFA: variables used inside the rules"));
                     return fields;
                   }()),
  };
}

}  // namespace fluxion::internal
