// Helpers shared by the projective constraints that act on chosen points with a direction, a
// point or a motion (plane, line, point, fixed plane, linear and affine movements).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The points listed in `field`, each checked against `object` (an error is reported for each one
/// out of range, which is then left out).
std::vector<Index> ListedPoints(BuildContext& context, const ObjectModel& object,
                                const char* field);

/// The first `object.dimension` numbers of the vector field `field`; false after reporting
/// "<Type> 'field' has N numbers (expected D)" when it has fewer.
bool ReadVector(BuildContext& context, const ObjectModel& object, const char* field,
                std::vector<double>& vector);

/// Euclidean norm.
double Norm(std::span<const double> vector);

/// The positions of `points` of `object` at build time (SOFA's x0, taken at the first
/// projectPosition, which is the initial state), point-major, dimension values per point.
std::vector<double> InitialPositions(const ObjectModel& object, const std::vector<Index>& points);

}  // namespace fluxion::internal
