"""What a force field written in Python costs (docs/python.md, "Writing a component in Python"):
a 32 × 32 cloth of springs (grid edges and one diagonal per quad, with dashpots) stepped with
the springs as SpringForceField (C++) and as the same springs written in Python with NumPy
(Sofa.Core.ForceFieldVec3d, vectorised addForce and addDForce), in one run, on one machine.
Prints the time per step of each and their ratio, for EulerExplicitSolver (addForce once per
step) and EulerImplicitSolver + CGLinearSolver (addForce once, addDForce once per CG iteration:
3.9 on average here), and the time of the C++ springs beside a Python field that adds nothing
(the calls' own cost).

    PYTHONPATH=build/python /usr/bin/python3 tools/benchmarks/python_force_field_cost.py [STEPS]
"""
import sys
import time

import numpy as np

import fluxion
import Sofa.Core

N = 32          # points per side
KS, KD = 100.0, 0.01


def springs():
    """(i, j, rest length) of every spring of the N × N grid in the xz-plane, 1 m wide."""
    h = 1.0 / (N - 1)
    pairs = []
    for r in range(N):
        for c in range(N):
            p = r * N + c
            if c + 1 < N:
                pairs.append((p, p + 1, h))
            if r + 1 < N:
                pairs.append((p, p + N, h))
            if c + 1 < N and r + 1 < N:
                pairs.append((p, p + N + 1, h * np.sqrt(2.0)))
    return pairs


class PythonSprings(Sofa.Core.ForceFieldVec3d):
    """SpringForceField's force, vectorised: f_i += ks (|d| - L) u + kd ((v_j - v_i)·u) u with
    d = x_j - x_i, u = d/|d|, and its stiffness for addDForce (the dashpot's velocity term left
    terms left out of the tangent)."""

    def __init__(self, pairs, **kwargs):
        Sofa.Core.ForceFieldVec3d.__init__(self, **kwargs)
        table = np.array(pairs)
        self.i, self.j = table[:, 0].astype(int), table[:, 1].astype(int)
        self.rest = table[:, 2]
        self.points = N * N
        self.length = self.u = None

    def addForce(self, mparams, f, x, v):
        d = x.value[self.j] - x.value[self.i]
        self.length = np.linalg.norm(d, axis=1)
        self.u = d / self.length[:, None]
        relative = np.einsum("ij,ij->i", v.value[self.j] - v.value[self.i], self.u)
        force = (KS * (self.length - self.rest) + KD * relative)[:, None] * self.u
        with f.writeableArray() as wa:
            wa += self.gather(force)

    def addDForce(self, mparams, df, dx):
        # Linearised at the last addForce, as SOFA's springs are: ∂f_i/∂x_j = -∂f_i/∂x_i =
        # ks [(1 - L/l)(I - uuᵀ) + uuᵀ] =: S, so df_i += kFactor·S·(dx_j - dx_i), df_j -= it.
        ddx = dx.value[self.j] - dx.value[self.i]
        along = np.einsum("ij,ij->i", ddx, self.u)[:, None] * self.u
        ratio = (1.0 - self.rest / self.length)[:, None]
        dforce = KS * mparams["kFactor"] * (ratio * (ddx - along) + along)
        with df.writeableArray() as wa:
            wa += self.gather(dforce)

    def gather(self, per_spring):
        """Σ over springs of +per_spring at i and -per_spring at j, point by point (np.bincount:
        several times faster than np.add.at)."""
        n = self.points
        return np.stack([np.bincount(self.i, per_spring[:, a], n) -
                         np.bincount(self.j, per_spring[:, a], n) for a in range(3)], axis=1)


class Nothing(Sofa.Core.ForceFieldVec3d):
    """Adds nothing: what a call into Python costs, views and mparams included."""

    def addForce(self, mparams, f, x, v):
        pass

    def addDForce(self, mparams, df, dx):
        pass


def scene(python, implicit, nothing=False):
    pairs = springs()
    root = fluxion.Node("root")
    root.dt = 0.001
    root.gravity = [0, -9.81, 0]
    root.addObject("DefaultAnimationLoop")
    if implicit:
        root.addObject("EulerImplicitSolver")
        root.addObject("CGLinearSolver", iterations=25, tolerance=1e-9, threshold=1e-20)
    else:
        root.addObject("EulerExplicitSolver", symplectic=True)
    cloth = root.addChild("cloth")
    positions = [[c / (N - 1), 0.0, r / (N - 1)] for r in range(N) for c in range(N)]
    cloth.addObject("MechanicalObject", name="dofs", position=positions)
    cloth.addObject("UniformMass", totalMass=1.0)
    cloth.addObject("FixedProjectiveConstraint", indices=[0, N - 1])
    if nothing:
        cloth.addObject(Nothing(name="nothing"))
    if python:
        cloth.addObject(PythonSprings(pairs, name="springs"))
    else:
        cloth.addObject("SpringForceField", name="springs",
                        spring=[[i, j, KS, KD, length] for i, j, length in pairs])
    return fluxion.load_scene(root)


def seconds_per_step(sim, steps, repeats=5):
    """The fastest of `repeats` runs of `steps` steps (the machine is shared: the fastest run is
    the one least slowed by others), per step."""
    sim.step(5)  # warm-up: views made, caches filled
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        sim.step(steps)
        best = min(best, time.perf_counter() - start)
    return best / steps


def main(argv):
    steps = int(argv[1]) if len(argv) > 1 else 60
    fluxion.set_thread_count(1)
    for implicit in (False, True):
        cpp, python = scene(False, implicit), scene(True, implicit)
        t_cpp, t_python = seconds_per_step(cpp, steps), seconds_per_step(python, steps)
        t_nothing = seconds_per_step(scene(False, implicit, nothing=True), steps)
        gap = np.abs(cpp.objects["root/cloth/dofs"].positions -
                     python.objects["root/cloth/dofs"].positions).max()
        name = "EulerImplicit+CG" if implicit else "EulerExplicit"
        print(f"{name}: C++ {t_cpp * 1e6:.0f} µs/step, Python {t_python * 1e6:.0f} µs/step, "
              f"ratio {t_python / t_cpp:.1f}; C++ springs with a Python field adding nothing "
              f"{t_nothing * 1e6:.0f} µs/step; largest position difference {gap:.1e} m after "
              f"{5 * steps + 5} steps")


if __name__ == "__main__":
    main(sys.argv)
