// The binary frame the viewer streams over its WebSocket: one message per displayed state, every
// number little-endian and every double 8-byte aligned, so that the page reads the positions as
// Float64Array views of the message without copying or parsing (docs/viewer.md "Frames").
//
//   offset 0   char[4]  "FXV1"
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

/// Writes the current state of `simulation` into `frame` (resized; its capacity is kept, so a
/// frame of the same scene allocates nothing).
void EncodeFrame(const Simulation& simulation, std::vector<unsigned char>& frame);

}  // namespace fluxion::view
