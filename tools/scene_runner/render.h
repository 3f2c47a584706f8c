// Pictures of a running scene (scene-runner --render, --render-every, --animate): each object's
// points and the edges of its topology, drawn with Cairo in an orthographic view (camera.h),
// edges coloured by strain, with an axis triad and the direction of gravity.
#pragma once

#include <cairo.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "camera.h"
#include "fluxion/output_files.h"
#include "fluxion/simulation.h"

namespace fluxion::runner {

/// --render-every's K: a whole number from 1 to 2^62, or nullopt.
std::optional<long> ParseRenderEvery(const std::string& text);

/// --render-size's "WxH", each from 64 to 8192 pixels; false otherwise.
bool ParseRenderSize(const std::string& text, int& width, int& height);

/// What does not change from picture to picture of a run: each object's segments (its
/// topology's edges, else its triangles' and quads' sides, else the pairs of points its forces
/// couple) with their rest lengths, the points a fixed constraint holds, and gravity.
class SceneSketch {
 public:
  explicit SceneSketch(const Simulation& simulation);

  struct Segment {
    Index a, b;
    double rest;  ///< rest length [m], 0 when undefined (no strain)
  };
  struct Part {
    int dimension = 3;
    Index num_points = 0;
    std::vector<Segment> segments;
    std::vector<bool> held;
  };
  const std::vector<Part>& parts() const { return parts_; }
  const std::array<double, 3>& gravity() const { return gravity_; }
  bool has_collision() const { return has_collision_; }

 private:
  std::vector<Part> parts_;
  std::array<double, 3> gravity_{};
  bool has_collision_ = false;
};

/// One moment of a run as a picture shows it: the time, every object's positions (floats: ample
/// for pixels, and --animate keeps about 100 of them: 12 bytes per 3-D point and frame), and the
/// contacts that push (penetration > 0), as their middle point and normal.
struct Snapshot {
  double time = 0.0;
  std::vector<std::vector<float>> positions;   ///< per object, `dimension` values per point
  std::vector<std::array<double, 6>> pushing;  ///< middle x, y, z, then normal x, y, z
};

/// The simulation's current state as a Snapshot.
Snapshot TakeSnapshot(const Simulation& simulation);

/// The largest |strain| (l − l0)/l0 of a snapshot's segments, at least 1e-6 (a picture at rest
/// is all grey rather than noise blown up).
double LargestStrain(const SceneSketch& sketch, const Snapshot& snapshot);

/// Adds every point of `snapshot` to `bounds`, in the screen-plane coordinates of `camera`.
void AddToBounds(const SceneSketch& sketch, const Camera& camera, const Snapshot& snapshot,
                 ScreenBounds& bounds);

/// A Cairo image surface, destroyed with its holder.
using Surface = std::unique_ptr<cairo_surface_t, void (*)(cairo_surface_t*)>;

/// The picture of `snapshot` (RGB24): a white background; each object's segments coloured by
/// strain against `strain_scale` — blue compressed, grey at rest, red stretched, ±strain_scale
/// the ends of the colour bar —, its points as dots, held points as black squares; each pushing
/// contact as an orange ring with a tick along its normal, and their count under the title
/// (scenes with a collision pipeline); the time and title at the top left; the colour bar with
/// its range at the bottom right; at the bottom left an axis triad (x red, y green, z blue, as
/// the camera sees them) and, beside it, gravity's direction as a purple arrow marked g (in black) (a
/// circle with a cross or a dot when gravity points away from or towards the camera; none
/// without gravity).
Surface DrawSnapshot(const SceneSketch& sketch, const Snapshot& snapshot, const Camera& camera,
                     double strain_scale, const std::string& title);

/// The picture of the current state, its strain scale its own largest strain.
Surface DrawState(const Simulation& simulation, const Camera& camera, const std::string& title);

/// Draws the current state into a PNG (DrawState), the file of `claim` (opened through the
/// output policy). False with `why` when the file cannot be written.
bool RenderPng(const Simulation& simulation, const Camera& camera, const std::string& title,
               const OutputClaim& claim, std::string& why);

}  // namespace fluxion::runner
