#include "render.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include "fluxion/text.h"

namespace fluxion::runner {

namespace {

using Point3 = std::array<double, 3>;

// Screen axes of each view: (right, up), both unit vectors orthogonal to the view direction.
// Axis views put the other two axes in cyclic order (x: y right, z up; y: z right, x up; z: x
// right, y up — the usual front view of a scene with gravity along −y); the isometric view looks
// along −(1, 1, 1) with the world's y axis projected up.
void ViewBasis(View view, Point3& right, Point3& up) {
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
    case View::kIso: {
      const double r = 1.0 / std::sqrt(2.0), u = 1.0 / std::sqrt(6.0);
      right = {r, 0, -r};    // ⟂ (1, 1, 1), horizontal
      up = {-u, 2 * u, -u};  // (1, 1, 1) × right, y up
      return;
    }
  }
}

double Dot(const Point3& a, const Point3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Point i of an object as a 3-D point (1-D and 2-D objects padded with zeros).
Point3 PointOf(const Eigen::Map<const Vector>& x, int dimension, Index i) {
  Point3 p{0, 0, 0};
  for (int c = 0; c < dimension; ++c) p[c] = x[i * dimension + c];
  return p;
}

Point3 RestPointOf(const ObjectModel& object, Index i) {
  Point3 p{0, 0, 0};
  for (int c = 0; c < object.dimension; ++c) p[c] = object.rest_position[i * object.dimension + c];
  return p;
}

double Distance(const Point3& a, const Point3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// The pairs of points of object `index` that a force couples: the off-diagonal blocks of its
// system's matrix pattern (springs of a SpringForceField, which no topology lists).
std::vector<std::array<Index, 2>> CoupledPairs(const Simulation& simulation, int index) {
  const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(index)];
  std::vector<std::array<Index, 2>> pairs;
  if (object.system < 0) return pairs;
  const SolverNode& node = simulation.solver_nodes()[static_cast<std::size_t>(object.system)];
  const SparseMatrix pattern = node.system->CreateMatrix();
  const Index first = object.offset, end = object.offset + object.num_dofs();
  for (Index column = first; column < end; column += object.dimension) {
    const Index j = (column - first) / object.dimension;
    for (SparseMatrix::InnerIterator entry(pattern, static_cast<int>(column)); entry; ++entry) {
      const Index row = entry.row();
      if (row < first || row >= end) continue;
      const Index i = (row - first) / object.dimension;
      if (i < j && (pairs.empty() || pairs.back() != std::array<Index, 2>{i, j}))
        pairs.push_back({i, j});
    }
  }
  return pairs;
}

// The segments drawn for an object: its topology's edges, else its triangles' and quads' sides,
// else the pairs of points its forces couple.
std::vector<std::array<Index, 2>> Segments(const Simulation& simulation, int index) {
  const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(index)];
  std::vector<std::array<Index, 2>> segments;
  if (object.topology != nullptr) {
    const Topology& topology = *object.topology;
    segments = topology.edges;
    if (segments.empty()) {
      for (const auto& t : topology.triangles)
        for (int k = 0; k < 3; ++k) segments.push_back({t[k], t[(k + 1) % 3]});
      for (const auto& q : topology.quads)
        for (int k = 0; k < 4; ++k) segments.push_back({q[k], q[(k + 1) % 4]});
    }
  }
  if (segments.empty()) segments = CoupledPairs(simulation, index);
  return segments;
}

// Diverging colour map: strain s in [−1, 1] (relative to the picture's largest) from blue
// through grey to red.
std::array<double, 3> StrainColour(double s) {
  s = std::clamp(s, -1.0, 1.0);
  const std::array<double, 3> grey{0.55, 0.55, 0.55}, blue{0.1, 0.3, 0.9}, red{0.9, 0.15, 0.1};
  const auto& end = s < 0 ? blue : red;
  const double t = std::abs(s);
  return {grey[0] + t * (end[0] - grey[0]), grey[1] + t * (end[1] - grey[1]),
          grey[2] + t * (end[2] - grey[2])};
}

// Which points of object `index` a fixed constraint holds: the DOFs its system's projection
// zeroes in every axis (MechanicalSystem::ProjectResponse on a vector of ones).
std::vector<bool> HeldPoints(const Simulation& simulation, int index) {
  const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(index)];
  std::vector<bool> held(static_cast<std::size_t>(object.num_points), false);
  if (object.system < 0) return held;
  const SolverNode& node = simulation.solver_nodes()[static_cast<std::size_t>(object.system)];
  Vector ones = Vector::Ones(node.system->num_dofs());
  node.system->ProjectResponse(ones);
  for (Index i = 0; i < object.num_points; ++i) {
    bool all = true;
    for (int c = 0; c < object.dimension; ++c)
      all = all && ones[object.offset + i * object.dimension + c] == 0.0;
    held[static_cast<std::size_t>(i)] = all;
  }
  return held;
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
  for (const ObjectModel& object : simulation.objects())
    if (object.dimension == 3) return View::kIso;
  return View::kZ;
}

