// The camera of scene-runner's pictures (--render, --render-every, --animate): an orthographic
// view, a direction to look from and the box of the world it shows.
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string>

#include "fluxion/simulation.h"

namespace fluxion::runner {

/// Where the camera looks from. Axis views look along −axis with the other two axes right and up
/// in cyclic order (x: y right, z up; y: z right, x up; z: x right, y up — the front view of a
/// scene with gravity along −y); `iso` looks along −(1, 1, 1) with the world's y axis up;
/// `kAcrossGravity` looks across the scene's gravity, from 20° above the horizontal, with
/// gravity straight down the picture, so that what hangs is seen hanging.
enum class View { kIso, kX, kY, kZ, kAcrossGravity };

/// Parses "iso", "x", "y", "z"; nullopt otherwise.
std::optional<View> ParseView(const std::string& text);

/// For a scene with a 3-D object: across gravity, or iso without gravity; else z (the x-y plane
/// of 1-D and 2-D scenes).
View DefaultView(const Simulation& simulation);

/// The box a set of points covers on the screen plane of a view (world units).
struct ScreenBounds {
  double min_x = std::numeric_limits<double>::infinity(), max_x = -min_x;
  double min_y = min_x, max_y = -min_x;
  void Add(double x, double y);
  bool empty() const { return !(min_x <= max_x); }
};

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
  /// A world direction as a picture direction (x right, y down), unit length; {0, 0} for one
  /// along the view direction.
  std::array<double, 2> ProjectDirection(const std::array<double, 3>& direction) const;
};

/// The camera of `view` (its screen axes only: not yet fitted). `gravity` sets kAcrossGravity's
/// down (ignored by the other views).
Camera CameraFor(View view, const std::array<double, 3>& gravity, int width, int height);

/// Centres and scales `camera` on `bounds` (screen-plane coordinates of its axes), with a margin
/// of `margin` (0.1: 10 % of the image on each side), the same scale on both axes; a single
/// point (or a line) gets a 1 m wide view.
void FitToBounds(Camera& camera, const ScreenBounds& bounds, double margin);

/// A camera for `view` that fits every point of every object of `simulation` in its current
/// state (FitToBounds). 1-D and 2-D objects use their coordinates as x, y (and z = 0).
Camera FitCamera(const Simulation& simulation, View view, int width, int height,
                 double margin = 0.1);

}  // namespace fluxion::runner
