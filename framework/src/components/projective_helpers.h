// Helpers shared by the projective constraints that act on chosen points with a direction, a
// point or a motion (plane, line, point, fixed plane, linear and affine movements).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fluxion/component.h"
#include "fluxion/projective_constraint.h"
#include "mechanics/point_list_follower.h"

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

/// SOFA's prescribed motion from each point's initial position x₀ to a final position x_f over
/// [begin, end] (AffineMovementProjectiveConstraint, PatchTestMovementProjectiveConstraint):
/// for begin < t ≤ end, x = ((x_f − x₀)·t + x₀·end − x_f·begin)/(end − begin) (SOFA's order of
/// operations); for t > end, x = x_f; before, positions are left as they are. Velocities are set
/// to zero at every time and the points are always held (SOFA's projectVelocity and
/// projectResponse clear them; the system's rows and columns too: projectMatrix).
/// A removal of points (build/topology_in_place.h) drops a removed point's entry with its x₀ and
/// x_f and renames the moved last point, its own x₀ and x_f going with it: what the rebuild
/// gives (its start taken from the renumbered initial positions). SOFA's x0 and xf are indexed
/// by point number and not renumbered, so SOFA gives a constrained point moved into a removed
/// one's slot what it stored for that number: the removed point's x₀ and x_f when it was
/// constrained, zero otherwise (docs/architecture.md, "Topological changes").
class InterpolatedMovement final : public ProjectiveConstraint, public PointListFollower {
 public:
  /// `initial` and `final_positions`: point-major, `dimension` values per point of `points`.
  InterpolatedMovement(std::vector<Index> points, int dimension, std::vector<double> initial,
                       std::vector<double> final_positions, double begin, double end);
  void ProjectPosition(double time, std::span<double> x) const override;
  void ProjectVelocity(double time, std::span<double> v) const override;
  void RemovePointMovingLast(Index point, Index last) override;

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> initial_, final_;
  double begin_, end_;
};

/// The positions of `points` of `object` at build time (SOFA's x0, taken at the first
/// projectPosition, which is the initial state), point-major, dimension values per point.
std::vector<double> InitialPositions(const ObjectModel& object, const std::vector<Index>& points);

}  // namespace fluxion::internal
