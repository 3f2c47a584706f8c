// Additions of triangles and tetrahedra followed in place (see the header for what follows and
// how).
#include "build/addition_in_place.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "build/in_place_points.h"
#include "core/text_parsing.h"
#include "mechanics/assembled_system.h"
#include "mechanics/gravity_weights.h"
#include "mechanics/lumped_mass.h"
#include "mechanics/simple_force_fields.h"
#include "mechanics/tetrahedron_shells.h"
#include "mechanics/triangle_rest_shape.h"
#include "mechanics/triangle_shells.h"
#include "runtime/contact_stage.h"
#include "runtime/simulation_access.h"

namespace fluxion::internal {

namespace {

// The one number attribute `name` of `element` gives, or nullopt (absent, a list, a link).
std::optional<double> OneNumber(const ElementDescription& element, const char* name) {
  const AttributeText* given = element.Find(name);
  if (given == nullptr || SplitWords(given->value).size() != 1) return std::nullopt;
  return ParseReal(given->value);
}

// What both kinds of addition read of the node's components: why they must rebuild (empty when
// they follow), and the components they follow through `fem` (the membranes or volumes: given the
// component's path and scene element, it records the field or says why not) and the density of
// a DiagonalMass.
template <class OnFem>
std::string ScanComponents(const AdditionTarget& target, const SceneDescription& scene,
                           std::initializer_list<std::string_view> fem_types,
                           std::optional<double>& density, OnFem&& fem,
                           std::span<const int> followed_lines = {}, bool collisions_follow = false,
                           const std::function<bool(int)>& claimed = {}) {
  const ChangingNode& node = target.node;
  if (node.dimension != 3) return "the object is not Vec3";
  for (const NodeComponent& c : node.components) {
    if (std::find(followed_lines.begin(), followed_lines.end(), c.line) != followed_lines.end())
      continue;
    const std::string path = c.node_path + "/" + c.name;
    const bool own_node = c.node_path == node.node_path;
    if (c.kind == ComponentKind::kOdeSolver || c.kind == ComponentKind::kLinearSolver ||
        c.kind == ComponentKind::kIgnored || c.kind == ComponentKind::kContext)
      continue;
    if (c.line == node.topology_line || (own_node && FollowsRemovalUnchanged(c.type))) continue;
    if (claimed && claimed(c.line)) continue;
    if (c.kind == ComponentKind::kCollisionModel) {
      // Inert (no pipeline reads it: the removal follower refused the node otherwise): SOFA's
      // models read their container's elements when used. One the pipeline reads is followed by
      // the caller when `collisions_follow` (build/in_place_collision.h: the removal follower
      // took it, or refused the node).
      if (collisions_follow) continue;
      const ContactStage* stage = SimulationAccess::ContactStageOf(target.simulation);
      if (stage == nullptr || std::find(stage->model_paths().begin(), stage->model_paths().end(),
                                        path) == stage->model_paths().end())
        continue;
      return "<" + c.type + "> '" + path + "' is read by the collision pipeline";
    }
    const ElementDescription* element = FindElementAt(scene.root, c.line);
    if (element == nullptr) return "<" + c.type + "> '" + path + "' is not found in the scene";
    if (own_node && std::find(fem_types.begin(), fem_types.end(), std::string_view(c.type)) !=
                        fem_types.end()) {
      std::string why = fem(path, *element);
      if (!why.empty()) return "<" + c.type + "> '" + path + "' " + why;
      continue;
    }
    if (c.type == "DiagonalMass" && own_node && !density) {
      density = OneNumber(*element, "massDensity");
      if (!density || element->Find("totalMass") != nullptr)
        return "DiagonalMass '" + path + "' is not given by its massDensity alone";
      continue;
    }
    return "<" + c.type + "> '" + path + "' does not follow an addition in place";
  }
  return {};
}

// The field of component `path` when it is the component's only one and of type Field; `why`
// says otherwise (a field not built at the load: no element then).
template <class Field>
Field* OwnField(const AdditionTarget& target, const std::string& path, std::string& why) {
  int sources = 0;
  const ForceField* found = FieldOf(target.simulation, path, sources);
  if (sources == 0) {
    why = "was not built at the load (no element then): additions rebuild until a build has it";
    return nullptr;
  }
  const int index = target.system.FieldIndex(found);
  auto* field =
      index >= 0
          ? dynamic_cast<Field*>(&target.system.MutableField(static_cast<std::size_t>(index)))
          : nullptr;
  if (sources != 1 || field == nullptr) why = "is not one field of the node";
  return field;
}

// The DiagonalMass's weight m·g: the constant force over the object's DOFs whose point masses
// are M's (the removal followers find it the same way), or null.
Weight* DensityWeight(const AdditionTarget& target) {
  const Vector diagonal = target.system.mass_diagonal();
  for (std::size_t f = 0; f < target.system.num_fields(); ++f) {
    auto* force = dynamic_cast<ConstantForce*>(&target.system.MutableField(f));
    Weight* weight = force != nullptr ? force->weight() : nullptr;
    if (weight == nullptr || force->dofs().empty() || force->dofs().front() != target.first_dof)
      continue;
    bool same = true;
    for (std::size_t i = 0; same && i < weight->point_mass().size(); ++i)
      same = diagonal[target.first_dof + static_cast<Index>(i) * target.dimension] ==
             weight->point_mass()[i];
    if (same) return weight;
  }
  return nullptr;
}

// Each vertex in `touched` (sorted, unique) gets density × measure / n summed over the elements
// around it in their order (`around(v)`, `measure(element)`), as a build sums them, into M, the
// weight and the lists the solver follows.
template <class Around, class Measure>
void SetVertexMasses(const AdditionTarget& target, double density, Weight* weight,
                     std::span<const Index> touched, std::vector<Index>& scratch, double n,
                     Around&& around, Measure&& measure, std::vector<Index>& mass_dofs,
                     std::vector<double>& masses) {
  for (const Index v : touched) {
    const std::vector<Index>& shell = around(v);
    scratch.assign(shell.begin(), shell.end());
    std::sort(scratch.begin(), scratch.end());
    double mass = 0.0;
    for (const Index e : scratch) mass += density * measure(e) / n;
    const Index first = target.first_dof + v * target.dimension;
    target.system.SetDiagonalMass(first, target.dimension, mass);
    for (Index dof = first; dof < first + target.dimension; ++dof) {
      mass_dofs.push_back(dof);
      masses.push_back(mass);
    }
    if (weight != nullptr) weight->SetPointMassAt(static_cast<std::size_t>(v), mass);
  }
}

// The solver follows (Solver::FollowSystemChange: the masses that changed) or starts its history
// again, as after a removal that frees no point.
void TellSolver(const AdditionTarget& target, std::span<const Index> mass_dofs,
                std::span<const double> masses) {
  if (!mass_dofs.empty())
    target.solver_node.solver->FollowSystemChange(
        *target.solver_node.system,
        {.block_size = target.dimension, .mass_dofs = mass_dofs, .masses = masses});
  else
    target.solver_node.solver->InvalidateHistory();
}

constexpr const char* kBuiltPattern =
    "the system's matrix pattern is built (a direct linear solver): a new element's couplings "
    "would be insertions into it, each O(nnz), and its analysis redone";

}  // namespace

// --- Triangles ---------------------------------------------------------------------------------

void TriangleAdditions::Prepare(const AdditionTarget& target, const SceneDescription& scene,
                                std::span<const int> followed_lines) {
  std::optional<double> density;
  refusal_ = ScanComponents(
      target, scene, {"TriangularFEMForceField", "TriangularFEMForceFieldOptim"}, density,
      [&](const std::string& path, const ElementDescription& element) -> std::string {
        std::string why;
        auto* field = OwnField<TriangleFem>(target, path, why);
        if (field == nullptr) return why;
        const std::optional<double> young = OneNumber(element, "youngModulus");
        const std::optional<double> poisson = OneNumber(element, "poissonRatio");
        if (!young || !poisson) return "is not given youngModulus and poissonRatio as one number";
        Fem fem;
        fem.field = field;
        fem.material = {*young, *poisson, 1.0, false};
        fem.optim = element.type == "TriangularFEMForceFieldOptim";
        if (fem.optim) {
          const AttributeText* scale = element.Find("restScale");
          const std::optional<double> value = scale ? OneNumber(element, "restScale") : 1.0;
          if (!value) return "is not given restScale as one number";
          fem.rest_scale = *value;
        } else {
          const AttributeText* method = element.Find("method");
          fem.method = method != nullptr && method->value == "small" ? TriangleFemMethod::kSmall
                                                                     : TriangleFemMethod::kLarge;
        }
        fems_.push_back(std::move(fem));
        return {};
      },
      followed_lines, /*collisions_follow=*/true);
  if (refusal_.empty() && density) {
    density_ = *density;
    has_mass_ = true;
    weight_ = DensityWeight(target);
  }
}

bool TriangleAdditions::Add(const AdditionTarget& target, Topology& topology,
                            TriangleShells& shells, std::span<const Index> vertices,
                            std::string& why) {
  if (!refusal_.empty()) {
    why = refusal_;
    return false;
  }
  if (!fems_.empty() && target.system.has_matrix_layout()) {
    why = kBuiltPattern;
    return false;
  }
  const auto points = static_cast<Index>(topology.points.size());
  for (const Index v : vertices)
    if (v < 0 || v >= points) {
      why = "a vertex is not a point of the topology (the rebuild reports it)";
      return false;
    }
  // The new elements first: a flat one leaves everything as it was.
  const Vector& rest = target.node.rest_position;
  const auto point = [&](Index v) -> Eigen::Vector3d { return rest.segment<3>(3 * v); };
  for (Fem& fem : fems_) {
    fem.added.clear();
    for (std::size_t k = 0; k + 3 <= vertices.size(); k += 3) {
      const Eigen::Vector3d a = point(vertices[k]), b = point(vertices[k + 1]),
                            c = point(vertices[k + 2]);
      const TriangleRestShape shape = fem.optim ? ScaledLargeRest(a, b, c, fem.rest_scale)
                                      : fem.method == TriangleFemMethod::kSmall
                                          ? SmallRest(a, b, c)
                                          : LargeRest(a, b, c);
      const std::array<Index, 3> dof = {target.first_dof + 3 * vertices[k],
                                        target.first_dof + 3 * vertices[k + 1],
                                        target.first_dof + 3 * vertices[k + 2]};
      TriangleFem::Element element;
      if (!TriangleFem::MakeElement(dof, shape.b, shape.c, shape.area, fem.material, element)) {
        why = "a new triangle is flat at rest (the rebuild reports it)";
        return false;
      }
      fem.added.push_back(element);
    }
  }
  if (!shells.Add(topology, vertices, done_)) {
    why =
        "a new triangle repeats a vertex, or an edge of the topology is no triangle's side (its "
        "sides are found through the triangles)";
    return false;
  }
  for (Fem& fem : fems_) fem.field->AppendElements(fem.added);
  mass_dofs_.clear();
  masses_.clear();
  if (has_mass_) {
    touched_.assign(vertices.begin(), vertices.end());
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    const auto& rest_points = target.rest_points;
    SetVertexMasses(
        target, density_, weight_, touched_, around_, 3.0,
        [&](Index v) -> const std::vector<Index>& { return shells.TrianglesAroundVertex(v); },
        [&](Index t) {
          const auto& triangle = topology.triangles[static_cast<std::size_t>(t)];
          return TriangleArea(rest_points[static_cast<std::size_t>(triangle[0])],
                              rest_points[static_cast<std::size_t>(triangle[1])],
                              rest_points[static_cast<std::size_t>(triangle[2])]);
        },
        mass_dofs_, masses_);
  }
  TellSolver(target, mass_dofs_, masses_);
  return true;
}

// --- Tetrahedra --------------------------------------------------------------------------------

void TetrahedronAdditions::Prepare(const AdditionTarget& target, const SceneDescription& scene,
                                   const std::function<bool(int)>& claimed) {
  std::optional<double> density;
  refusal_ = ScanComponents(
      target, scene, {"TetrahedronFEMForceField", "TetrahedralCorotationalFEMForceField"}, density,
      [&](const std::string& path, const ElementDescription& element) -> std::string {
        std::string why;
        auto* field = OwnField<TetrahedronFem>(target, path, why);
        if (field == nullptr) return why;
        const std::optional<double> young = OneNumber(element, "youngModulus");
        const std::optional<double> poisson = OneNumber(element, "poissonRatio");
        if (!young || !poisson) return "is not given youngModulus and poissonRatio as one number";
        fems_.push_back({field, *young, *poisson, {}});
        return {};
      },
      {}, /*collisions_follow=*/true, claimed);
  if (refusal_.empty() && density) {
    density_ = *density;
    has_mass_ = true;
    weight_ = DensityWeight(target);
  }
}

bool TetrahedronAdditions::Add(const AdditionTarget& target, Topology& topology,
                               TetrahedronShells& shells, std::span<const Index> vertices,
                               std::string& why) {
  if (!refusal_.empty()) {
    why = refusal_;
    return false;
  }
  if (!fems_.empty() && target.system.has_matrix_layout()) {
    why = kBuiltPattern;
    return false;
  }
  const auto points = static_cast<Index>(topology.points.size());
  new_tetrahedra_.clear();
  for (std::size_t k = 0; k + 4 <= vertices.size(); k += 4) {
    for (std::size_t a = 0; a < 4; ++a)
      if (vertices[k + a] < 0 || vertices[k + a] >= points) {
        why = "a vertex is not a point of the topology (the rebuild reports it)";
        return false;
      }
    new_tetrahedra_.push_back({vertices[k], vertices[k + 1], vertices[k + 2], vertices[k + 3]});
  }
  // The new elements first (TetrahedronFem::RestElements, as the build makes them): one of zero
  // rest volume leaves everything as it was.
  for (Fem& fem : fems_) {
    young_.assign(new_tetrahedra_.size(), fem.young);
    poisson_.assign(new_tetrahedra_.size(), fem.poisson);
    if (TetrahedronFem::RestElements(fem.field->method(), new_tetrahedra_,
                                     target.node.rest_position, target.first_dof, young_, poisson_,
                                     fem.added) >= 0) {
      why = "a new tetrahedron has zero rest volume (the rebuild reports it)";
      return false;
    }
  }
  if (!shells.Add(topology, vertices, done_)) {
    why =
        "a new tetrahedron repeats a vertex, or the container lists no faces or edges, or some "
        "outside the tetrahedra (they are found through the tetrahedra)";
    return false;
  }
  for (Fem& fem : fems_) fem.field->AppendElements(fem.added);
  mass_dofs_.clear();
  masses_.clear();
  if (has_mass_) {
    touched_.assign(vertices.begin(), vertices.end());
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    const auto& rest_points = target.rest_points;
    SetVertexMasses(
        target, density_, weight_, touched_, around_, 4.0,
        [&](Index v) -> const std::vector<Index>& { return shells.TetrahedraAroundVertex(v); },
        [&](Index t) {
          const auto& tet = topology.tetrahedra[static_cast<std::size_t>(t)];
          const auto p = [&](std::size_t a) -> const std::array<double, 3>& {
            return rest_points[static_cast<std::size_t>(tet[a])];
          };
          return TetrahedronVolume(p(0), p(1), p(2), p(3));
        },
        mass_dofs_, masses_);
  }
  TellSolver(target, mass_dofs_, masses_);
  return true;
}

}  // namespace fluxion::internal