std::optional<long> ParseRenderEvery(const std::string& text) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const long long value = std::stoll(text);
  if (value < 1 || value > (1LL << 62)) return std::nullopt;
  return static_cast<long>(value);
}

bool ParseRenderSize(const std::string& text, int& width, int& height) {
  const std::size_t x = text.find('x');
  if (x == std::string::npos || x == 0 || x + 1 >= text.size() || x > 4 || text.size() - x > 5 ||
      text.find_first_not_of("0123456789x") != std::string::npos || text.rfind('x') != x)
    return false;
  const int w = std::stoi(text.substr(0, x)), h = std::stoi(text.substr(x + 1));
  if (w < 64 || w > 8192 || h < 64 || h > 8192) return false;
  width = w;
  height = h;
  return true;
}

std::array<double, 2> Camera::Project(const std::array<double, 3>& point) const {
  return {width / 2.0 + scale * (Dot(point, right) - center_x),
          height / 2.0 - scale * (Dot(point, up) - center_y)};
}

Camera FitCamera(const Simulation& simulation, View view, int width, int height, double margin) {
  Camera camera;
  camera.view = view;
  camera.width = width;
  camera.height = height;
  ViewBasis(view, camera.right, camera.up);
  double min_x = std::numeric_limits<double>::infinity(), max_x = -min_x;
  double min_y = min_x, max_y = -min_x;
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(k)];
    const auto x = simulation.position(k);
    for (Index i = 0; i < object.num_points; ++i) {
      const Point3 p = PointOf(x, object.dimension, i);
      const double sx = Dot(p, camera.right), sy = Dot(p, camera.up);
      min_x = std::min(min_x, sx), max_x = std::max(max_x, sx);
      min_y = std::min(min_y, sy), max_y = std::max(max_y, sy);
    }
  }
  if (!std::isfinite(min_x)) min_x = max_x = min_y = max_y = 0.0;
  camera.center_x = 0.5 * (min_x + max_x);
  camera.center_y = 0.5 * (min_y + max_y);
  // The same scale on both axes; a single point (or a line) gets a 1 m wide view.
  const double span_x = std::max(max_x - min_x, 1e-12), span_y = std::max(max_y - min_y, 1e-12);
  const double usable_w = width * (1.0 - 2 * margin), usable_h = height * (1.0 - 2 * margin);
  camera.scale = std::min(usable_w / span_x, usable_h / span_y);
  if (max_x - min_x < 1e-12 && max_y - min_y < 1e-12) camera.scale = usable_w;
  return camera;
}

