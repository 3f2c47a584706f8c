#include "components/lattice_tetrahedra.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

using Vec = Eigen::Vector3d;
using Tet = std::array<Index, 4>;

// Six times the signed volume of (a, b, c, d).
double Volume6(const std::vector<Vec>& x, Index a, Index b, Index c, Index d) {
  const Vec& o = x[static_cast<std::size_t>(a)];
  return (x[static_cast<std::size_t>(b)] - o)
      .dot((x[static_cast<std::size_t>(c)] - o).cross(x[static_cast<std::size_t>(d)] - o));
}

// Whether two orderings of the same 4 points have opposite orientations, by SOFA's shortcut
// (needFlip): rotate each so its smallest point comes first (a 4-cycle: odd), then rotate the
// last three so the next smallest is second (a 3-cycle: even); they then differ iff their third
// points differ. Terminates with repeated points too (SOFA calls it so in one stencil).
bool OppositeOrder(Tet p, Tet q) {
  bool flip = false;
  const auto settle = [&flip](Tet& t) {
    while (t[0] > std::min({t[1], t[2], t[3]})) {
      std::rotate(t.begin(), t.begin() + 1, t.end());
      flip = !flip;
    }
    while (t[1] > std::min(t[2], t[3])) std::rotate(t.begin() + 1, t.begin() + 2, t.end());
  };
  settle(p);
  settle(q);
  return p[2] == q[3] ? !flip : flip;
}

class Stuffer {
 public:
  Stuffer(const BccLattice& lattice, std::vector<Vec> x, const std::vector<int>& votes, bool split)
      : lattice_(lattice), votes_(votes), split_(split) {
    mesh_.points = std::move(x);
  }

  // A cut point on each edge from an outside point to an inside one.
  void AddCutPoints(const std::vector<std::array<double, BccLattice::kEdges>>& distance) {
    for (Index p = 0; p < lattice_.size(); ++p) {
      if (Vote(p) >= 0) continue;
      for (int e = 0; e < BccLattice::kEdges; ++e) {
        const Index q = lattice_.Neighbour(p, e);
        if (q == -1 || Vote(q) <= 0) continue;
        const Vec& a = At(p);
        const double d = distance[static_cast<std::size_t>(p)][static_cast<std::size_t>(e)];
        const Vec cut = a + (At(q) - a) * d;
        cut_[{p, q}] = static_cast<Index>(mesh_.points.size());
        mesh_.points.push_back(cut);
        ++mesh_.cut_points;
      }
    }
  }

  // The 4 lattice tetrahedra around each long primary edge: its two ends and two consecutive
  // points of the ring of 4 dual points around it.
  void AddLatticeTetrahedra() {
    const auto& n = lattice_.primary_counts();
    const auto& m = lattice_.dual_counts();
    const Index m01 = m[0] * m[1];
    Index p = 0;
    for (Index z = 0; z < n[2]; ++z)
      for (Index y = 0; y < n[1]; ++y)
        for (Index x = 0; x < n[0]; ++x, ++p) {
          // The dual point at the primary point's (−½, −½, −½) corner.
          const Index h = lattice_.first_dual() + x + m[0] * (y + m[1] * z);
          if (x > 0) AddRing(p, p - 1, {h, h + m[0], h + m[0] + m01, h + m01});
          if (y > 0) AddRing(p, p - n[0], {h, h + m01, h + 1 + m01, h + 1});
          if (z > 0) AddRing(p, p - n[0] * n[1], {h, h + 1, h + 1 + m[0], h + m[0]});
        }
  }

