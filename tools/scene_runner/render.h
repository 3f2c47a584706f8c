// Pictures of a running scene (scene-runner --render, --render-every): each object's points and
// the edges of its topology, drawn with Cairo in an orthographic view, edges coloured by strain.
#pragma once

#include <cairo.h>

#include <array>
#include <memory>
#include <optional>
#include <string>

#include "fluxion/output_files.h"

#include "fluxion/simulation.h"

namespace fluxion::runner {

/// Where the camera looks from. Axis views look along −axis with the other two axes right and up
/// in cyclic order (x: y right, z up; y: z right, x up; z: x right, y up — the front view of a
/// scene with gravity along −y); `iso` looks along −(1, 1, 1) with the world's y axis up.
enum class View { kIso, kX, kY, kZ };

/// Parses "iso", "x", "y", "z"; nullopt otherwise.
std::optional<View> ParseView(const std::string& text);

/// iso when some object is 3-D, else z (the x-y plane of 1-D and 2-D scenes).
View DefaultView(const Simulation& simulation);

/// --render-every's K: a whole number from 1 to 2^62, or nullopt.
std::optional<long> ParseRenderEvery(const std::string& text);

/// --render-size's "WxH", each from 64 to 8192 pixels; false otherwise.
bool ParseRenderSize(const std::string& text, int& width, int& height);

/// The orthographic camera: a view direction and the box of the world shown, fitted to points.
struct Camera {
  View view = View::kIso;
  int width = 800, height = 600;
  /// Screen-plane unit vectors (world coordinates) and the world box's centre in that plane.
  std::array<double, 3> right{}, up{};
  double center_x = 0.0, center_y = 0.0;
  double scale = 1.0;  ///< pixels per metre

  /// The pixel (x right, y down, origin top-left) a world point lands on.
  std::array<double, 2> Project(const std::array<double, 3>& point) const;
};

/// A camera for `view` that fits every point of every object of `simulation` in its current
/// state, with a margin of `margin` (0.1: 10 % of the image on each side), the same scale on
/// both axes. 1-D and 2-D objects use their coordinates as x, y (and z = 0).
Camera FitCamera(const Simulation& simulation, View view, int width, int height,
                 double margin = 0.1);

/// A Cairo image surface, destroyed with its holder.
using Surface = std::unique_ptr<cairo_surface_t, void (*)(cairo_surface_t*)>;

/// The picture of the current state (RGB24), as RenderPng describes it.
Surface DrawState(const Simulation& simulation, const Camera& camera, const std::string& title);

/// Draws the current state of `simulation` into a PNG, the file of `claim` (opened through the
/// output policy): a white background; each
/// object's topology edges (the triangles' and quads' too when it lists no edges) coloured by
/// strain (l − l0)/l0 against its rest positions — blue compressed, grey at rest, red stretched,
/// the scale symmetric in the largest |strain| of the picture —, its points as dots, points held
/// by a fixed constraint as black squares; with a collision pipeline, each contact that pushes
/// (penetration > 0) as an orange ring with a tick along its normal, and their count under the
/// title; the time in the top-left corner, the colour bar with its range at the bottom. False
/// with `why` when the file cannot be written.
bool RenderPng(const Simulation& simulation, const Camera& camera, const std::string& title,
               const OutputClaim& claim, std::string& why);

}  // namespace fluxion::runner
