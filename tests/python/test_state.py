"""State access: views, writes, topology. Expected numbers are computed by hand here."""
import numpy as np
import pytest

import fluxion

# One free point of 2 kg, gravity (0, -8, 0), dt = 1/8, SOFA's EulerExplicitSolver (symplectic by
# default): v1 = v0 + h·g, x1 = x0 + h·v1. All values are exact in binary, so == holds. The wall
# has no solver above it: it is static.
POINT = """<Node name="root" dt="0.125" gravity="0 -8 0">
  <Node name="ball">
    <EulerExplicitSolver/>
    <MechanicalObject name="dofs" template="Vec3d" position="1 2 3"/>
    <UniformMass totalMass="2"/>
  </Node>
  <Node name="wall">
    <MechanicalObject name="dofs" template="Vec2d" position="0 0  1 0"/>
  </Node>
</Node>"""


def test_written_velocity_gives_the_hand_computed_symplectic_euler_step():
    sim = fluxion.load_string(POINT)
    ball = sim.objects["root/ball/dofs"]
    ball.velocities = np.array([[2.0, 0.0, -4.0]])
    assert ball.velocities.tolist() == [[2.0, 0.0, -4.0]]
    sim.step()
    # v1 = (2, 0, -4) + 0.125·(0, -8, 0) = (2, -1, -4); x1 = (1, 2, 3) + 0.125·v1.
    assert ball.velocities.tolist() == [[2.0, -1.0, -4.0]]
    assert ball.positions.tolist() == [[1.25, 1.875, 2.5]]
    assert sim.time == 0.125


def test_written_position_and_integer_lists_are_accepted():
    sim = fluxion.load_string(POINT)
    ball = sim.objects["root/ball/dofs"]
    ball.positions = [[0, 0, 0]]  # integers convert exactly
    sim.step()
    assert ball.positions.tolist() == [[0.0, -0.125, 0.0]]  # v1 = (0, -1, 0)


def test_views_are_zero_copy_read_only_and_follow_the_state():
    sim = fluxion.load_string(POINT)
    ball = sim.objects["root/ball/dofs"]
    view = ball.positions
    assert view.shape == (1, 3) and view.dtype == np.float64
    assert not view.flags.writeable and not view.flags.owndata
    with pytest.raises(ValueError):
        view[0, 0] = 5.0  # writes go through assignment, which restarts the solvers
    sim.step()
    assert view.tolist() == [[1.0, 1.875, 3.0]]  # the same memory, one step later
    del sim  # the view keeps the simulation alive
    assert view.tolist() == [[1.0, 1.875, 3.0]]


def test_writing_restarts_a_solver_with_history():
    # Adams–Bashforth 2 keeps the previous acceleration. After a write, the step must be its
    # start-up step from the written state: the same as a fresh simulation given that state.
    chain = fluxion.load(_scene("hanging_chain.scn"))
    chain.replace_solver("AdamsBashforth2Solver")
    chain.step(3)
    beads = chain.objects["root/chain/beads"]
    new_velocity = beads.velocities.copy()
    new_velocity[7] = [0.0, 1.0, 0.0]
    beads.velocities = new_velocity
    fresh = fluxion.load(_scene("hanging_chain.scn"))
    fresh.replace_solver("AdamsBashforth2Solver")
    fresh.objects["root/chain/beads"].positions = beads.positions.copy()
    fresh.objects["root/chain/beads"].velocities = new_velocity
    # The forces depend on positions and velocities only (no time-dependent load here).
    chain.step()
    fresh.step()
    assert beads.positions.tolist() == fresh.objects["root/chain/beads"].positions.tolist()
    assert beads.velocities.tolist() == fresh.objects["root/chain/beads"].velocities.tolist()


