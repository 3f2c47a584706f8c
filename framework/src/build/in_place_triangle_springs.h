// TriangularQuadraticSpringsForceField and TriangularBiquadraticSpringsForceField followed in
// place through a removal of triangles (build/topology_in_place.h), as SOFA's TriangleData and
// EdgeData handlers follow it (mechanics/triangle_spring_elements.h):
//  - each removed triangle's slot takes the last triangle's rest data (k_j, γ_j; A0, n0 and the
//    last valid normal of the biquadratic field), each removed edge's slot the last edge's (rest
//    length, k_e), as the topology's triangles and edges move (TriangleShells);
//  - the moved triangles and the triangles around moved edges take their edges' new numbers;
//  - each surviving edge of a removed triangle (and each edge of a moved triangle) gets k_e summed
//    again over its remaining triangles in ascending order: a build from the reduced mesh's sum
//    (SOFA subtracts the removed triangle's k_j: the same up to rounding);
//  - the triangles and edges around a point moved into a freed slot take its new DOFs.
// What a build from the reduced mesh computes again from the rest positions is then the field's,
// to the bit, except the biquadratic field's last valid normals: a rebuild starts them again at
// the rest normals (its history, like a solver's, is not carried), while the follow keeps them
// with their triangles, as SOFA does. Followed when the field's edges and triangles are the
// topology's in order, without a `topology` link, and the system's matrix pattern is not built.
// Work per removal: the removed and moved elements, and each touched edge's triangles.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fluxion/force_field.h"
#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/triangle_shells.h"

namespace fluxion::internal {

class AssembledSystem;

class InPlaceTriangleSprings {
 public:
  /// Takes the field `field` (a TriangularQuadraticSprings or TriangularBiquadraticSprings at
  /// index `index` of `system`) on `topology`, whose point p has first DOF first_dof + 3p.
  /// False, with `why` set, when its edges or triangles are not the topology's in order.
  bool Add(AssembledSystem& system, const ForceField* field, const Topology& topology,
           Index first_dof, std::string& why);
  bool empty() const { return fields_.empty(); }
  /// True when field `index` of the system is one of these.
  bool Follows(std::size_t index) const;

  /// Before the topology's removal of triangles `ids`: notes the edges that lose a triangle.
  void BeforeRemoval(const Topology& topology, const TriangleShells& shells,
                     std::span<const Index> ids);
  /// After it (points included): the moves, the new edge numbers, the sums again.
  void AfterRemoval(const Topology& topology, const TriangleShells& shells,
                    const ShellRemoval& done);

 private:
  struct Followed {
    std::size_t index = 0;  // in the system
    bool biquadratic = false;
  };
  void SetTriangle(const Followed& f, const Topology& topology, const TriangleShells& shells,
                   Index t);
  void SetEdgeEnds(const Followed& f, const Topology& topology, Index e);

  AssembledSystem* system_ = nullptr;
  std::vector<Followed> fields_;
  Index first_dof_ = 0;
  Index edges_before_ = 0;
  // The edges whose k_e is summed again, and the sorted triangles around one (capacities kept).
  std::vector<Index> touched_, around_;
};

}  // namespace fluxion::internal
