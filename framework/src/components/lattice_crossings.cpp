#include "components/lattice_crossings.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>

#include "components/ray_triangle.h"

namespace fluxion::internal {

namespace {

using Vec = Eigen::Vector3d;

// A hit closer than this (in barycentric coordinates) to a triangle's edge is shared with its
// neighbour; such rays are cast again, shifted across the line by kFirstShift cells, then ten
// times more, up to kLastShift.
constexpr double kOnEdge = 1e-9;
constexpr double kFirstShift = 1e-6;
constexpr double kLastShift = 1e-3;

// A unit vector across lines of direction `d`, in no particular alignment with the lattice or
// with usual meshes (irrational ratios).
Vec AcrossDirection(const Vec& d) {
  const Vec generic = Vec(1.0, std::sqrt(2.0), std::sqrt(3.0)).normalized();
  const Vec unit = d.normalized();
  return (generic - generic.dot(unit) * unit).normalized();
}

Vec At(const BccLattice& lattice, Index point) {
  const std::array<double, 3> p = lattice.Position(point);
  return {p[0], p[1], p[2]};
}

// Triangles binned by their shadow on a plane across one line direction: bin (i, j) lists the
// triangles whose projected bounding box, widened by `margin`, meets the square of side `bin`.
class ShadowBins {
 public:
  ShadowBins(const Vec& direction, const std::vector<Vec>& line_starts, double bin) : bin_(bin) {
    u_ = direction.unitOrthogonal();
    v_ = direction.normalized().cross(u_);
    low_ = {HUGE_VAL, HUGE_VAL};
    Eigen::Vector2d high(-HUGE_VAL, -HUGE_VAL);
    for (const Vec& start : line_starts) {
      low_ = low_.cwiseMin(Project(start));
      high = high.cwiseMax(Project(start));
    }
    // One bin of slack on each side, so that rays shifted aside (at most 10⁻³ bin) stay inside.
    low_ -= Eigen::Vector2d(bin_, bin_);
    count_ = {static_cast<Index>((high[0] - low_[0]) / bin_) + 2,
              static_cast<Index>((high[1] - low_[1]) / bin_) + 2};
  }

  Eigen::Vector2d Project(const Vec& p) const { return {p.dot(u_), p.dot(v_)}; }

  // The bins [first, last] (inclusive, per coordinate) the box [low, high] meets; false if none.
  bool Range(const Eigen::Vector2d& low, const Eigen::Vector2d& high, std::array<Index, 2>& first,
             std::array<Index, 2>& last) const {
    for (int k = 0; k < 2; ++k) {
      const double a = std::floor((low[k] - low_[k]) / bin_);
      const double b = std::floor((high[k] - low_[k]) / bin_);
      if (b < 0 || a >= static_cast<double>(count_[k])) return false;
      first[k] = a < 0 ? 0 : static_cast<Index>(a);
      last[k] = std::min(static_cast<Index>(b), count_[k] - 1);
    }
    return true;
  }

  // Sorts the triangles into the bins; false if that would take more than `max_candidates`.
  bool Fill(const std::vector<Vec>& x, const std::vector<std::array<Index, 3>>& triangles,
            double margin, double max_candidates) {
    std::vector<std::pair<std::array<Index, 2>, std::array<Index, 2>>> ranges(triangles.size());
    std::vector<bool> seen(triangles.size(), false);
    double total = 0;
    start_.assign(static_cast<std::size_t>(count_[0] * count_[1]) + 1, 0);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      Eigen::Vector2d low(HUGE_VAL, HUGE_VAL), high(-HUGE_VAL, -HUGE_VAL);
      for (const Index corner : triangles[t]) {
        const Eigen::Vector2d q = Project(x[static_cast<std::size_t>(corner)]);
        low = low.cwiseMin(q);
        high = high.cwiseMax(q);
      }
      auto& [first, last] = ranges[t];
      seen[t] = Range(low.array() - margin, high.array() + margin, first, last);
      if (!seen[t]) continue;
      total += static_cast<double>((last[0] - first[0] + 1) * (last[1] - first[1] + 1));
      if (total > max_candidates) return false;
      for (Index j = first[1]; j <= last[1]; ++j)
        for (Index i = first[0]; i <= last[0]; ++i) ++start_[Slot(i, j) + 1];
    }
    for (std::size_t s = 1; s < start_.size(); ++s) start_[s] += start_[s - 1];
    triangles_.resize(start_.back());
    std::vector<std::size_t> next(start_.begin(), start_.end() - 1);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      if (!seen[t]) continue;
      const auto& [first, last] = ranges[t];
      for (Index j = first[1]; j <= last[1]; ++j)
        for (Index i = first[0]; i <= last[0]; ++i) triangles_[next[Slot(i, j)]++] = t;
    }
    return true;
  }

  // The triangles that may meet the line through `start`, in increasing index order.
  std::pair<const std::size_t*, const std::size_t*> Candidates(const Vec& start) const {
    std::array<Index, 2> first{}, last{};
    const Eigen::Vector2d q = Project(start);
    if (!Range(q, q, first, last)) return {nullptr, nullptr};
    const std::size_t slot = Slot(first[0], first[1]);
    return {triangles_.data() + start_[slot], triangles_.data() + start_[slot + 1]};
  }

 private:
  std::size_t Slot(Index i, Index j) const { return static_cast<std::size_t>(i + count_[0] * j); }

  double bin_;
  Vec u_, v_;
  Eigen::Vector2d low_;
  std::array<Index, 2> count_{};
  std::vector<std::size_t> start_, triangles_;
};

}  // namespace

