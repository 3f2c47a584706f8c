#include "camera.h"

#include <algorithm>
#include <cmath>

namespace fluxion::runner {

namespace {

using Point3 = std::array<double, 3>;

double Dot(const Point3& a, const Point3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

Point3 Cross(const Point3& a, const Point3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Point3 Normalized(const Point3& a) {
  const double length = std::sqrt(Dot(a, a));
  return {a[0] / length, a[1] / length, a[2] / length};
}

// `a` without its component along the unit vector `n`.
Point3 Across(const Point3& a, const Point3& n) {
  const double along = Dot(a, n);
  return {a[0] - along * n[0], a[1] - along * n[1], a[2] - along * n[2]};
}

// The elevation of kAcrossGravity above the horizontal: enough to see a horizontal sheet as a
// band rather than a line, little enough that a vertical drop keeps cos 20° ≈ 94 % of its length.
constexpr double kElevation = 20.0 * M_PI / 180.0;

// Screen axes of a view looking from the unit direction `eye` (towards the scene: −eye) with
// `up_hint` projected up: right = up × eye.
void BasisFrom(const Point3& eye, const Point3& up_hint, Point3& right, Point3& up) {
  up = Normalized(Across(up_hint, eye));
  right = Cross(up, eye);
}

// Axis views put the other two axes in cyclic order (x: y right, z up; y: z right, x up; z: x
// right, y up); iso looks along −(1, 1, 1) with y up; across gravity looks from the side of the
// iso direction that is horizontal, 20° above it, with −gravity up.
void ViewBasis(View view, const Point3& gravity, Point3& right, Point3& up) {
  switch (view) {
    case View::kX:
      right = {0, 1, 0};
      up = {0, 0, 1};
      return;
    case View::kY:
      right = {0, 0, 1};
      up = {1, 0, 0};
      return;
    case View::kZ:
      right = {1, 0, 0};
      up = {0, 1, 0};
      return;
    case View::kIso:
      BasisFrom(Normalized({1, 1, 1}), {0, 1, 0}, right, up);
      return;
    case View::kAcrossGravity: {
      if (!(Dot(gravity, gravity) > 0.0)) return ViewBasis(View::kIso, gravity, right, up);
      const Point3 down = Normalized(gravity);
      // The horizontal part of (1, 1, 1), or of (1, 0, 0) when gravity is along (1, 1, 1).
      Point3 horizontal = Across({1, 1, 1}, down);
      if (Dot(horizontal, horizontal) < 1e-6) horizontal = Across({1, 0, 0}, down);
      horizontal = Normalized(horizontal);
      const Point3 eye = {std::cos(kElevation) * horizontal[0] - std::sin(kElevation) * down[0],
                          std::cos(kElevation) * horizontal[1] - std::sin(kElevation) * down[1],
                          std::cos(kElevation) * horizontal[2] - std::sin(kElevation) * down[2]};
      BasisFrom(eye, {-down[0], -down[1], -down[2]}, right, up);
      return;
    }
  }
}

// Point i of an object as a 3-D point (1-D and 2-D objects padded with zeros).
Point3 PointOf(const Eigen::Map<const Vector>& x, int dimension, Index i) {
  Point3 p{0, 0, 0};
  for (int c = 0; c < dimension; ++c) p[static_cast<std::size_t>(c)] = x[i * dimension + c];
  return p;
}

}  // namespace

std::optional<View> ParseView(const std::string& text) {
  if (text == "iso") return View::kIso;
  if (text == "x") return View::kX;
  if (text == "y") return View::kY;
  if (text == "z") return View::kZ;
  return std::nullopt;
}

View DefaultView(const Simulation& simulation) {
  const Point3& g = simulation.model().gravity;
  for (const ObjectModel& object : simulation.objects())
    if (object.dimension == 3) return Dot(g, g) > 0.0 ? View::kAcrossGravity : View::kIso;
  return View::kZ;
}

void ScreenBounds::Add(double x, double y) {
  min_x = std::min(min_x, x), max_x = std::max(max_x, x);
  min_y = std::min(min_y, y), max_y = std::max(max_y, y);
}

std::array<double, 2> Camera::Project(const std::array<double, 3>& point) const {
  return {width / 2.0 + scale * (Dot(point, right) - center_x),
          height / 2.0 - scale * (Dot(point, up) - center_y)};
}

std::array<double, 2> Camera::ProjectDirection(const std::array<double, 3>& direction) const {
  const double x = Dot(direction, right), y = -Dot(direction, up);
  const double length = std::hypot(x, y);
  if (!(length > 1e-9 * std::sqrt(Dot(direction, direction)))) return {0.0, 0.0};
  return {x / length, y / length};
}

Camera CameraFor(View view, const std::array<double, 3>& gravity, int width, int height) {
  Camera camera;
  camera.view = view;
  camera.width = width;
  camera.height = height;
  ViewBasis(view, gravity, camera.right, camera.up);
  return camera;
}

void FitToBounds(Camera& camera, const ScreenBounds& given, double margin) {
  ScreenBounds bounds = given;
  if (bounds.empty()) bounds.Add(0.0, 0.0);
  camera.center_x = 0.5 * (bounds.min_x + bounds.max_x);
  camera.center_y = 0.5 * (bounds.min_y + bounds.max_y);
  // The same scale on both axes; a single point (or a line) gets a 1 m wide view.
  const double span_x = std::max(bounds.max_x - bounds.min_x, 1e-12);
  const double span_y = std::max(bounds.max_y - bounds.min_y, 1e-12);
  const double usable_w = camera.width * (1.0 - 2 * margin);
  const double usable_h = camera.height * (1.0 - 2 * margin);
  camera.scale = std::min(usable_w / span_x, usable_h / span_y);
  if (bounds.max_x - bounds.min_x < 1e-12 && bounds.max_y - bounds.min_y < 1e-12)
    camera.scale = usable_w;
}

Camera FitCamera(const Simulation& simulation, View view, int width, int height, double margin) {
  Camera camera = CameraFor(view, simulation.model().gravity, width, height);
  ScreenBounds bounds;
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(k)];
    const auto x = simulation.position(k);
    for (Index i = 0; i < object.num_points; ++i) {
      const Point3 p = PointOf(x, object.dimension, i);
      bounds.Add(Dot(p, camera.right), Dot(p, camera.up));
    }
  }
  FitToBounds(camera, bounds, margin);
  return camera;
}

}  // namespace fluxion::runner
