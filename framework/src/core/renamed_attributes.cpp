#include "core/renamed_attributes.h"

#include <array>

namespace fluxion::internal {

namespace {

// What SOFA did with an attribute.
enum class Change {
  kRenamed,  ///< same component, new name
  kMoved,    ///< now an attribute of another component of the node
  kUnused,   ///< SOFA ignores it (with a warning): remove it
};

struct RenamedAttribute {
  std::string_view component;  ///< Fluxion's registered name of the component
  std::string_view old_name;
  Change change;
  std::string_view new_name;  ///< kRenamed: the new attribute; kMoved: "Component.attribute"
  std::string_view when;      ///< the SOFA release and pull request that made the change
};

// Read from SOFA's source: the parse() warnings of DiagonalMass and UniformMass (PR #637, data
// names unified in 2018) and StaticSolver's deprecated Newton data (PR #5382: the Newton
// settings moved to NewtonRaphsonSolver; the new names are the ones with the old help's
// meaning, e.g. |R|/|R0| is relativeInitialStoppingThreshold). SOFA's other renames among the
// components Fluxion supports are still accepted by SOFA as aliases (CGLinearSolver's
// 'verbose', collision models' 'proximity', VolumeFromTriangles' 'positions', PCGLinearSolver's
// 'update_step'), and Fluxion accepts them too: they need no hint.
constexpr std::array kRenamed{
    RenamedAttribute{"UniformMass", "mass", Change::kRenamed, "vertexMass", "v18.06, PR #637"},
    RenamedAttribute{"UniformMass", "totalmass", Change::kRenamed, "totalMass", "v18.06, PR #637"},
    RenamedAttribute{"DiagonalMass", "mass", Change::kRenamed, "vertexMass", "v18.06, PR #637"},
    RenamedAttribute{"StaticSolver", "newton_iterations", Change::kMoved,
                     "NewtonRaphsonSolver.maxNbIterationsNewton", "v25.06, PR #5382"},
    RenamedAttribute{"StaticSolver", "absolute_correction_tolerance_threshold", Change::kMoved,
                     "NewtonRaphsonSolver.absoluteEstimateDifferenceThreshold", "v25.06, PR #5382"},
    RenamedAttribute{"StaticSolver", "relative_correction_tolerance_threshold", Change::kMoved,
                     "NewtonRaphsonSolver.relativeEstimateDifferenceThreshold", "v25.06, PR #5382"},
    RenamedAttribute{"StaticSolver", "absolute_residual_tolerance_threshold", Change::kMoved,
                     "NewtonRaphsonSolver.absoluteResidualStoppingThreshold", "v25.06, PR #5382"},
    RenamedAttribute{"StaticSolver", "relative_residual_tolerance_threshold", Change::kMoved,
                     "NewtonRaphsonSolver.relativeInitialStoppingThreshold", "v25.06, PR #5382"},
    RenamedAttribute{"StaticSolver", "should_diverge_when_residual_is_growing", Change::kUnused, "",
                     "v25.06, PR #5382"},
};

}  // namespace

std::string RenamedAttributeHint(std::string_view component, std::string_view attribute) {
  for (const RenamedAttribute& entry : kRenamed) {
    if (entry.component != component || entry.old_name != attribute) continue;
    const std::string when = " (" + std::string(entry.when) + ")";
    switch (entry.change) {
      case Change::kRenamed:
        return "SOFA renamed it '" + std::string(entry.new_name) + "'" + when;
      case Change::kMoved: {
        const std::string_view target = entry.new_name.substr(0, entry.new_name.find('.'));
        const std::string_view field = entry.new_name.substr(entry.new_name.find('.') + 1);
        return "SOFA moved it to " + std::string(target) + ": write " + std::string(field) +
               "=\"…\" on a <" + std::string(target) + "> in the same node" + when;
      }
      case Change::kUnused:
        return "SOFA no longer uses it: remove it" + when;
    }
  }
  return {};
}

}  // namespace fluxion::internal
