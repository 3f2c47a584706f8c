"""No leak over many load/step/free cycles: Python's own allocations (tracemalloc) and the
process's resident memory (RSS, which also sees C++ allocations) stay steady."""
import gc
import os
import tracemalloc

import fluxion

SCENE = """<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology n="4 1 4" min="0 0 0" max="1 0 1"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <MeshSpringForceField linesStiffness="100"/>
  </Node>
</Node>"""

CYCLES = 10_000


def rss_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cycle():
    sim = fluxion.load_string(SCENE)
    cloth = sim.objects["root/cloth/dofs"]
    sim.step(3)
    cloth.velocities = cloth.velocities * 0.5
    kept = cloth.positions  # a view that holds the simulation until it goes
    sim.energy()
    del sim, cloth, kept


def test_load_step_free_cycles_do_not_grow_memory():
    # Warm up: the Host and its plugins, NumPy's and pybind11's one-time allocations.
    for _ in range(200):
        cycle()
    gc.collect()
    tracemalloc.start()
    rss_before = rss_bytes()
    traced_before, _ = tracemalloc.get_traced_memory()
    for _ in range(CYCLES):
        cycle()
    gc.collect()
    traced_after, _ = tracemalloc.get_traced_memory()
    rss_after = rss_bytes()
    tracemalloc.stop()
    # One leaked simulation per cycle would be kilobytes each, i.e. tens of MB over the run;
    # allocator noise is well under these bounds.
    assert traced_after - traced_before < 64 * 1024
    assert rss_after - rss_before < 4 * 1024 * 1024
