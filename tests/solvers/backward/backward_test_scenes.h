// Helpers shared by the tests of SOFA's backward solvers with Newton iterations (BDFOdeSolver,
// StaticSolver, their NewtonRaphsonSolver).
#pragma once

#include <cstdio>
#include <string>

#include "fluxion/errors.h"
#include "support/scene_text.h"
#include "support/test_support.h"

namespace fluxion::testing {

/// A mass of 2 kg hanging in 1-D below a fixed point at 0 on a spring of 40 N/m and rest length
/// 1, under g = −10 m/s² (a 1-D object takes the gravity's first component), starting at
/// (y0, v0). For y < 0 the force on it is f(y) = −40·(y + 1) − 20, linear, zero at the
/// equilibrium y* = −1.5 (exact in binary, like every value here): a Newton iteration from any
/// y0 < 0 lands on y* up to round-off. `solver` is the ODE solver's XML and anything next to it
/// (a NewtonRaphsonSolver). Object 0, point 1.
inline std::string HangingMass(const std::string& solver, double y0, double v0 = 0.0) {
  return R"(<Node name="root" gravity="-10 0 0" dt="0.01">
  )" + solver +
         R"(
  <SparseLDLSolver/>
  <MechanicalObject template="Vec1d" position="0 )" +
         Exact(y0) + R"(" velocity="0 )" + Exact(v0) + R"("/>
  <DiagonalMass vertexMass="1 2"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 40 0 1"/>
</Node>)";
}

}  // namespace fluxion::testing
