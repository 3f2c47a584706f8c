// The builder's reading of SOFA's TopologicalChangeProcessor: its process file, checked line by
// line, and what in its node follows a change (the topology, the object, the constrained index
// lists), taken before the build releases anything. The runtime applies the changes
// (build/topology_rebuild.h).
// Source: Sofa/Component/Topology/Utility/src/sofa/component/topology/utility/
//         TopologicalChangeProcessor.cpp (readDataFile, readNext, processTopologicalChanges).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/build_state.h"
#include "fluxion/topology.h"
#include "mechanics/mapped_topology_follow.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {

/// An index list of a component that SOFA keeps as a TopologySubsetIndices (the projective
/// constraints' `indices`): renumbered at each change and written back into the scene.
struct FollowedIndexList {
  int element_line = 0;  ///< the component's element line (its key in the scene description)
  std::string field;     ///< e.g. "indices"
  std::vector<Index> indices;
  /// For a list of triangles: the element line of the container whose triangles it indexes, a
  /// topological mapping's output in a child node (0: the changing node's own container).
  int topology_line = 0;
};

/// The springs of a SpringForceField with an end on the changing object, wherever it sits (SOFA's
/// SpringForceField follows point removals through the TopologySubsetIndices of each end:
/// applyRemovedPoints), as its `spring` records: renumbered at each change and written back.
struct FollowedSprings {
  int element_line = 0;
  bool first = false, second = false;          ///< object1 / object2 is the changing object
  std::vector<std::array<double, 5>> springs;  ///< i j ks kd L0
};

/// SOFA's SpringForceField::applyRemovedPoints, on each end that is the changing object (object1
/// first, as SOFA's handlers are called): for each removed point, in the descending order of
/// `removed_points`, the springs on it erased (the others keep their order) and the springs on
/// the then last point renamed to it. `old_points` is the number of points before the removal.
void RemoveSpringPoints(FollowedSprings& list, const std::vector<Index>& removed_points,
                        Index old_points);
/// The `spring` attribute text of a followed list.
std::string SpringText(const FollowedSprings& list);

/// Whether an `ADD=` line adds points inside triangles (SOFA's words: PointsInTriangle,
/// PointInTriangle).
bool IsPointsInTriangle(std::string_view type);
/// The element level an `ADD=` line names (SOFA's words: Edge(s), Triangle(s), Quad(s),
/// Tetrahedron/Tetrahedra, Hexahedron/Hexahedra), or nullopt.
std::optional<TopologyLevel> AddedLevel(std::string_view type);
/// The plural word of a level for messages ("Triangles").
const char* AddedName(TopologyLevel level);
/// The number of vertices of an element of `level`.
std::size_t AddedSize(TopologyLevel level);

/// One TopologicalChangeProcessor as the builder read it.
struct ProcessorPlan {
  int line = 0;           ///< its element line (messages)
  std::string node_path;  ///< its node
  // The file mode: the file's lines as std::getline gives them (a final newline gives a last
  // empty line, as SOFA's stream does), checked at build.
  std::string file;  ///< as found, for messages
  std::vector<std::string> lines;
  bool loop = false;
  double shift = 0.0;
  // The data mode (useDataInputs).
  bool use_data_inputs = false;
  double time_to_remove = 0.0;
  double interval = 0.0;
  std::vector<Index> triangles_to_remove;  ///< the data list of the container's level
  /// The data list is a link (to an engine's output: BoxROI): read from a build of the scene on
  /// the current positions when due. Otherwise the list itself is used.
  bool list_linked = false;
};

/// A component of a changing node or below, as the in-place follow checks it
/// (build/topology_in_place.h).
struct NodeComponent {
  std::string type;  ///< the registered name, e.g. "MeshSpringForceField"
  ComponentKind kind = ComponentKind::kIgnored;
  int line = 0;           ///< its element line (its key in the scene description)
  std::string node_path;  ///< its node, e.g. "root/cloth"
  std::string name;       ///< its name there
};

/// A topology derived from the changing one by a topological mapping in a child node: it
/// follows each change as SOFA's mapping does (mechanics/mapped_topology_follow.h).
/// A mapped output while an in-place follower changes it (build/mapped_child_in_place.h): the
/// output as it is now (the simulation's copy) and SOFA's Glob2LocMap as one entry per input
/// element (−1: none), which a change updates without allocating.
struct LiveMappedOutput {
  Topology topology;
  std::vector<Index> glob2loc;
};

struct FollowedMapping {
  int topology_line = 0;  ///< the output container's element line
  MappedTopology mapped;
  /// Set while an in-place follower changes the output: mapped.topology and mapped.glob2loc are
  /// then behind (its other maps are current); the rebuild takes them back before reading them.
  std::shared_ptr<LiveMappedOutput> live;
};

/// What follows the changes of one node: the processors acting on it, and what they change.
struct ChangingNode {
  std::string node_path;
  std::vector<ProcessorPlan> processors;
  int topology_line = 0;  ///< the node's topology component
  /// The elements REMOVE= names: the container's own (SOFA's removeItems of its modifier).
  TopologyLevel level = TopologyLevel::kTriangle;
  std::vector<FollowedMapping> mappings;
  int object_line = 0;  ///< the node's MechanicalObject
  int object = -1;      ///< its index in the model
  int dimension = 3;
  /// The topology and the object's initial vectors as built (rest positions: springs' rest
  /// lengths, masses; initial positions: what constraints take as their start).
  std::shared_ptr<const Topology> topology;
  Vector position, velocity, rest_position;
  std::vector<FollowedIndexList> index_lists;
  /// Lists of the container's triangles that SOFA keeps as a TopologySubsetData
  /// (TrianglePressureForceField's `triangleList`): a removed triangle's entries dropped, the
  /// moved last triangle's renamed, the order kept; written back into the scene. A list on a
  /// mapped child's triangles (topology_line set) follows that output's changes
  /// (MappedTopology::element_map): the faces the mapping creates join no list, as SOFA's
  /// TopologySubsetData adds no element it is not told to.
  std::vector<FollowedIndexList> triangle_lists;
  /// Every component of the node and below, in document order.
  std::vector<NodeComponent> components;
  std::vector<FollowedSprings> spring_lists;
  /// The DiagonalMass components given a total mass (element line, density): SOFA's keeps the
  /// density of its init (totalMass / area) and takes each removed triangle's share away, so a
  /// rebuild gives them that density instead of spreading the total again.
  std::vector<std::pair<int, double>> mass_densities;
  /// The UniformMass components given a total mass (element line, mass per point): SOFA's keeps
  /// its vertexMass when points are removed, so a rebuild after a removal of points is given it.
  std::vector<std::pair<int, double>> vertex_masses;
};

/// Every node with a TopologicalChangeProcessor, checked (problems reported in `state`): its
/// process file read under the input policy, and every component of the node and below one that
/// follows a change. Empty when the scene has none. Called once the components are built, before
/// anything is released.
std::vector<ChangingNode> PlanTopologicalChanges(BuildState& state);

/// The data lists of the processors of a built scene, by the processors' element lines (a
/// rebuild reads them again: they may be links to engines).
std::vector<std::pair<int, std::vector<Index>>> ProcessorDataLists(const BuildState& state);

}  // namespace fluxion::internal
