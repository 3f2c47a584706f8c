// The binary frame the viewer streams over its WebSocket: one message per displayed state, every
// number little-endian and aligned to its size, so that the page reads the positions as
// Float64Array (or Float32Array) views of the message without copying or parsing (docs/viewer.md
// "Protocol").
//
// Two precisions, one layout: "FXV1" frames carry the simulation's doubles unconverted (what the
// browser test compares with scene-runner's rows bit for bit); "FXF1" frames carry them rounded
// to float32, what the page draws anyway (WebGL's vertex buffers are float32), at half the bytes
// (the 256² cloth: 786 kB instead of 1.57 MB per frame). The page asks for one or the other with
// each frame request.
//
//   offset 0   char[4]  "FXV1" (float64 positions) or "FXF1" (float32 positions)
//          4   uint32   number of blocks
//          8   int64    step
//         16   float64  time [s] (Simulation::time, the trajectory's time column)
//         24   float64  kinetic energy [J]
//         32   float64  potential energy [J]
//         40   blocks, each: uint32 object index (kContactBlock for the contacts), uint32 count n,
//                            then n float64 (an object's positions, `dimension` per point, as
//                            Simulation::position gives them; the contacts: 6 per pushing
//                            contact, the points on both sides)
#pragma once

#include <cstdint>
#include <vector>

#include "fluxion/simulation.h"

namespace fluxion::view {

inline constexpr std::uint32_t kContactBlock = 0xFFFFFFFFu;
inline constexpr std::size_t kFrameHeaderBytes = 40;

enum class FramePrecision { kFloat64, kFloat32 };

/// Writes the current state of `simulation` into `frame` (resized; its capacity is kept, so a
/// frame of the same scene allocates nothing once it has held a float64 one).
void EncodeFrame(const Simulation& simulation, std::vector<unsigned char>& frame,
                 FramePrecision precision = FramePrecision::kFloat64);

}  // namespace fluxion::view
