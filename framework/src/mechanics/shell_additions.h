// What an addition of elements to live shells did (TriangleShells::Add, TetrahedronShells::Add;
// mechanics/shell_additions.cpp): the elements SOFA's modifier created with the added ones, by
// their new indices. Kept apart from the shells' headers so that the removal and addition sides
// of the shells change apart.
#pragma once

#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

/// One in-place addition (its lists keep their capacity from one addition to the next).
struct ShellAddition {
  Index first_added = 0;                 ///< the first added element (the others follow it)
  Index added = 0;                       ///< how many were added
  std::vector<Index> created_edges;      ///< the edges created, ascending (SOFA's creation order)
  std::vector<Index> created_triangles;  ///< the triangles created (tetrahedra's faces), ascending
};

}  // namespace fluxion::internal
