// Inline scenes of the solver conformance suite, written for any solver: the solver element is
// built from the catalog's description (its name, and a linear solver when it needs one), never
// from a list of known solvers.
#pragma once

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "conformance/solver_catalog.h"
#include "support/scene_text.h"

namespace fluxion::conformance {

using fluxion::testing::Exact;
using fluxion::testing::Fill;

/// The linear solvers a scene can give a solver that needs one.
enum class LinearSolver { kNone, kSparseLdl, kCg };

/// Implicit solvers and solvers that declare the need get a linear solver (SparseLDLSolver unless
/// a test asks for CG); explicit ones none, so that they run on their own.
inline bool WantsLinearSolver(const SolverDescription& solver) {
  return solver.needs_linear_solver || solver.is_implicit;
}

inline const char* LinearSolverName(LinearSolver linear) {
  switch (linear) {
    case LinearSolver::kSparseLdl:
      return "SparseLDLSolver";
    case LinearSolver::kCg:
      return "CGLinearSolver";
    case LinearSolver::kNone:
      break;
  }
  return "";
}

/// The solver element (default parameters unless `attributes` gives some, e.g.
/// ` rayleighMass="0.1"`) followed by its NewtonRaphsonSolver and its linear solver, if any. The CG
/// solver is SOFA's of the ODE solver tests, converged far below the tolerances of this suite.
inline std::string SolverXml(const SolverDescription& solver,
                             LinearSolver linear = LinearSolver::kSparseLdl,
                             const std::string& attributes = "") {
  std::string xml = "<" + solver.name + attributes + "/>";
  // A solver that reads a NewtonRaphsonSolver (it declares the `newtonSolver` link) gets one
  // allowed to iterate: with SOFA's default of one iteration per step, the steps of the
  // nonlinear chain end unconverged, which SOFA and Fluxion report with a warning each. A first
  // Newton step far from the solution may raise the residual before the iterations converge:
  // line-search warnings are off, as in SOFA's StaticSolver.scn.
  if (solver.declares("newtonSolver"))
    xml += R"(<NewtonRaphsonSolver maxNbIterationsNewton="10" warnWhenLineSearchFails="0"/>)";
  if (!WantsLinearSolver(solver)) return xml;
  if (linear == LinearSolver::kCg)
    xml += R"(<CGLinearSolver iterations="3000" tolerance="1e-12" threshold="1e-12"/>)";
  else
    xml += "<SparseLDLSolver/>";
  return xml;
}

/// The harmonic oscillator x'' = −ω²·x with ω = 1: point 0 fixed at the origin, point 1 of unit
/// mass at (x0, v0), joined by a spring of stiffness 1 and rest length 0 (Vec1d, no gravity). In
/// one dimension the spring's force on point 1 is −ks·(|x| − 0)·sign(x) = −x exactly; it
/// vanishes only for |x| ≤ 1e-9 (the framework's degenerate-spring guard), so runs must keep
/// away from x = 0. Object 0, point 1.
inline std::string OscillatorScene(const std::string& solver_xml, double h, double x0, double v0) {
  return Fill(R"(<Node name="root" gravity="0 0 0" dt="{h}">
  {solver}
  <Node name="oscillator">
    <MechanicalObject name="dofs" template="Vec1d" position="0 {x0}" velocity="0 {v0}"/>
    <DiagonalMass vertexMass="1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 1 0 0"/>
  </Node>
</Node>)",
              {{"h", Exact(h)}, {"solver", solver_xml}, {"x0", Exact(x0)}, {"v0", Exact(v0)}});
}

/// A damped, nonlinear chain: three points 1 m apart along x, the first fixed, on springs of
/// stiffness 150 N/m, rest length 0.5 m and damping 1 N·s/m (with their velocity Jacobian), plus
/// a drag of 0.1 N·s/m, under gravity; released from rest it swings and stretches (geometric
/// springs: forces nonlinear in x). ω_max ≈ 25 rad/s, so ω_max·h ≈ 0.12 at h = 5 ms: inside
/// every explicit method's stability region. Object 0.
inline std::string DampedChainScene(const std::string& solver_xml) {
  return Fill(R"(<Node name="root" gravity="0 -10 0" dt="0.005">
  {solver}
  <Node name="chain">
    <MechanicalObject name="dofs" template="Vec3d" position="0 0 0  1 0 0  2 0 0"/>
    <DiagonalMass vertexMass="1 1 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <SpringForceField spring="0 1 150 1 0.5  1 2 150 1 0.5" exactDampingJacobian="1"/>
    <UniformVelocityDampingForceField dampingCoefficient="0.1" implicit="1"/>
  </Node>
</Node>)",
              {{"solver", solver_xml}});
}

}  // namespace fluxion::conformance
