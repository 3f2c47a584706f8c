"""cloth_grid.scn written as a SofaPython3 scene: a 1 m × 1 m cloth of 8 × 8 points from a
RegularGridTopology in the xz-plane, held at its two corners along x, falling under gravity, with
a spring on every edge of the grid (MeshSpringForceField). Its trajectory equals the XML scene's
bit for bit."""
import numpy as np


def createScene(root):
    root.gravity = np.array([0.0, -9.81, 0.0])
    root.dt = 0.001
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerExplicitSolver")
    cloth = root.addChild("cloth")
    cloth.addObject("RegularGridTopology", name="grid", n=[8, 1, 8], min=[0, 0, 0], max=[1, 0, 1])
    cloth.addObject("MechanicalObject", name="dofs", template="Vec3d")
    cloth.addObject("UniformMass", totalMass=1)
    cloth.addObject("FixedProjectiveConstraint", indices=np.array([0, 7]))
    cloth.addObject("MeshSpringForceField", linesStiffness=100, linesDamping=0.5)
    return root
