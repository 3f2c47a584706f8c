"""hanging_chain.scn written as a SofaPython3 scene: a chain of 8 beads (0.1 kg each) on springs
with dashpots (500 N/m, 0.5 N·s/m), held at its first bead and released horizontally under
gravity. Runs with `scene-runner scenes/hanging_chain.py` and `fluxion.load(...)`, and gives the
XML scene's trajectory bit for bit."""


def createScene(root):
    root.gravity = [0, -9.81, 0]
    root.dt = 0.002
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerExplicitSolver")
    chain = root.addChild("chain")
    beads = 8
    # k / 10, not 0.1 * k: the division is correctly rounded, so each x is the double the XML's
    # "0.3" parses to (0.1 * 3 is 0.30000000000000004).
    chain.addObject("MechanicalObject", name="beads", template="Vec3d",
                    position=[[k / 10, 0, 0] for k in range(beads)])
    chain.addObject("UniformMass", vertexMass=0.1)
    chain.addObject("FixedProjectiveConstraint", indices=[0])
    # One spring per pair of neighbours: i, j, stiffness, damping, rest length.
    chain.addObject("SpringForceField",
                    spring=[[k, k + 1, 500, 0.5, 0.1] for k in range(beads - 1)])
    return root
