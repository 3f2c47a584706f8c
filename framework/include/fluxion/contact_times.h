// How long a simulation's collision pipeline took, phase by phase: for benchmarks and profiling
// (fluxion-benchmark's contact cases report detection per step from it).
#pragma once

#include "fluxion/export.h"

namespace fluxion {

class Simulation;

/// Wall time (steady clock) the collision pipeline spent at the start of the steps so far.
struct ContactTimes {
  double detection = 0.0;  ///< [s] element boxes, broad and narrow phases: the contacts found
  double response = 0.0;   ///< [s] the contacts turned into penalty forces (SOFA's response)
  long steps = 0;          ///< the steps that ran the pipeline
};

/// The times of `simulation`'s collision pipeline; all zero in a scene without one. The clock is
/// read four times per step, whatever the scene: it changes no result.
FLUXION_API ContactTimes MeasuredContactTimes(const Simulation& simulation);

}  // namespace fluxion
