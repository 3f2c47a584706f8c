// TriangularFEMForceField and TriangularFEMForceFieldOptim on a triangle list that a follower
// changes in place — a Tetra2TriangleTopologicalMapping's surface (build/mapped_child_in_place.h):
// SOFA's TriangleData of TriangleInformation on the *child's* topology
// (Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
// TriangularFEMForceField.inl: the creation callback createTriangleInformation computes a new
// triangle's rest frame, area and material from the rest positions; TopologyData::remove moves the
// last triangle's data into each removed slot, kept as it was computed;
// TriangularFEMForceFieldOptim the same through initTriangleInfo). The elements follow the
// triangles the same way: the triangles the mapping appends get elements computed as a build
// computes them (mechanics/triangle_rest_shape.h, TriangleFem::MakeElement), appended; removed ones
// go, the last element moving into each slot; the elements of triangles whose points were
// renumbered take their new DOFs. That is what a build from the changed surface gives, element for
// element. Followed when the field's elements are the list's triangles in order and its material is
// one number (a value per element, rotatedInitialElements, initialTransformation or a topology
// link: the rebuild follows).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fluxion/simulation.h"
#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/triangle_fem.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;

class InPlaceMembranes {
 public:
  /// Takes membrane component `path` (scene element `element`, of type TriangularFEMForceField or
  /// TriangularFEMForceFieldOptim) on `topology`'s triangles (point p's first DOF first_dof + 3p).
  /// Empty when it follows; else why not (a component without a field — no triangle at the load —
  /// is refused: the surface may gain triangles it would not have).
  std::string Add(const Simulation& simulation, AssembledSystem& system, const std::string& path,
                  const ElementDescription* element, const Topology& topology, Index first_dof);
  bool empty() const { return fields_.empty(); }
  /// True when field `index` of the system is one of these.
  bool Follows(std::size_t index) const;

  /// Computes, for each field, the elements of `triangles` (point p at rest_position[3p..3p+2]),
  /// kept until Append. False, with `why` set and nothing appended, when one is flat at rest.
  bool Prepare(std::span<const std::array<Index, 3>> triangles, const Vector& rest_position,
               std::string& why);
  /// Appends the elements Prepare computed (the triangles appended to the list).
  void Append();
  /// Removes the elements of the triangles `descending` (distinct, descending), each slot taking
  /// the element then last (the list's removal).
  void Remove(std::span<const Index> descending);
  /// The elements of `triangles` (indices into `topology`) take their triangles' DOFs (points
  /// renumbered).
  void Rename(const Topology& topology, std::span<const Index> triangles);
  /// Their per-element output on `topology` (the live list).
  void Publish(const std::shared_ptr<const Topology>& topology);

 private:
  struct Field {
    TriangleFem* fem = nullptr;
    std::size_t index = 0;  // in the system
    TriangleFemMethod method = TriangleFemMethod::kLarge;
    bool optim = false;  // TriangularFEMForceFieldOptim, with its restScale
    double rest_scale = 1.0;
    TriangleFem::Material material;
    std::vector<TriangleFem::Element> added;  // scratch: Prepare's elements
  };
  std::vector<Field> fields_;
  Index first_dof_ = 0;
};

}  // namespace fluxion::internal