LatticeCrossings FindCrossings(const BccLattice& lattice, const std::vector<Vec>& x,
                               const std::vector<std::array<Index, 3>>& triangles,
                               double max_candidates) {
  const auto points = static_cast<std::size_t>(lattice.size());
  LatticeCrossings result;
  result.votes.assign(points, 0);
  result.distance.assign(points, {});
  std::vector<Vec> normal;
  for (const auto& t : triangles) {
    const Vec &a = x[static_cast<std::size_t>(t[0])], &b = x[static_cast<std::size_t>(t[1])],
              &c = x[static_cast<std::size_t>(t[2])];
    normal.push_back((b - a).cross(c - a));
  }
  // Widening of the shadows: far above the round-off of projecting coordinates of this size and
  // of the hit test's tolerance (machine epsilon in barycentric coordinates).
  double scale = lattice.cell();
  for (const Vec& p : x) scale = std::max(scale, p.cwiseAbs().maxCoeff());
  scale = std::max(scale, At(lattice, 0).cwiseAbs().maxCoeff());
  scale = std::max(scale, At(lattice, lattice.size() - 1).cwiseAbs().maxCoeff());
  const double margin = 1e-9 * scale;

  // One family of parallel lines per even edge number: each line starts at the point that has no
  // neighbour across edge e+1 and runs along edge e.
  for (int e = 0; e < BccLattice::kEdges; e += 2) {
    std::vector<Index> starts;
    std::vector<Vec> start_positions;
    for (Index p = 0; p < lattice.size(); ++p) {
      if (lattice.Neighbour(p, e) == -1 || lattice.Neighbour(p, e + 1) != -1) continue;
      starts.push_back(p);
      start_positions.push_back(At(lattice, p));
    }
    if (starts.empty()) continue;
    const Vec family = At(lattice, lattice.Neighbour(starts[0], e)) - start_positions[0];
    ShadowBins bins(family, start_positions, lattice.cell());
    if (!bins.Fill(x, triangles, margin, max_candidates)) {
      result.error = "the surface's triangles span too many lattice lines";
      return result;
    }
    std::vector<std::pair<double, int>> hits;  // (t, +1 leaving the surface / −1 entering it)
    // Casts the ray from `origin` + `shift`; false if it passes within kOnEdge (barycentric) of a
    // triangle's edge or vertex, where neighbouring triangles share the crossing (or, by
    // round-off, all miss it). A shifted ray only tells which triangles the line crosses: the
    // crossings are placed where the line itself meets their planes, so on the surface.
    const auto cast = [&](const Vec& origin, const Vec& shift, const Vec& direction) {
      hits.clear();
      bool clean = true;
      const Vec from = origin + shift;
      const auto [begin, end] = bins.Candidates(from);
      for (const std::size_t* t = begin; t != end; ++t) {
        const auto& tri = triangles[*t];
        const Vec &a = x[static_cast<std::size_t>(tri[0])],
                  &b = x[static_cast<std::size_t>(tri[1])],
                  &c = x[static_cast<std::size_t>(tri[2])];
        // Near an edge or a vertex, hit or (by round-off) missed: not clean.
        const std::optional<RayHit> plane = RayPlaneCoordinates(a, b, c, from, direction);
        if (plane && plane->t > 0) {
          const double inside = std::min({plane->u, plane->v, 1 - plane->u - plane->v});
          if (std::abs(inside) < kOnEdge) clean = false;
        }
        const std::optional<RayHit> hit = RayTriangleHit(a, b, c, from, direction);
        if (!hit) continue;
        const Vec& n = normal[*t];
        const double along = n.dot(direction);  // not 0: the ray is not parallel to the triangle
        hits.emplace_back(shift.isZero() ? hit->t : n.dot(a - origin) / along, along < 0 ? -1 : 1);
      }
      return clean;
    };
    const Vec across = AcrossDirection(family);
    for (std::size_t s = 0; s < starts.size(); ++s) {
      const Vec& origin = start_positions[s];
      const Vec direction = At(lattice, lattice.Neighbour(starts[s], e)) - origin;
      // A ray through an edge or a vertex of the surface meets several triangles at one point,
      // with signs that need not add up to one crossing: which triangles it crosses is asked of
      // a ray slightly aside (Fluxion's deviation; SOFA counts every such hit).
      bool clean = cast(origin, Vec::Zero(), direction);
      for (double shift = kFirstShift; !clean && shift <= kLastShift; shift *= 10)
        clean = cast(origin, shift * lattice.cell() * across, direction);
      if (hits.empty()) continue;
      std::stable_sort(hits.begin(), hits.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      const std::size_t n = hits.size();
      // Walk the line: the point at d edge lengths from the start; `i` the first crossing ahead.
      std::size_t i = 0;
      double d = 0;
      for (Index p = starts[s]; p != -1; p = lattice.Neighbour(p, e), d += 1) {
        while (i < n && hits[i].first < d) ++i;
        int& vote = result.votes[static_cast<std::size_t>(p)];
        if (i == n)
          vote -= hits[n - 1].second;  // all behind: outside after leaving
        else if (i == 0)
          vote += hits[0].second;  // all ahead: inside before leaving
        else if (d - hits[i - 1].first < hits[i].first - d)
          vote += hits[i].second;  // SOFA reads the crossing ahead when the one behind is nearer,
        else                       // and the one behind otherwise: on a closed surface they agree
          vote -= hits[i - 1].second;
        auto& distance = result.distance[static_cast<std::size_t>(p)];
        if (i < n) distance[static_cast<std::size_t>(e)] = hits[i].first - d;
        if (i > 0) distance[static_cast<std::size_t>(e + 1)] = d - hits[i - 1].first;
      }
    }
  }
  return result;
}

}  // namespace fluxion::internal
