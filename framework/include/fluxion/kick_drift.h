// The kick–drift update of the symplectic explicit methods, in one parallel pass.
#pragma once

#include "fluxion/state.h"
#include "fluxion/threads.h"
#include "fluxion/types.h"

namespace fluxion {

/// v ← v + kick·a, then x ← x + drift·v with the *new* v: symplectic Euler's update
/// (kick = drift = h; Hoffmann's False Euler, SOFA's EulerExplicitSolver with symplectic=1), the
/// half kick and drift of velocity Verlet (h/2, h) and the kick and second half drift of position
/// Verlet (h, h/2). One pass over the DOFs instead of two vector expressions; each DOF is
/// updated on its own, so the result is the same, bit for bit, for any thread count, and the
/// same as `s.v += a * kick; s.x += s.v * drift;`. Allocates nothing.
inline void KickDrift(const Vector& a, double kick, double drift, State& s) {
  const double* acceleration = a.data();
  double* x = s.x.data();
  double* v = s.v.data();
  ParallelFor(s.x.size(), kVectorGrain, [=](Index begin, Index end) {
    for (Index i = begin; i < end; ++i) {
      v[i] += acceleration[i] * kick;
      x[i] += v[i] * drift;
    }
  });
}

}  // namespace fluxion
