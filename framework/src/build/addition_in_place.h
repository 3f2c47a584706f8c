// An addition of triangles or tetrahedra (a TopologicalChangeProcessor's ADD= line) followed in
// place: the running simulation's topology, elements, masses and solver change by what the
// addition adds, instead of the scene being built again (build/topology_rebuild.cpp, the
// fallback and the reference: FLUXION_TOPOLOGY_REBUILD=1). The removal followers
// (build/topology_in_place.h, build/tetrahedron_in_place.h) own one of these each, so that both
// kinds of change go through the same live shells.
//
// What SOFA does (Sofa.Component.Topology.Container.Dynamic, Sofa.Component.SolidMechanics.FEM.
// Elastic, Sofa.Component.Mass) and what follows here, each giving the bits the rebuild gives:
//  - the topology: TriangleSetTopologyModifier::addTriangles (addTrianglesProcess: each side
//    (t[j+1], t[j+2]) missing from the edges appended first, then the triangle) and
//    TetrahedronSetTopologyModifier::addTetrahedra (addTetrahedronProcess: each missing face, as
//    a triangle is added, then the missing edges 01 02 03 12 13 23, then the tetrahedron) on the
//    live containers (TriangleShells::Add, TetrahedronShells::Add): AddElements' order, which
//    the rebuild uses;
//  - TriangularFEMForceField (TriangleData creation callback → createTriangleInformation: the new
//    triangle's rest frame, from the rest positions, TriangularFEMForceField.inl),
//    TriangularFEMForceFieldOptim (its TriangleInfo and TriangleState creation callbacks:
//    initTriangleInfo), TetrahedralCorotationalFEMForceField (TetrahedronData creation callback →
//    createTetrahedronInformation: rest frame, shape vectors, material,
//    TetrahedralCorotationalFEMForceField.inl) and TetrahedronFEMForceField (SOFA registers no
//    creation callback there — its per-element data is sized at init, TetrahedronFEMForceField.inl
//    — where Fluxion gives the new elements the rest data a build gives them): the new elements
//    appended, computed as a build computes them (mechanics/triangle_rest_shape.h,
//    TetrahedronFem::RestElements) from the scene's youngModulus and poissonRatio;
//  - DiagonalMass given a massDensity (DiagonalMass::applyTriangleCreation /
//    applyTetrahedronCreation: density × area / 3 or × volume / 4 added to each vertex of a new
//    element): each vertex of a new element gets the sum over its elements in their order, as a
//    build sums them (the new elements come last, so this is SOFA's addition, rounding
//    included), and its weight m·g follows;
//  - UniformMass, the projective constraints, the MechanicalObject: no handler acts (SOFA's
//    UniformMass follows points, not elements), nothing changes;
//  - the mechanical system: no DOF is added. A matrix-free solver (CGLinearSolver) reads the
//    fields' own tangents, which grow with the elements (FieldTangent lays its slices out again,
//    amortised). A built CSR pattern (a direct solver's) is not grown: a new coupling is an
//    insertion into compressed storage, O(nnz) each, and the solver's symbolic analysis must be
//    redone on the new pattern anyway — both proportional to the mesh, as the rebuild is — so
//    such a system rebuilds. The solver follows through Solver::FollowSystemChange (the masses
//    that changed) or InvalidateHistory; it is never created again.
// Refused (the rebuild follows, the reason logged at debug level): a component not in that set —
// MeshSpringForceField among them: SOFA's SpringForceField registers no handler for added edges
// (SpringForceField.inl: POINTSREMOVED and EDGESREMOVED only), so SOFA's springs stay as they
// were, while a build of the grown mesh puts a spring on each new edge; the rebuild, the
// reference here, does the latter —, bending or quadratic springs, pressures, a field not built at
// the load (no element then: the first addition rebuilds, the next follow in place), a material not
// given as one number in the scene, a new element flat or of zero volume at rest, a vertex repeated
// or not a point, a container that lists edges (or faces) outside the elements, and additions of
// points (ADD= PointsInTriangle) or under a topological mapping (the removal followers refuse those
// nodes) — but a Tetra2Triangle child of a tetrahedral node, which follows an addition of
// tetrahedra with what it holds (build/mapped_child_in_place.h; its components are skipped here).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/simulation.h"
#include "mechanics/shell_additions.h"
#include "mechanics/tetrahedron_fem.h"
#include "mechanics/triangle_fem.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

class AssembledSystem;
class TetrahedronShells;
class TriangleShells;
class Weight;

/// What a removal follower shares with its additions.
struct AdditionTarget {
  Simulation& simulation;
  ChangingNode& node;
  SolverNode& solver_node;
  AssembledSystem& system;
  Index first_dof;  ///< the object's first DOF in the system
  int dimension;
  const std::vector<std::array<double, 3>>& rest_points;  ///< the elements' rest points
};

/// The additions of triangles to one node, followed in place.
class TriangleAdditions {
 public:
  /// Reads, once when the follower is made, what an addition needs (the membranes' materials,
  /// the density mass and its weight), or why additions must rebuild. `target.node`'s topology is
  /// the built one.
  void Prepare(const AdditionTarget& target, const SceneDescription& scene);
  /// SOFA's addTriangles(`vertices`, 3 per triangle) on `topology` (the live one, with `shells`)
  /// and everything that follows it; false, nothing changed and `why` set, when it must rebuild.
  bool Add(const AdditionTarget& target, Topology& topology, TriangleShells& shells,
           std::span<const Index> vertices, std::string& why);

 private:
  struct Fem {
    TriangleFem* field = nullptr;
    TriangleFemMethod method = TriangleFemMethod::kLarge;
    bool optim = false;  // TriangularFEMForceFieldOptim, with its restScale
    double rest_scale = 1.0;
    TriangleFem::Material material;
    std::vector<TriangleFem::Element> added;  // scratch: the new elements
  };
  std::string refusal_;
  std::vector<Fem> fems_;
  bool has_mass_ = false;  // a DiagonalMass given a massDensity
  double density_ = 0.0;
  Weight* weight_ = nullptr;  // its m·g (null without gravity)
  ShellAddition done_;
  std::vector<Index> touched_, around_, mass_dofs_;
  std::vector<double> masses_;
};

/// The additions of tetrahedra to one node, followed in place.
class TetrahedronAdditions {
 public:
  /// As TriangleAdditions::Prepare; the components at the lines `claimed` accepts are followed
  /// by the node's mapped children (build/mapped_child_in_place.h), not here.
  void Prepare(const AdditionTarget& target, const SceneDescription& scene,
               const std::function<bool(int)>& claimed = {});
  /// SOFA's addTetrahedra(`vertices`, 4 per tetrahedron), as TriangleAdditions::Add.
  bool Add(const AdditionTarget& target, Topology& topology, TetrahedronShells& shells,
           std::span<const Index> vertices, std::string& why);
  /// What the last Add added to the shells (the mapped children follow it).
  const ShellAddition& done() const { return done_; }

 private:
  struct Fem {
    TetrahedronFem* field = nullptr;
    double young = 0.0, poisson = 0.0;
    std::vector<TetrahedronFem::Element> added;  // scratch: the new elements
  };
  std::string refusal_;
  std::vector<Fem> fems_;
  bool has_mass_ = false;
  double density_ = 0.0;
  Weight* weight_ = nullptr;
  ShellAddition done_;
  std::vector<std::array<Index, 4>> new_tetrahedra_;
  std::vector<double> young_, poisson_;
  std::vector<Index> touched_, around_, mass_dofs_;
  std::vector<double> masses_;
};

}  // namespace fluxion::internal