  // Drops the points no tetrahedron uses, renumbering the others in order; counts overlaps.
  StuffedMesh Finish() {
    std::vector<Index> renumber(mesh_.points.size(), -1);
    for (const Tet& t : mesh_.tetrahedra)
      for (const Index i : t) renumber[static_cast<std::size_t>(i)] = 0;
    Index kept = 0;
    for (std::size_t i = 0; i < renumber.size(); ++i) {
      if (renumber[i] == -1) continue;
      renumber[i] = kept;
      mesh_.points[static_cast<std::size_t>(kept++)] = mesh_.points[i];
    }
    mesh_.points.resize(static_cast<std::size_t>(kept));
    std::set<std::array<Index, 3>> faces;
    for (Tet& t : mesh_.tetrahedra) {
      for (Index& i : t) i = renumber[static_cast<std::size_t>(i)];
      // The outward faces of a positive tetrahedron (a, b, c, d), each rotated to start at its
      // smallest point: a conforming mesh has each oriented face at most once.
      const auto [a, b, c, d] = t;
      for (std::array<Index, 3> f :
           {std::array{b, c, d}, std::array{a, d, c}, std::array{a, b, d}, std::array{a, c, b}}) {
        std::rotate(f.begin(), std::min_element(f.begin(), f.end()), f.end());
        if (!faces.insert(f).second) ++mesh_.duplicate_faces;
      }
    }
    return std::move(mesh_);
  }

 private:
  int Vote(Index p) const { return votes_[static_cast<std::size_t>(p)]; }
  const Vec& At(Index p) const { return mesh_.points[static_cast<std::size_t>(p)]; }

  Index Cut(Index from, Index to) const {
    auto it = cut_.find({from, to});
    if (it == cut_.end()) it = cut_.find({to, from});
    FLUXION_DEMAND(it != cut_.end());  // every outside–inside lattice edge has its cut point
    return it->second;
  }

  void AddRing(Index p, Index q, const std::array<Index, 4>& ring) {
    for (int i = 0; i < 4; ++i) AddLatticeTetrahedron(p, q, ring[(i + 1) % 4], ring[i]);
  }

  // Appends (a, b, c, d), swapping c and d first when `swap`, then again if it is negative.
  void AddFinal(Index a, Index b, Index c, Index d, bool swap) {
    if (swap) std::swap(c, d);
    if (Volume6(mesh_.points, a, b, c, d) < 0) std::swap(c, d);
    mesh_.tetrahedra.push_back({a, b, c, d});
  }

  // Whether cut quadrilateral (a, b, c, d) — inside points a, b; c the cut towards b and d the
  // cut towards a from outside point `out` — takes diagonal b–d rather than a–c.
  bool OtherDiagonal(Index a, Index b, Index c, Index out) const {
    // A cut point on a long edge (both ends in the same grid) is a diagonal's end.
    const bool primary = lattice_.is_primary(out);
    if (lattice_.is_primary(a) == primary) return true;
    if (lattice_.is_primary(b) == primary) return false;
    // Else the parity rule: a–c when an odd number of a's coordinates exceed c's on the primary
    // grid (even on the dual grid).
    int above = 0;
    for (int k = 0; k < 3; ++k)
      if (At(a)[k] > At(c)[k]) ++above;
    return (above % 2) != (lattice_.is_primary(a) ? 1 : 0);
  }

