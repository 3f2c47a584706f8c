// Inline scenes shared by the explicit-solver tests (tests/solvers/explicit/).
#pragma once

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "support/scene_text.h"

namespace fluxion::testing {

/// SOFA's ODESolverSpringTest scene (sofa-notes §2.1): a point fixed at y = 2 and a mass m at
/// y = 1, joined by a spring of stiffness k and rest length 1, under gravity (0, −10, 0).
/// Objects: 0 = fixedPoint, 1 = massDof.
inline std::string SofaSpringScene(const std::string& solver, double k, double m, double h) {
  return Fill(R"(<Node name="root" gravity="0 -10 0" dt="{h}">
  {solver}
  <Node name="FixedPointNode">
    <MechanicalObject name="fixedPoint" template="Vec3d" position="0 2 0" velocity="0 0 0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="MassNode">
    <MechanicalObject name="massDof" template="Vec3d" position="0 1 0" velocity="0 0 0"/>
    <UniformMass totalMass="{m}"/>
  </Node>
  <SpringForceField spring="0 0 {k} 0 1" object1="@FixedPointNode/fixedPoint" object2="@MassNode/massDof"/>
</Node>)",
              {{"h", Exact(h)}, {"solver", solver}, {"m", Exact(m)}, {"k", Exact(k)}});
}

/// The undamped linear oscillator x'' = −ω²x in one dimension: a unit mass at x0 (velocity v0)
/// tied to a fixed point at the origin by a spring of stiffness ω² and rest length 0, no gravity.
/// In 1-D the zero-length spring's force is exactly −ω²·x (direction ±1, elongation |x|); it is
/// inactive only for |x| < 1e-9, where the force it omits is below 1e-9·ω² N.
/// Objects: 0 = anchor, 1 = mass.
inline std::string OscillatorScene(const std::string& solver, double omega, double h, double x0,
                                   double v0) {
  return Fill(R"(<Node name="root" gravity="0 0 0" dt="{h}">
  {solver}
  <Node name="Anchor">
    <MechanicalObject name="anchor" template="Vec1d" position="0"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="Mass">
    <MechanicalObject name="mass" template="Vec1d" position="{x0}" velocity="{v0}"/>
    <UniformMass totalMass="1"/>
  </Node>
  <SpringForceField spring="0 0 {k} 0 0" object1="@Anchor/anchor" object2="@Mass/mass"/>
</Node>)",
              {{"h", Exact(h)},
               {"solver", solver},
               {"x0", Exact(x0)},
               {"v0", Exact(v0)},
               {"k", Exact(omega * omega)}});
}

}  // namespace fluxion::testing
