#include "components/lattice_snapping.h"

#include <set>

namespace fluxion::internal {

int SnapToSurface(const BccLattice& lattice, double alpha_long, double alpha_short,
                  LatticeCrossings& crossings, std::vector<Eigen::Vector3d>& x, int& unsnapped) {
  std::vector<int>& votes = crossings.votes;
  auto& distance = crossings.distance;
  const auto alpha = [&](int edge) { return edge < 6 ? alpha_long : alpha_short; };
  const auto at = [](auto& list, Index p) -> auto& { return list[static_cast<std::size_t>(p)]; };
  // Whether the surface cuts edge e of p within α of p (a distance of 0 is "no cut").
  const auto cut_near = [&](Index p, int e, double a) {
    const double d = at(distance, p)[static_cast<std::size_t>(e)];
    return d != 0.0 && d < a;
  };

  // 1. Violated points, split by side.
  std::vector<char> violated(static_cast<std::size_t>(lattice.size()), 0);  // 1: violated
  std::set<Index> violated_inside, violated_outside;
  for (Index p = 0; p < lattice.size(); ++p) {
    const bool inside = at(votes, p) > 0;
    for (int e = 0; e < BccLattice::kEdges && !at(violated, p); ++e) {
      const Index q = lattice.Neighbour(p, e);
      if (q == -1 || (at(votes, q) > 0) == inside) continue;
      if (cut_near(p, e, alpha(e))) at(violated, p) = true;
    }
    if (at(violated, p)) (inside ? violated_inside : violated_outside).insert(p);
  }

  // Moves p along edge e onto the surface and forgets the cuts from and to it.
  int moved = 0;
  const auto snap = [&](Index p, int e) {
    const Index q = lattice.Neighbour(p, e);
    at(x, p) += (at(x, q) - at(x, p)) * at(distance, p)[static_cast<std::size_t>(e)];
    at(votes, p) = 0;
    at(violated, p) = false;
    ++moved;
  };
  const auto forget_cuts = [&](Index p, int e, Index q) {
    at(distance, p)[static_cast<std::size_t>(e)] = 0;
    if (q != -1) at(distance, q)[static_cast<std::size_t>(e ^ 1)] = 0;
  };
  // The violated edge of p, among those `allowed`, whose cut is nearest in squared length.
  const auto nearest_cut = [&](Index p, auto allowed) {
    int best = -1;
    double best_length2 = 0;
    for (int e = 0; e < BccLattice::kEdges; ++e) {
      const Index q = lattice.Neighbour(p, e);
      if (q == -1 || !allowed(q) || !cut_near(p, e, alpha(e))) continue;
      const double d = at(distance, p)[static_cast<std::size_t>(e)];
      const double length2 = d * d * BccLattice::EdgeLength2(e);
      if (best == -1 || length2 < best_length2) {
        best = e;
        best_length2 = length2;
      }
    }
    return best;
  };

  // 2. Violated outside points towards unviolated outside points, until none moves.
  for (int moves = 1; moves > 0;) {
    moves = 0;
    for (const Index p : violated_outside) {
      if (at(votes, p) == 0) continue;  // already on the surface
      const int e =
          nearest_cut(p, [&](Index q) { return !(at(votes, q) > 0) && !at(violated, q); });
      if (e == -1) continue;
      snap(p, e);
      ++moves;
      for (int f = 0; f < BccLattice::kEdges; ++f) {
        const Index q = lattice.Neighbour(p, f);
        forget_cuts(p, f, q);
        if (q == -1 || !at(violated, q) || !(at(votes, q) > 0)) continue;
        bool still = false;
        for (int g = 0; g < BccLattice::kEdges && !still; ++g) {
          const Index r = lattice.Neighbour(q, g);
          if (r != -1 && at(votes, r) < 0 && cut_near(q, g, alpha(f))) still = true;
        }
        if (!still) {
          at(violated, q) = false;
          violated_inside.erase(q);
        }
      }
    }
  }

  // 3. Violated inside points towards outside points.
  unsnapped = 0;
  for (const Index p : violated_inside) {
    if (at(votes, p) == 0) continue;
    const int e = nearest_cut(p, [&](Index q) { return at(votes, q) < 0; });
    if (e == -1) {
      ++unsnapped;
      continue;
    }
    snap(p, e);
    for (int f = 0; f < BccLattice::kEdges; ++f) forget_cuts(p, f, lattice.Neighbour(p, f));
  }
  return moved;
}

}  // namespace fluxion::internal
