#include "components/spring_components.h"

#include <string>

namespace fluxion::internal {

std::vector<FieldSpec> SpringLinkFields() {
  return {
      FieldSpec::Link("object1", "the object holding the first end of each spring (default @./)"),
      FieldSpec::Link("object2", "the object holding the second end of each spring (default @./)"),
      FieldSpec::Bool("exactDampingJacobian", false,
                      "Fluxion extension: also provide the dashpots' velocity Jacobian B to "
                      "implicit solvers (SOFA treats kd explicitly)")};
}

SpringEnds ResolveSpringEnds(BuildContext& context) {
  SpringEnds ends;
  ends.first = context.LinkedObject("object1");
  ends.second = context.LinkedObject("object2");
  if (ends.first == nullptr || ends.second == nullptr) return ends;
  const ObjectModel& a = *ends.first;
  const ObjectModel& b = *ends.second;
  if (a.dimension != b.dimension) {
    context.Error("<" + context.type() + "> links '" + a.id + "' (Vec" +
                  std::to_string(a.dimension) + ") and '" + b.id + "' (Vec" +
                  std::to_string(b.dimension) + ") (expected objects of the same template)");
    return ends;
  }
  if (a.system != b.system) {
    context.Error("<" + context.type() + "> links '" + a.id + "' and '" + b.id +
                  "', which are integrated by different solvers (expected both under "
                  "one solver node)");
    return ends;
  }
  if (&a != &b && (a.mapped_from >= 0 || b.mapped_from >= 0)) {
    context.Error("<" + context.type() + "> links '" + a.id + "' and '" + b.id +
                  "', and one of them is a mapped object (expected both ends in one object, "
                  "or two objects that are not mapped: springs across a mapping are not "
                  "supported)");
    return ends;
  }
  ends.usable = a.system >= 0;  // springs between static objects do nothing
  return ends;
}

std::vector<FieldSpec> ElementSpringFields(const char* kind, double default_stiffness,
                                           double default_damping, const char* alias) {
  const std::string name = kind;
  FieldSpec stiffness =
      FieldSpec::Real(name + "Stiffness", default_stiffness,
                      "stiffness of the springs of " + name + " (divided by L0) [N]")
          .AtLeast(0);
  FieldSpec damping =
      FieldSpec::Real(name + "Damping", default_damping,
                      "damping of the springs of " + name + " (divided by L0) [N·s]")
          .AtLeast(0);
  if (alias != nullptr) {
    stiffness.Alias(std::string(alias) + "Stiffness");
    damping.Alias(std::string(alias) + "Damping");
  }
  return {stiffness, damping};
}

}  // namespace fluxion::internal