def test_static_objects_and_dimensions():
    sim = fluxion.load_string(POINT)
    wall = sim.objects["root/wall/dofs"]
    assert wall.is_static and wall.dimension == 2 and wall.positions.shape == (2, 2)
    assert wall.forces().tolist() == [[0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(fluxion.UsageError):
        wall.positions = [[1, 1], [2, 2]]


def test_forces_are_weight_for_a_free_point():
    sim = fluxion.load_string(POINT)
    assert sim.objects["root/ball/dofs"].forces().tolist() == [[0.0, -16.0, 0.0]]  # m·g


def test_grid_topology_edges_and_energy():
    # RegularGridTopology n = 3 1 3: 9 points, 4 quads; SOFA's edge list: 12 grid edges plus one
    # diagonal per quad = 16.
    sim = fluxion.load_string("""<Node name="root" dt="0.01" gravity="0 -10 0">
      <EulerExplicitSolver/>
      <Node name="cloth">
        <RegularGridTopology n="3 1 3" min="0 0 0" max="2 0 2"/>
        <MechanicalObject name="dofs" template="Vec3d"/>
        <UniformMass totalMass="9"/>
      </Node>
    </Node>""")
    cloth = sim.objects["root/cloth/dofs"]
    assert cloth.positions.shape == (9, 3)
    assert cloth.edges.shape == (16, 2) and cloth.edges.dtype == np.int64
    assert cloth.quads.shape == (4, 4)
    assert cloth.tetrahedra.shape == (0, 4)
    # At rest: no kinetic energy; gravity's potential −Σ m g·x = 0 with every y = 0.
    assert sim.energy() == {"kinetic": 0.0, "potential": 0.0, "total": 0.0}


def test_components_and_solvers_list_the_bundled_plugins():
    names = {c["name"] for c in fluxion.components()}
    assert {"MechanicalObject", "UniformMass", "EulerExplicitSolver"} <= names
    solvers = {s["name"]: s for s in fluxion.solvers()}
    assert solvers["RungeKutta4Solver"]["order"] == 4
    assert solvers["EulerImplicitSolver"]["implicit"]
    assert solvers["AdamsBashforth2Solver"]["has_history"]


def _scene(name):
    from conftest import scene_path
    return scene_path(name)


def test_files_a_scene_writes_go_below_the_output_policy_folder(tmp_path, monkeypatch):
    # WriteState writes positions at t = 0 and after each step (period = dt).
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(tmp_path)
    fluxion.set_output_policy(directory=str(out))
    try:
        sim = fluxion.load_string(POINT.replace(
            '<UniformMass totalMass="2"/>',
            '<UniformMass totalMass="2"/>\n    <WriteState filename="ball.state"/>'))
        sim.step(2)
        sim.finish()
        del sim
        assert (out / "ball.state").is_file() and not (tmp_path / "ball.state").exists()
        assert "X= 1 2 3" in (out / "ball.state").read_text()
        # The file exists now: without overwrite, a second run is refused at WriteState's line.
        with pytest.raises(fluxion.SceneError) as caught:
            sim = fluxion.load_string(POINT.replace(
                '<UniformMass totalMass="2"/>',
                '<UniformMass totalMass="2"/>\n    <WriteState filename="ball.state"/>'))
            sim.step()
        assert caught.value.diagnostics[0].line == 6
    finally:
        fluxion.set_output_policy()  # the default: the current folder


# A point 5 mm above a static triangle floor, no gravity (docs/contact.md, "Contact response"):
# MinProximity's triangle-point test pairs (floor, point) with the normal (0, 0, 1); d = 0.01 (the
# intersection's contactDistance), penetration d - 0.005 = 0.005, ks = 10 * 5 / d = 5000 N/m; the
# response is placed in the point's node, under its solver (node 0).
CONTACT = """<Node name="root" gravity="0 0 0" dt="0.001">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.05" contactDistance="0.01"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <Node name="floor">
    <MeshTopology position="-1 -1 0  2 -1 0  -1 2 0" triangles="0 1 2"/>
    <MechanicalObject name="dofs"/>
    <TriangleCollisionModel moving="0" simulated="0"/>
  </Node>
  <Node name="body">
    <EulerImplicitSolver/> <CGLinearSolver iterations="10" tolerance="1e-12" threshold="1e-20"/>
    <MechanicalObject name="dofs" position="0.2 0.3 0.005"/>
    <UniformMass totalMass="0.1"/>
    <PointCollisionModel contactStiffness="5"/>
  </Node>
</Node>"""


def test_contacts_of_the_last_step_are_dicts_with_the_hand_computed_numbers():
    sim = fluxion.load_string(CONTACT)
    assert sim.contacts() == []  # none before the first step
    sim.step()
    (contact,) = sim.contacts()
    assert contact["models"] == ("root/floor/TriangleCollisionModel",
                                 "root/body/PointCollisionModel")
    assert contact["elements"] == (0, 0)
    assert contact["normal"] == pytest.approx([0, 0, 1], abs=1e-12)
    assert contact["points"][1] == pytest.approx([0.2, 0.3, 0.005], abs=1e-15)
    assert contact["distance"] == pytest.approx(0.01, abs=1e-15)
    assert contact["penetration"] == pytest.approx(0.005, abs=1e-15)
    assert contact["stiffness"] == pytest.approx(5000, rel=1e-14)
    assert contact["solver_node"] == 0
