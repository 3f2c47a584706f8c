// SOFA's Monitor: chosen points of its node's MechanicalObject written as gnuplot text files
// while the scene runs.
// Source: SofaValidation plugin, src/SofaValidation/Monitor.{h,inl,cpp} (init, initGnuplot,
// exportGnuplot, handleEvent).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Writes, for the points listed in `indices`, up to three files named after `fileName` (default:
/// the component's name), relative to the output folder:
///   `<fileName>_x.txt` positions (ExportPositions), `<fileName>_v.txt` velocities
///   (ExportVelocities), `<fileName>_f.txt` forces (ExportForces).
/// Each file is created when the scene is loaded (SOFA's init) with two comment lines:
///   # Gnuplot File : positions of N particle(s) Monitored
///   # 1st Column : time, others : particle(s) number i j k
/// ("velocities", "forces" in the others; each index followed by a space), then gets one line
/// after every step (SOFA's AnimateEndEvent: the state and time after the step): the time, a tab,
/// then for each index its coordinates separated by spaces, followed by a tab. Lines are flushed
/// as they are written.
/// The drawing fields (showPositions, showVelocities, showForces, showTrajectories, their colours,
/// showMinThreshold, sizeFactor, TrajectoriesPrecision) are accepted and ignored: Fluxion draws
/// nothing.
/// Numbers as SOFA writes them, 6 significant digits (std::ostream's default: "0.3",
/// "-12.4182"), so that the files are SOFA's byte for byte (SofaValidation_test/Monitor_test.cpp
/// pins that text); unlike WriteState's, nothing plays these files back.
/// Deliberate differences: forces are the total force f(t, x, v) at the written state,
/// unprojected, as WriteState's F (SOFA writes the object's force vector as the solver last left
/// it, e.g. EulerExplicitSolver's force at the start of the step); 1-D and 2-D objects have 1 or
/// 2 coordinates per point (SOFA's Monitor has only Vec3, Vec6 and Rigid3 templates); the files
/// follow the output policy (below the output folder, never over an existing file unless
/// --overwrite), where SOFA writes relative to the working folder.
class MonitorComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