Surface DrawState(const Simulation& simulation, const Camera& camera, const std::string& title) {
  Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, camera.width, camera.height),
                  cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
  cairo_t* c = cr.get();
  cairo_set_source_rgb(c, 1, 1, 1);
  cairo_paint(c);

  // The strain scale: the largest |strain| of the picture (at least 1e-6, so that a picture at
  // rest is all grey rather than noise blown up).
  const auto& objects = simulation.objects();
  std::vector<std::vector<std::array<Index, 2>>> segments;
  for (int k = 0; k < static_cast<int>(objects.size()); ++k)
    segments.push_back(Segments(simulation, k));
  double largest = 1e-6;
  for (int k = 0; k < static_cast<int>(objects.size()); ++k) {
    const ObjectModel& object = objects[static_cast<std::size_t>(k)];
    const auto x = simulation.position(k);
    for (const auto& [a, b] : segments[static_cast<std::size_t>(k)]) {
      const double rest = Distance(RestPointOf(object, a), RestPointOf(object, b));
      if (rest > 0)
        largest = std::max(largest, std::abs(Distance(PointOf(x, object.dimension, a),
                                                      PointOf(x, object.dimension, b)) /
                                                 rest -
                                             1.0));
    }
  }

  const double dot = std::clamp(camera.width / 250.0, 1.5, 4.0);
  cairo_set_line_width(c, std::clamp(camera.width / 600.0, 0.75, 2.0));
  cairo_set_line_cap(c, CAIRO_LINE_CAP_ROUND);
  for (int k = 0; k < static_cast<int>(objects.size()); ++k) {
    const ObjectModel& object = objects[static_cast<std::size_t>(k)];
    const auto x = simulation.position(k);
    for (const auto& [a, b] : segments[static_cast<std::size_t>(k)]) {
      const Point3 pa = PointOf(x, object.dimension, a), pb = PointOf(x, object.dimension, b);
      const double rest = Distance(RestPointOf(object, a), RestPointOf(object, b));
      const double strain = rest > 0 ? Distance(pa, pb) / rest - 1.0 : 0.0;
      const auto colour = StrainColour(strain / largest);
      cairo_set_source_rgb(c, colour[0], colour[1], colour[2]);
      const auto sa = camera.Project(pa), sb = camera.Project(pb);
      cairo_move_to(c, sa[0], sa[1]);
      cairo_line_to(c, sb[0], sb[1]);
      cairo_stroke(c);
    }
    const std::vector<bool> held = HeldPoints(simulation, k);
    for (Index i = 0; i < object.num_points; ++i) {
      const auto s = camera.Project(PointOf(x, object.dimension, i));
      if (held[static_cast<std::size_t>(i)]) {
        cairo_set_source_rgb(c, 0, 0, 0);
        cairo_rectangle(c, s[0] - 1.6 * dot, s[1] - 1.6 * dot, 3.2 * dot, 3.2 * dot);
      } else {
        cairo_set_source_rgb(c, 0.15, 0.15, 0.2);
        cairo_arc(c, s[0], s[1], dot, 0, 2 * M_PI);
      }
      cairo_fill(c);
    }
  }

  // Contacts that push (penetration > 0, found at the start of the step that led here): an
  // orange ring at the middle of the contact's two points, and a tick along the normal, towards
  // model 2, where the penalty pushes model 2's point.
  long pushing = 0;
  cairo_set_source_rgb(c, 0.95, 0.45, 0.0);
  for (const Contact& contact : simulation.contacts()) {
    if (contact.penetration <= 0.0) continue;
    ++pushing;
    Point3 middle{}, tip{};
    for (std::size_t a = 0; a < 3; ++a)
      middle[a] = 0.5 * (contact.point[0][a] + contact.point[1][a]);
    const auto s = camera.Project(middle);
    for (std::size_t a = 0; a < 3; ++a) tip[a] = middle[a] + contact.normal[a];
    const auto t = camera.Project(tip);
    const double length = std::hypot(t[0] - s[0], t[1] - s[1]);
    cairo_new_sub_path(c);
    cairo_arc(c, s[0], s[1], 1.8 * dot, 0, 2 * M_PI);
    cairo_stroke(c);
    if (length > 1e-9) {  // a normal along the view direction has no tick
      cairo_move_to(c, s[0], s[1]);
      cairo_line_to(c, s[0] + (t[0] - s[0]) / length * 4 * dot,
                    s[1] + (t[1] - s[1]) / length * 4 * dot);
      cairo_stroke(c);
    }
  }

  // Time and title at the top left; the colour bar with its range at the bottom.
  const double font = std::clamp(camera.height / 40.0, 10.0, 18.0);
  cairo_select_font_face(c, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(c, font);
  cairo_set_source_rgb(c, 0, 0, 0);
  cairo_move_to(c, font, 1.6 * font);
  const std::string time = "t = " + FormatReal(simulation.time()) + " s";
  cairo_show_text(c, time.c_str());
  cairo_move_to(c, font, 3.0 * font);
  cairo_show_text(c, title.c_str());
  if (!simulation.collision_models().empty()) {
    const std::string count = std::to_string(pushing) + " contact" + (pushing == 1 ? "" : "s");
    cairo_set_source_rgb(c, 0.95, 0.45, 0.0);
    cairo_move_to(c, font, 4.4 * font);
    cairo_show_text(c, count.c_str());
    cairo_set_source_rgb(c, 0, 0, 0);
  }
  const double bar_w = camera.width * 0.3, bar_h = font * 0.7;
  const double bar_x = camera.width - bar_w - font, bar_y = camera.height - 2.2 * font;
  for (int i = 0; i < 100; ++i) {
    const auto colour = StrainColour(-1.0 + 2.0 * i / 99.0);
    cairo_set_source_rgb(c, colour[0], colour[1], colour[2]);
    cairo_rectangle(c, bar_x + bar_w * i / 100.0, bar_y, bar_w / 100.0 + 0.5, bar_h);
    cairo_fill(c);
  }
  cairo_set_source_rgb(c, 0, 0, 0);
  char range[64];
  std::snprintf(range, sizeof range, "strain %+.2g … %+.2g", -largest, largest);
  cairo_move_to(c, bar_x, bar_y - 0.4 * font);
  cairo_show_text(c, range);

  cairo_surface_flush(surface.get());
  return surface;
}

bool RenderPng(const Simulation& simulation, const Camera& camera, const std::string& title,
               const OutputClaim& claim, std::string& why) {
  const Surface surface = DrawState(simulation, camera, title);
  const OutputFile file = OpenClaimedOutputFile(claim, &why);
  if (!file) return false;
  const auto write = [](void* stream, const unsigned char* data, unsigned int length) {
    return std::fwrite(data, 1, length, static_cast<std::FILE*>(stream)) == length
               ? CAIRO_STATUS_SUCCESS
               : CAIRO_STATUS_WRITE_ERROR;
  };
  if (cairo_surface_write_to_png_stream(surface.get(), write, file.get()) != CAIRO_STATUS_SUCCESS ||
      std::fflush(file.get()) != 0) {
    why = claim.name + ": cannot write the picture (expected a writable folder with free space)";
    return false;
  }
  return true;
}

}  // namespace fluxion::runner
