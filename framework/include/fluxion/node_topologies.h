// The topology of each node of a running simulation, as SOFA's topology comparisons read them:
// what scene-runner --topologies writes, step by step, while a TopologicalChangeProcessor
// changes them (docs/architecture.md, "Topological changes").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/simulation.h"
#include "fluxion/topology.h"

namespace fluxion {

/// The topology of one node (its topology component's: a container, a grid, a loader-fed
/// mesh): the edges, triangles, … a dynamic container holds after the changes so far.
struct TopologyModel {
  std::string node_path;  ///< e.g. "root/Q"
  std::string name;       ///< the topology component's name, e.g. "Quad_topo"
  int line = 0;           ///< line of its element in the scene file
  std::shared_ptr<const Topology> topology;
};

/// One per node with a topology, in document order, as the simulation's current build holds
/// them (a topological change gives new ones). Empty when the load released its initial data
/// (LoadOptions::keep_initial_data = false).
FLUXION_API std::vector<TopologyModel> NodeTopologies(const Simulation& simulation);

}  // namespace fluxion
