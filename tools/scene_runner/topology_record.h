// scene-runner --topologies FILE: each node's topology after every step, as SOFA's topology
// regression reads one (WriteTopology / CompareTopology records), so that a run can be checked
// against SOFA's *_topology.txt.gz references (tools/sofa_regression).
// Source: Sofa/Component/Playback/src/sofa/component/playback/WriteTopology.inl (one record per
// time: "T= t", then "  Edges= n" and the n edges' vertices on one line, the same for
// Triangles, Quads, Tetrahedra, Hexahedra). Fluxion's file holds every node's topology in one
// file: each time's record lists "  Topology= NODE_PATH NAME" before each topology's lists.
// The time of a record is the time at the start of the step that used the topology (SOFA
// compares at AnimateBeginEvent, after the changes due then): a run of N steps writes N
// records, at 0, dt, …, (N−1)·dt.
#pragma once

#include <cstdio>
#include <memory>

#include "fluxion/trajectory_writer.h"

namespace fluxion::runner {

/// A writer of the simulation's node topologies (NodeTopologies: the load must keep its initial
/// data) to `stream`, which it does not close.
std::unique_ptr<TrajectoryWriter> MakeTopologyRecordWriter(std::FILE* stream);

}  // namespace fluxion::runner
