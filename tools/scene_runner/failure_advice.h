// What to change after a numerical failure, measured on the failing solver and scene rather than
// a fixed list: which of a smaller dt, implicit dashpots (exactDampingJacobian), the solver's own
// damping parameters, or less or more damping would have kept the scene's stiffest mode bounded.
#pragma once

#include <optional>
#include <string>

#include "fluxion/frequency.h"
#include "fluxion/host.h"
#include "fluxion/simulation.h"

namespace fluxion::runner {

/// The stiffest mode a failure is judged on: from the stability check at the start of the run
/// when it measured one, else estimated at the failing step's start.
struct FailingMode {
  double omega = 0.0;          ///< ω_max [rad/s]
  double zeta = 0.0;           ///< its damping ratio
  double implicit_zeta = 0.0;  ///< the part of ζ in the damping matrix B (FrequencyEstimate)
};

/// "; advice for SOLVER (…): …" for the failure of solver node `node` (its state is the failing
/// step's start, Solver::Step restored it), or "" when nothing can be measured (no stiffness, a
/// solver the analyzer cannot rebuild). `mode`: the run's stiffest mode from the stability check,
/// if it measured one for this node.
///
/// How: the solver itself, with the node's parameters, is stepped on the oscillator at the mode's
/// Φ = ω·dt and damping (fluxion-analyze's measurement, with the damping split into the parts
/// the solver treats implicitly and explicitly), and the spectral radius r of one step is
/// measured for each remedy: dt divided by 2, 4, … 1024; all damping implicit (the springs'
/// exactDampingJacobian="1", implicit solvers only); the solver's rayleighStiffness and
/// rayleighMass when it declares them; half and twice the damping. A remedy is advised when it
/// brings r to 1 or below; one that does not help is said so when the user would try it (a
/// smaller dt, more damping). When the mode is stable at the step's dt the failure is not the
/// mode's growth: for an implicit solver, compressed springs' negative stiffness outweighing
/// the mass (k grows as dt²), judged with the lowest eigenvalue of M⁻¹K.
std::string AdviseOnFailure(const Host& host, const Simulation& simulation, const SolverNode& node,
                            const std::optional<FailingMode>& mode);

}  // namespace fluxion::runner
