#include "components/regular_grid_spring_force_field.h"

#include <Eigen/Core>

#include "components/point_selection.h"
#include "components/spring_components.h"
#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec RegularGridSpringForceFieldComponent::Spec() {
  ComponentSpec spec{
      .name = "RegularGridSpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs along the edges and diagonals of the node's RegularGridTopology",
      .fields = {},
      .aliases = {}};
  for (const char* kind : {"lines", "quads", "cubes"})
    for (FieldSpec& field : ElementSpringFields(kind, 100.0, 5.0)) spec.fields.push_back(field);
  // SOFA's aliases of all three kinds at once (RegularGridSpringForceField.inl's constructor);
  // SOFA parses attributes in name order, so they win over the *Stiffness and *Damping fields.
  spec.fields.push_back(
      FieldSpec::OptionalReal("stiffness", "sets every *Stiffness at once [N]").AtLeast(0));
  spec.fields.push_back(
      FieldSpec::OptionalReal("damping", "sets every *Damping at once [N·s]").AtLeast(0));
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

namespace {

// Walks the grid as SOFA does and collects the springs of each kind with a non-zero coefficient.
class GridSpringWalker {
 public:
  GridSpringWalker(const Topology& grid, const ObjectModel& object, std::size_t budget)
      : grid_(grid), object_(object), budget_(budget) {
    nx_ = grid.grid_size[0];
    ny_ = grid.grid_size[1];
    nz_ = grid.grid_size[2];
    // Grid spacing vectors.
    if (nx_ > 1) dx_ = Coordinates(Point(1, 0, 0)) - Coordinates(0);
    if (ny_ > 1) dy_ = Coordinates(Point(0, 1, 0)) - Coordinates(0);
    if (nz_ > 1) dz_ = Coordinates(Point(0, 0, 1)) - Coordinates(0);
  }

  void Lines(double s, double d) {
    for (Index z = 0; z < nz_; ++z)
      for (Index y = 0; y < ny_; ++y)
        for (Index x = 0; x + 1 < nx_; ++x) Add(Point(x, y, z), Point(x + 1, y, z), dx_, s, d);
    for (Index z = 0; z < nz_; ++z)
      for (Index y = 0; y + 1 < ny_; ++y)
        for (Index x = 0; x < nx_; ++x) Add(Point(x, y, z), Point(x, y + 1, z), dy_, s, d);
    for (Index z = 0; z + 1 < nz_; ++z)
      for (Index y = 0; y < ny_; ++y)
        for (Index x = 0; x < nx_; ++x) Add(Point(x, y, z), Point(x, y, z + 1), dz_, s, d);
  }

  void Quads(double s, double d) {
    for (Index z = 0; z < nz_; ++z)
      for (Index y = 0; y + 1 < ny_; ++y)
        for (Index x = 0; x + 1 < nx_; ++x) {
          Add(Point(x, y, z), Point(x + 1, y + 1, z), dx_ + dy_, s, d);
          Add(Point(x + 1, y, z), Point(x, y + 1, z), dx_ - dy_, s, d);
        }
    for (Index z = 0; z + 1 < nz_; ++z)
      for (Index y = 0; y < ny_; ++y)
        for (Index x = 0; x + 1 < nx_; ++x) {
          Add(Point(x, y, z), Point(x + 1, y, z + 1), dx_ + dz_, s, d);
          Add(Point(x + 1, y, z), Point(x, y, z + 1), dx_ - dz_, s, d);
        }
    for (Index z = 0; z + 1 < nz_; ++z)
      for (Index y = 0; y + 1 < ny_; ++y)
        for (Index x = 0; x < nx_; ++x) {
          Add(Point(x, y, z), Point(x, y + 1, z + 1), dy_ + dz_, s, d);
          Add(Point(x, y + 1, z), Point(x, y, z + 1), dy_ - dz_, s, d);
        }
  }