  void AddLatticeTetrahedron(Index p1, Index p2, Index p3, Index p4) {
    if (Volume6(mesh_.points, p1, p2, p3, p4) < 0) std::swap(p3, p4);
    const Tet original{p1, p2, p3, p4};
    std::vector<Index> in, out, on;
    for (const Index p : original) (Vote(p) > 0 ? in : Vote(p) < 0 ? out : on).push_back(p);
    if (in.empty() && !out.empty()) return;  // outside the surface
    if (out.empty() || !split_) {
      AddFinal(p1, p2, p3, p4, false);
    } else if (in.size() == 1) {
      // One inside point: the outside ones move to their cuts towards it.
      Tet t = original;
      for (Index& p : t)
        if (Vote(p) < 0) p = Cut(p, in[0]);
      AddFinal(t[0], t[1], t[2], t[3], false);
    } else if (in.size() == 2 && out.size() == 1) {
      // A point on the surface, two inside: the kept part is a pyramid on a cut quadrilateral.
      const Index s = on[0], cut1 = Cut(out[0], in[0]), cut2 = Cut(out[0], in[1]);
      const bool swap = OppositeOrder({s, in[0], in[1], out[0]}, original);
      if (!OtherDiagonal(in[0], in[1], cut2, out[0])) {
        AddFinal(s, in[0], in[1], cut2, swap);
        AddFinal(s, in[0], cut2, cut1, swap);
      } else {
        AddFinal(s, in[0], in[1], cut1, swap);
        AddFinal(s, in[1], cut2, cut1, swap);
      }
    } else if (in.size() == 2) {
      // Two inside, two outside: a prism between the inside edge and the 4 cuts.
      const Index cut1 = Cut(out[0], in[0]), cut2 = Cut(out[0], in[1]);
      const Index cut3 = Cut(out[1], in[0]), cut4 = Cut(out[1], in[1]);
      const bool flip_a = OtherDiagonal(in[0], in[1], cut2, out[0]);
      const bool flip_b = OtherDiagonal(in[0], in[1], cut4, out[1]);
      const bool swap = OppositeOrder({in[0], in[1], out[0], out[1]}, original);
      if (!flip_a && flip_b) {
        AddFinal(in[0], in[1], cut2, cut3, swap);
        AddFinal(in[0], cut2, cut1, cut3, swap);
        AddFinal(in[1], cut2, cut3, cut4, swap);
      } else if (flip_a && !flip_b) {
        AddFinal(in[0], in[1], cut1, cut4, swap);
        AddFinal(in[1], cut1, cut4, cut2, swap);
        AddFinal(in[0], cut1, cut3, cut4, swap);
      } else {
        ++mesh_.invalid_splits;  // SOFA logs "Invalid tetra split" and adds nothing
      }
    } else {
      // Three inside, one outside: the tetrahedron minus a corner, in 3 tetrahedra.
      const Index cut1 = Cut(out[0], in[0]), cut2 = Cut(out[0], in[1]), cut3 = Cut(out[0], in[2]);
      const bool flip1 = OtherDiagonal(in[0], in[1], cut2, out[0]);
      const bool flip2 = OtherDiagonal(in[1], in[2], cut3, out[0]);
      bool flip3 = OtherDiagonal(in[2], in[0], cut1, out[0]);
      if (flip1 == flip2 && flip2 == flip3) {
        ++mesh_.invalid_splits;  // SOFA logs "Invalid tetra split" and forces the third diagonal
        flip3 = !flip1;
      }
      // The inside point where two diagonals meet, and the cut point where two meet.
      const Index apex = flip1 && !flip2 ? in[1] : flip2 && !flip3 ? in[2] : in[0];
      const Index cut_apex = !flip1 && flip2 ? cut2 : !flip2 && flip3 ? cut3 : cut1;
      const bool swap = OppositeOrder({out[0], in[0], in[1], in[2]}, original);
      AddFinal(apex, cut1, cut3, cut2, swap);
      AddFinal(cut_apex, in[0], in[1], in[2], swap);
      if (flip1 == flip2) {
        const Index other = apex == in[0] ? in[2] : in[0];
        AddFinal(in[1], cut2, apex, cut_apex,
                 OppositeOrder({in[1], out[0], apex, other}, original));
      } else if (flip2 == flip3) {
        const Index other = apex == in[0] ? in[1] : in[0];
        AddFinal(in[2], cut3, apex, cut_apex,
                 OppositeOrder({in[2], out[0], apex, other}, original));
      } else {
        const Index other = apex == in[1] ? in[2] : in[1];
        AddFinal(in[0], cut1, apex, cut_apex,
                 OppositeOrder({in[0], out[0], apex, other}, original));
      }
    }
  }

  const BccLattice& lattice_;
  const std::vector<int>& votes_;
  bool split_;
  std::map<std::pair<Index, Index>, Index> cut_;
  StuffedMesh mesh_;
};

}  // namespace

StuffedMesh MakeTetrahedra(const BccLattice& lattice, std::vector<Vec> x,
                           const std::vector<int>& votes,
                           const std::vector<std::array<double, BccLattice::kEdges>>& distance,
                           bool split) {
  Stuffer stuffer(lattice, std::move(x), votes, split);
  if (split) stuffer.AddCutPoints(distance);
  stuffer.AddLatticeTetrahedra();
  return stuffer.Finish();
}

}  // namespace fluxion::internal
