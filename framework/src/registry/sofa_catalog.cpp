#include "registry/sofa_catalog.h"

#include <algorithm>
#include <iterator>

namespace fluxion::internal {

namespace {

constexpr SofaComponent kSofaComponents[] = {
#include "registry/sofa_catalog.inc"
};

}  // namespace

const SofaComponent* FindSofaComponent(std::string_view name) {
  const auto found = std::lower_bound(
      std::begin(kSofaComponents), std::end(kSofaComponents), name,
      [](const SofaComponent& entry, std::string_view key) { return entry.name < key; });
  return found != std::end(kSofaComponents) && found->name == name ? found : nullptr;
}

const char* RetiredSofaComponent(std::string_view name) {
  // SOFA's implicit Euler with its own conjugate gradient, before the ODE and linear solvers were
  // separated (examples/Component/Topology/... and Tutorials/Topologies still write it).
  static constexpr const char* kCgImplicit =
      "SOFA's old implicit Euler with its own conjugate gradient: write EulerImplicitSolver with "
      "a CGLinearSolver";
  struct Retired {
    std::string_view name;
    const char* replacement;
  };
  // An early SOFA projective constraint (added in SOFA's svn r365, gone from the factory long
  // before ComponentChange.cpp began recording renames): examples/Component/Constraint/
  // Projective/PlaneConstraint.scn still writes it, and SOFA loads that scene without it, after
  // an error that it cannot create the object.
  static constexpr const char* kPlaneConstraint =
      "SOFA has no component of this name either, and skips it with an error: for points kept "
      "on a plane write PlaneProjectiveConstraint, for points near a plane held in its normal "
      "direction FixedPlaneProjectiveConstraint";
  static constexpr Retired kRetired[] = {{"CGImplicit", kCgImplicit},
                                         {"CGImplicitSolver", kCgImplicit},
                                         {"PlaneConstraint", kPlaneConstraint}};
  for (const Retired& retired : kRetired)
    if (retired.name == name) return retired.replacement;
  return nullptr;
}

}  // namespace fluxion::internal