  void Cubes(double s, double d) {
    for (Index z = 0; z + 1 < nz_; ++z)
      for (Index y = 0; y + 1 < ny_; ++y)
        for (Index x = 0; x + 1 < nx_; ++x) {
          Add(Point(x, y, z), Point(x + 1, y + 1, z + 1), dx_ + dy_ + dz_, s, d);
          Add(Point(x + 1, y, z), Point(x, y + 1, z + 1), -dx_ + dy_ + dz_, s, d);
          Add(Point(x, y + 1, z), Point(x + 1, y, z + 1), dx_ - dy_ + dz_, s, d);
          Add(Point(x, y, z + 1), Point(x + 1, y + 1, z), dx_ + dy_ - dz_, s, d);
        }
  }

  std::vector<Spring> springs;
  bool too_many = false;

 private:
  Index Point(Index x, Index y, Index z) const { return nx_ * (ny_ * z + y) + x; }
  Eigen::Vector3d Coordinates(Index id) const {
    return Eigen::Vector3d(grid_.points[id][0], grid_.points[id][1], grid_.points[id][2]);
  }
  void Add(Index m1, Index m2, const Eigen::Vector3d& span, double s, double d) {
    if (too_many || springs.size() >= budget_) {
      too_many = true;
      return;
    }
    const int dim = object_.dimension;
    const double length = span.norm();
    springs.push_back(
        {object_.offset + m1 * dim, object_.offset + m2 * dim, s / length, d / length, length});
  }

  const Topology& grid_;
  const ObjectModel& object_;
  std::size_t budget_;
  Index nx_ = 0, ny_ = 0, nz_ = 0;
  Eigen::Vector3d dx_ = Eigen::Vector3d::Zero(), dy_ = Eigen::Vector3d::Zero(),
                  dz_ = Eigen::Vector3d::Zero();
};

}  // namespace

void RegularGridSpringForceFieldComponent::Build(BuildContext& context) {
  const SpringEnds ends = ResolveSpringEnds(context);
  if (!ends.usable) return;  // reported, or both ends static: nothing moves
  const ObjectModel& object = *ends.first;
  const std::shared_ptr<const Topology> grid = context.topology();
  if (!grid || ends.first != ends.second) {
    context.Error(
        "RegularGridSpringForceField needs a RegularGridTopology and a "
        "MechanicalObject in node '" +
        context.node_path() + "'");
    return;
  }
  if (static_cast<Index>(grid->points.size()) != object.num_points) {
    context.Error("RegularGridSpringForceField: the grid has " +
                  PointCount(static_cast<Index>(grid->points.size())) + " but '" + object.id +
                  "' has " + PointCount(object.num_points));
    return;
  }
  const Parameters& p = context.parameters();
  GridSpringWalker walker(*grid, object, context.spring_budget());
  const auto stiffness = [&](const char* kind) {
    return p.has("stiffness") ? p.real("stiffness") : p.real(std::string(kind) + "Stiffness");
  };
  const auto damping = [&](const char* kind) {
    return p.has("damping") ? p.real("damping") : p.real(std::string(kind) + "Damping");
  };
  const double ls = stiffness("lines"), ld = damping("lines");
  if (ls != 0 || ld != 0) walker.Lines(ls, ld);
  const double qs = stiffness("quads"), qd = damping("quads");
  if (qs != 0 || qd != 0) walker.Quads(qs, qd);
  const double cs = stiffness("cubes"), cd = damping("cubes");
  if (cs != 0 || cd != 0) walker.Cubes(cs, cd);
  if (walker.too_many) {
    context.ReserveSprings(walker.springs.size() + 1);  // reports the limit
    return;
  }
  if (!context.ReserveSprings(walker.springs.size()) || walker.springs.empty()) return;
  context.AddForceField(
      object, std::make_unique<SpringForceField>(object.dimension, std::move(walker.springs),
                                                 p.flag("exactDampingJacobian")));
}

}  // namespace fluxion::internal
