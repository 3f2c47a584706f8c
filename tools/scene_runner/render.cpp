#include "render.h"

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "fluxion/text.h"

namespace fluxion::runner {

namespace {

using Point3 = std::array<double, 3>;

double Dot(const Point3& a, const Point3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

double Distance(const Point3& a, const Point3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// Point i of `dimension` coordinates per point as a 3-D point (1-D and 2-D padded with zeros).
template <class Values>
Point3 PointOf(const Values& x, int dimension, Index i) {
  Point3 p{0, 0, 0};
  for (int c = 0; c < dimension; ++c)
    p[static_cast<std::size_t>(c)] =
        static_cast<double>(x[static_cast<std::size_t>(i * dimension + c)]);
  return p;
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

// Diverging colour map: strain s in [−1, 1] (relative to the scale) from blue through grey to
// red.
std::array<double, 3> StrainColour(double s) {
  s = std::clamp(s, -1.0, 1.0);
  const std::array<double, 3> grey{0.55, 0.55, 0.55}, blue{0.1, 0.3, 0.9}, red{0.9, 0.15, 0.1};
  const auto& end = s < 0 ? blue : red;
  const double t = std::abs(s);
  return {grey[0] + t * (end[0] - grey[0]), grey[1] + t * (end[1] - grey[1]),
          grey[2] + t * (end[2] - grey[2])};
}

// An arrow from (x0, y0) to (x1, y1) with a filled head at (x1, y1), in the current colour.
void Arrow(cairo_t* c, double x0, double y0, double x1, double y1, double head) {
  const double length = std::hypot(x1 - x0, y1 - y0);
  if (length < 1e-9) return;
  const double ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  cairo_move_to(c, x0, y0);
  cairo_line_to(c, x1 - ux * head, y1 - uy * head);
  cairo_stroke(c);
  cairo_move_to(c, x1, y1);
  cairo_line_to(c, x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
  cairo_line_to(c, x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
  cairo_close_path(c);
  cairo_fill(c);
}

// The axis triad at the bottom left and gravity's arrow beside it, as the camera sees them.
void DrawOrientation(cairo_t* c, const Camera& camera, const Point3& gravity, double font) {
  const double length = std::clamp(std::min(camera.width, camera.height) * 0.05, 12.0, 60.0);
  const double ox = font + length, oy = camera.height - font - length;
  const double head = std::max(4.0, length * 0.25);
  cairo_set_line_width(c, std::clamp(camera.width / 500.0, 1.0, 2.5));
  const std::array<Point3, 3> axes{Point3{1, 0, 0}, Point3{0, 1, 0}, Point3{0, 0, 1}};
  const double colours[3][3] = {{0.8, 0.0, 0.0}, {0.0, 0.55, 0.0}, {0.0, 0.0, 0.8}};
  const char* names[] = {"x", "y", "z"};
  cairo_set_font_size(c, font * 0.8);
  for (std::size_t a = 0; a < 3; ++a) {
    const auto d = camera.ProjectDirection(axes[a]);
    const double along = std::hypot(Dot(axes[a], camera.right), Dot(axes[a], camera.up));
    cairo_set_source_rgb(c, colours[a][0], colours[a][1], colours[a][2]);
    if (along < 1e-9) {  // along the view direction: a dot at the origin
      cairo_arc(c, ox, oy, head * 0.3, 0, 2 * M_PI);
      cairo_fill(c);
      continue;
    }
    const double x1 = ox + d[0] * length * along, y1 = oy + d[1] * length * along;
    Arrow(c, ox, oy, x1, y1, head * std::min(1.0, along + 0.3));
    cairo_move_to(c, x1 + d[0] * font * 0.4 - font * 0.25, y1 + d[1] * font * 0.4 + font * 0.3);
    cairo_show_text(c, names[a]);
  }
  // Gravity, beside the triad: an arrow along its projection, centred on its anchor, which is a
  // pixel's centre so that a vertical or horizontal arrow covers whole pixels.
  if (!(Dot(gravity, gravity) > 0.0)) return;
  const double gx = std::floor(ox + 2.6 * length) + 0.5, gy = std::floor(oy) + 0.5;
  cairo_set_source_rgb(c, 0.55, 0.1, 0.65);
  const auto g = camera.ProjectDirection(gravity);
  if (g[0] == 0.0 && g[1] == 0.0) {
    // Along the view: ⊗ when it points away from the camera, ⊙ towards it.
    const Point3 towards_camera{camera.right[1] * camera.up[2] - camera.right[2] * camera.up[1],
                                camera.right[2] * camera.up[0] - camera.right[0] * camera.up[2],
                                camera.right[0] * camera.up[1] - camera.right[1] * camera.up[0]};
    cairo_arc(c, gx, gy, length * 0.4, 0, 2 * M_PI);
    cairo_stroke(c);
    if (Dot(gravity, towards_camera) < 0) {
      const double r = length * 0.28;
      cairo_move_to(c, gx - r, gy - r);
      cairo_line_to(c, gx + r, gy + r);
      cairo_move_to(c, gx - r, gy + r);
      cairo_line_to(c, gx + r, gy - r);
      cairo_stroke(c);
    } else {
      cairo_arc(c, gx, gy, length * 0.1, 0, 2 * M_PI);
      cairo_fill(c);
    }
  } else {
    Arrow(c, gx - g[0] * length, gy - g[1] * length, gx + g[0] * length, gy + g[1] * length,
          head * 1.3);
  }
  cairo_set_source_rgb(c, 0, 0, 0);
  cairo_move_to(c, gx + length * 0.6, gy - length * 0.6);
  cairo_show_text(c, "g");
}

}  // namespace

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

SceneSketch::SceneSketch(const Simulation& simulation)
    : gravity_(simulation.model().gravity), has_collision_(!simulation.collision_models().empty()) {
  const auto& objects = simulation.objects();
  for (int k = 0; k < static_cast<int>(objects.size()); ++k) {
    const ObjectModel& object = objects[static_cast<std::size_t>(k)];
    Part part;
    part.dimension = object.dimension;
    part.num_points = object.num_points;
    for (const auto& [a, b] : Segments(simulation, k))
      part.segments.push_back({a, b,
                               Distance(PointOf(object.rest_position, object.dimension, a),
                                        PointOf(object.rest_position, object.dimension, b))});
    part.held = HeldPoints(simulation, k);
    parts_.push_back(std::move(part));
  }
}

Snapshot TakeSnapshot(const Simulation& simulation) {
  Snapshot snapshot;
  snapshot.time = simulation.time();
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    const auto x = simulation.position(k);
    snapshot.positions.emplace_back(x.data(), x.data() + x.size());
  }
  for (const Contact& contact : simulation.contacts()) {
    if (contact.penetration <= 0.0) continue;
    std::array<double, 6> pushing{};
    for (std::size_t a = 0; a < 3; ++a) {
      pushing[a] = 0.5 * (contact.point[0][a] + contact.point[1][a]);
      pushing[3 + a] = contact.normal[a];
    }
    snapshot.pushing.push_back(pushing);
  }
  return snapshot;
}

double LargestStrain(const SceneSketch& sketch, const Snapshot& snapshot) {
  double largest = 1e-6;
  for (std::size_t k = 0; k < sketch.parts().size(); ++k) {
    const SceneSketch::Part& part = sketch.parts()[k];
    const std::vector<float>& x = snapshot.positions[k];
    for (const SceneSketch::Segment& s : part.segments)
      if (s.rest > 0)
        largest = std::max(largest, std::abs(Distance(PointOf(x, part.dimension, s.a),
                                                      PointOf(x, part.dimension, s.b)) /
                                                 s.rest -
                                             1.0));
  }
  return largest;
}

void AddToBounds(const SceneSketch& sketch, const Camera& camera, const Snapshot& snapshot,
                 ScreenBounds& bounds) {
  for (std::size_t k = 0; k < sketch.parts().size(); ++k) {
    const SceneSketch::Part& part = sketch.parts()[k];
    for (Index i = 0; i < part.num_points; ++i) {
      const Point3 p = PointOf(snapshot.positions[k], part.dimension, i);
      bounds.Add(Dot(p, camera.right), Dot(p, camera.up));
    }
  }
}

Surface DrawSnapshot(const SceneSketch& sketch, const Snapshot& snapshot, const Camera& camera,
                     double strain_scale, const std::string& title) {
  Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, camera.width, camera.height),
                  cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
  cairo_t* c = cr.get();
  cairo_set_source_rgb(c, 1, 1, 1);
  cairo_paint(c);

  // Segments coloured by strain, then points: dots, held ones as black squares.
  const double dot = std::clamp(camera.width / 250.0, 1.5, 4.0);
  cairo_set_line_width(c, std::clamp(camera.width / 600.0, 0.75, 2.0));
  cairo_set_line_cap(c, CAIRO_LINE_CAP_ROUND);
  for (std::size_t k = 0; k < sketch.parts().size(); ++k) {
    const SceneSketch::Part& part = sketch.parts()[k];
    const std::vector<float>& x = snapshot.positions[k];
    for (const SceneSketch::Segment& segment : part.segments) {
      const Point3 pa = PointOf(x, part.dimension, segment.a);
      const Point3 pb = PointOf(x, part.dimension, segment.b);
      const double strain = segment.rest > 0 ? Distance(pa, pb) / segment.rest - 1.0 : 0.0;
      const auto colour = StrainColour(strain / strain_scale);
      cairo_set_source_rgb(c, colour[0], colour[1], colour[2]);
      const auto sa = camera.Project(pa), sb = camera.Project(pb);
      cairo_move_to(c, sa[0], sa[1]);
      cairo_line_to(c, sb[0], sb[1]);
      cairo_stroke(c);
    }
    for (Index i = 0; i < part.num_points; ++i) {
      const auto s = camera.Project(PointOf(x, part.dimension, i));
      if (part.held[static_cast<std::size_t>(i)]) {
        cairo_set_source_rgb(c, 0, 0, 0);
        cairo_rectangle(c, s[0] - 1.6 * dot, s[1] - 1.6 * dot, 3.2 * dot, 3.2 * dot);
      } else {
        cairo_set_source_rgb(c, 0.15, 0.15, 0.2);
        cairo_arc(c, s[0], s[1], dot, 0, 2 * M_PI);
      }
      cairo_fill(c);
    }
  }

  // Contacts that push (found at the start of the step that led here): an orange ring at the
  // middle of the contact's two points, and a tick along the normal, towards model 2, where the
  // penalty pushes model 2's point.
  cairo_set_source_rgb(c, 0.95, 0.45, 0.0);
  for (const std::array<double, 6>& contact : snapshot.pushing) {
    const Point3 middle{contact[0], contact[1], contact[2]};
    const Point3 tip{contact[0] + contact[3], contact[1] + contact[4], contact[2] + contact[5]};
    const auto s = camera.Project(middle), t = camera.Project(tip);
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

  // Time and title at the top left; the colour bar with its range at the bottom right; the
  // orientation at the bottom left.
  const double font = std::clamp(camera.height / 40.0, 10.0, 18.0);
  cairo_select_font_face(c, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(c, font);
  cairo_set_source_rgb(c, 0, 0, 0);
  cairo_move_to(c, font, 1.6 * font);
  const std::string time = "t = " + FormatReal(snapshot.time) + " s";
  cairo_show_text(c, time.c_str());
  cairo_move_to(c, font, 3.0 * font);
  cairo_show_text(c, title.c_str());
  if (sketch.has_collision()) {
    const std::size_t pushing = snapshot.pushing.size();
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
  std::snprintf(range, sizeof range, "strain %+.2g … %+.2g", -strain_scale, strain_scale);
  cairo_move_to(c, bar_x, bar_y - 0.4 * font);
  cairo_show_text(c, range);
  DrawOrientation(c, camera, sketch.gravity(), font);

  cairo_surface_flush(surface.get());
  return surface;
}

Surface DrawState(const Simulation& simulation, const Camera& camera, const std::string& title) {
  const SceneSketch sketch(simulation);
  const Snapshot snapshot = TakeSnapshot(simulation);
  return DrawSnapshot(sketch, snapshot, camera, LargestStrain(sketch, snapshot), title);
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
