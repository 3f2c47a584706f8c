#include "scene/builtin_components.h"

#include <array>

#include "linear/cg_linear_solver.h"
#include "linear/ldl_linear_solver.h"

namespace fluxion::internal {

bool IsIgnoredAttribute(const std::string& name) {
  static const std::array<const char*, 9> kBookkeeping = {
      "listening", "printLog",  "tags",    "bbox",    "componentState",
      "color",     "isToPrint", "verbose", "notMuted"};
  if (name.rfind("show", 0) == 0 || name.rfind("draw", 0) == 0) return true;
  if (name.rfind("_", 0) == 0 || name.rfind("NO", 0) == 0) return true;
  for (const char* ignored : kBookkeeping)
    if (name == ignored) return true;
  return false;
}

ComponentSpec NodeSpec() {
  return ComponentSpec{
      .name = "Node",
      .kind = ComponentKind::kNode,
      .summary = "A node of the scene graph; a solver in a node integrates the node's subtree",
      .fields = {FieldSpec::Text("name", "", "node name; the CSV ids join node names with '/'"),
                 FieldSpec::Real("dt", 0.01, "time step [s] (root node; children inherit it)")
                     .GreaterThan(0),
                 FieldSpec::RealList("gravity",
                                     "gravity [m/s²], always 3 numbers; Vec1/Vec2 objects use the "
                                     "first 1/2 (root node; children inherit it)")
                     .DefaultText("0 -9.81 0"),
                 FieldSpec::Real("time", 0.0, "start time [s]"),
                 FieldSpec::Bool("animate", false, "SOFA option, ignored"),
                 FieldSpec::Bool("multiThreadSimulation", false, "SOFA option, ignored"),
                 FieldSpec::Bool("activated", true,
                                 "SOFA option; only activated nodes are supported")},
      .aliases = {}};
}

namespace {

ComponentSpec MechanicalObjectSpec() {
  return ComponentSpec{
      .name = "MechanicalObject",
      .kind = ComponentKind::kState,
      .summary = "The DOFs of a node: points with positions and velocities (Vec1d, Vec2d or Vec3d)",
      .fields =
          {FieldSpec::Choice("template", "Vec3d",
                             {"Vec1d", "Vec2d", "Vec3d", "Vec1", "Vec2", "Vec3"},
                             "point type: 1, 2 or 3 coordinates per point"),
           FieldSpec::RealList("position",
                               "initial positions [m], one vector per point (default: the node's "
                               "topology points, else one point at the origin)"),
           FieldSpec::RealList(
               "velocity",
               "initial velocities [m/s]; shorter than position: zero-filled (SOFA); "
               "one velocity with topology points: broadcast"),
           FieldSpec::RealList("rest_position", "rest positions [m] (default: position)"),
           FieldSpec::RealList("externalForce",
                               "force on each point [N], applied during the first step only "
                               "(SOFA clears it after each step)"),
           FieldSpec::RealList("force", "SOFA output vector; must be empty or zero if given"),
           FieldSpec::Integer("size", 0, "number of points when no position is given").AtLeast(0),
           FieldSpec::RealList("translation", "translation applied to the positions [m], 3 numbers")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("rotation",
                               "rotation applied to the positions, Euler angles X, Y, Z [degrees]")
               .DefaultText("0 0 0"),
           FieldSpec::RealList("scale3d", "scale applied to the positions, 3 numbers")
               .DefaultText("1 1 1"),
           FieldSpec::Real("dx", 0.0, "legacy translation along x [m]"),
           FieldSpec::Real("dy", 0.0, "legacy translation along y [m]"),
           FieldSpec::Real("dz", 0.0, "legacy translation along z [m]"),
           FieldSpec::Real("restScale", 1.0,
                           "scale of the rest position when it defaults to position")},
      .aliases = {}};
}

ComponentSpec UniformMassSpec() {
  return ComponentSpec{
      .name = "UniformMass",
      .kind = ComponentKind::kMass,
      .summary =
          "The same lumped mass on every point of the node's object; gravity acts through it",
      .fields = {FieldSpec::OptionalReal("vertexMass", "mass of each point [kg]").AtLeast(0),
                 FieldSpec::OptionalReal("totalMass",
                                         "total mass [kg], spread evenly (wins over vertexMass)")
                     .AtLeast(0),
                 FieldSpec::Bool("separateGravity", false,
                                 "SOFA option: only the default (gravity as a force) is supported"),
                 FieldSpec::Bool("compute_mapping_inertia", false, "SOFA option, ignored"),
                 FieldSpec::Bool("preserveTotalMass", false, "SOFA option, ignored")},
      .aliases = {}};
}

ComponentSpec DiagonalMassSpec() {
  return ComponentSpec{
      .name = "DiagonalMass",
      .kind = ComponentKind::kMass,
      .summary = "A lumped mass per point, given point by point",
      .fields =
          {FieldSpec::RealList("vertexMass", "mass of each point [kg], one per point").AtLeast(0),
           FieldSpec::OptionalReal("totalMass", "total mass [kg]: not supported (give vertexMass)"),
           FieldSpec::OptionalReal("massDensity", "mass density: not supported (give vertexMass)"),
           FieldSpec::Bool("computeMassOnRest", true, "SOFA option, ignored")},
      .aliases = {}};
}

std::vector<FieldSpec> SpringLinkFields() {
  return {
      FieldSpec::Link("object1", "the object holding the first end of each spring (default @./)"),
      FieldSpec::Link("object2", "the object holding the second end of each spring (default @./)"),
      FieldSpec::Bool("exactDampingJacobian", false,
                      "Fluxion extension: also provide the dashpots' velocity Jacobian B to "
                      "implicit solvers (SOFA treats kd explicitly)")};
}

ComponentSpec SpringForceFieldSpec() {
  ComponentSpec spec{
      .name = "SpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs with dashpots between pairs of points (SOFA's formulas and tangent)",
      .fields = {FieldSpec::RealList(
                     "spring",
                     "springs as 'i j ks kd L0' records: point i of object1, point "
                     "j of object2, stiffness [N/m], damping [N·s/m], rest length [m]"),
                 FieldSpec::IndexList("indices1", "first ends (alternative to 'spring')")
                     .Alias("springsIndices1"),
                 FieldSpec::IndexList("indices2", "second ends (alternative to 'spring')")
                     .Alias("springsIndices2"),
                 FieldSpec::RealList("stiffness", "stiffness per spring (one value: all) [N/m]")
                     .DefaultText("100"),
                 FieldSpec::RealList("damping", "damping per spring (one value: all) [N·s/m]")
                     .DefaultText("5"),
                 FieldSpec::RealList("lengths", "rest length per spring (one value: all) [m]")
                     .Alias("length")},
      .aliases = {"StiffSpringForceField"}};
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

std::vector<FieldSpec> ElementSpringFields(const char* kind, double default_stiffness,
                                           double default_damping, const char* alias = nullptr) {
  const std::string name = kind;
  FieldSpec stiffness =
      FieldSpec::Real(name + "Stiffness", default_stiffness,
                      "stiffness of the springs of " + name + " (divided by L0) [N]")
          .AtLeast(0);
  FieldSpec damping =
      FieldSpec::Real(name + "Damping", default_damping,
                      "damping of the springs of " + name + " (divided by L0) [N·s]")
          .AtLeast(0);
  if (alias != nullptr) {
    stiffness.Alias(std::string(alias) + "Stiffness");
    damping.Alias(std::string(alias) + "Damping");
  }
  return {stiffness, damping};
}

ComponentSpec MeshSpringForceFieldSpec() {
  ComponentSpec spec{
      .name = "MeshSpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs on every vertex pair of the node topology's elements (ks = stiffness/L0)",
      .fields = {},
      .aliases = {}};
  for (auto [kind, alias] : {std::pair<const char*, const char*>{"lines", nullptr},
                             {"triangles", nullptr},
                             {"quads", nullptr},
                             {"tetrahedra", "tetras"},
                             {"cubes", nullptr}}) {
    for (FieldSpec& field : ElementSpringFields(kind, 0.0, 0.0, alias))
      spec.fields.push_back(field);
  }
  spec.fields.push_back(
      FieldSpec::OptionalReal("stiffness", "sets every *Stiffness at once [N]").AtLeast(0));
  spec.fields.push_back(
      FieldSpec::OptionalReal("damping", "sets every *Damping at once [N·s]").AtLeast(0));
  spec.fields.push_back(FieldSpec::Bool("noCompression", false, "only supported as 0"));
  spec.fields.push_back(FieldSpec::Link("topology", "the topology (default: the node's)"));
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

ComponentSpec RegularGridSpringForceFieldSpec() {
  ComponentSpec spec{
      .name = "RegularGridSpringForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs along the edges and diagonals of the node's RegularGridTopology",
      .fields = {},
      .aliases = {}};
  for (const char* kind : {"lines", "quads", "cubes"})
    for (FieldSpec& field : ElementSpringFields(kind, 100.0, 5.0)) spec.fields.push_back(field);
  for (FieldSpec& field : SpringLinkFields()) spec.fields.push_back(std::move(field));
  return spec;
}

ComponentSpec RegularGridTopologySpec() {
  return ComponentSpec{
      .name = "RegularGridTopology",
      .kind = ComponentKind::kTopology,
      .summary =
          "A regular grid of nx×ny×nz points between min and max, with its lines, quads and "
          "hexahedra",
      .fields =
          {FieldSpec::IndexList("n", "number of points along x, y, z").DefaultText("2 2 2"),
           FieldSpec::RealList("min", "first corner [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("max", "opposite corner [m]").DefaultText("1 1 1"),
           FieldSpec::OptionalReal("nx", "legacy: points along x").AtLeast(1),
           FieldSpec::OptionalReal("ny", "legacy: points along y").AtLeast(1),
           FieldSpec::OptionalReal("nz", "legacy: points along z").AtLeast(1),
           FieldSpec::OptionalReal("xmin", "legacy: min x [m]"),
           FieldSpec::OptionalReal("ymin", "legacy: min y [m]"),
           FieldSpec::OptionalReal("zmin", "legacy: min z [m]"),
           FieldSpec::OptionalReal("xmax", "legacy: max x [m]"),
           FieldSpec::OptionalReal("ymax", "legacy: max y [m]"),
           FieldSpec::OptionalReal("zmax", "legacy: max z [m]"),
           FieldSpec::RealList("p0", "SOFA option: only supported as 0 0 0").DefaultText("0 0 0"),
           FieldSpec::Bool("computeHexaList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeQuadList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeEdgeList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeTriangleList", true, "SOFA option, ignored")},
      .aliases = {}};
}

ComponentSpec FixedProjectiveConstraintSpec() {
  return ComponentSpec{
      .name = "FixedProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Fixes points: their DOFs are projected out of every increment (SOFA semantics)",
      .fields = {FieldSpec::IndexList("indices", "points to fix").DefaultText("0"),
                 FieldSpec::Bool("fixAll", false, "fix every point of the object"),
                 FieldSpec::Bool("activate_projectVelocity", false,
                                 "also zero the velocity of fixed points")},
      .aliases = {"FixedConstraint"}};
}

ComponentSpec ConstantForceFieldSpec() {
  return ComponentSpec{
      .name = "ConstantForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A constant force on chosen points",
      .fields = {FieldSpec::IndexList("indices", "points the forces act on (default: all)"),
                 FieldSpec::RealList("forces", "one force vector per index [N]"),
                 FieldSpec::RealList("force", "one force vector applied to every index [N]"),
                 FieldSpec::RealList("totalForce",
                                     "a force vector spread evenly over the indices [N]"),
                 FieldSpec::Bool("indexFromEnd", false, "count indices from the last point")},
      .aliases = {}};
}

// SOFA's LinearForceField: its field is `points` (no default: no force); `indices` is accepted too.
ComponentSpec LinearForceFieldSpec() {
  return ComponentSpec{
      .name = "LinearForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A force on chosen points, linearly interpolated between key forces at key times",
      .fields = {FieldSpec::IndexList("points",
                                      "points the force acts on (default: none, as in SOFA)")
                     .Alias("indices"),
                 FieldSpec::Real("force", 1.0,
                                 "multiplier of the interpolated force (as in SOFA, not of the "
                                 "last key's force, held from the last key time on)"),
                 FieldSpec::RealList("times", "key times, strictly increasing [s]"),
                 FieldSpec::RealList("forces", "one force vector per key time [N]"),
                 FieldSpec::Real("arrowSizeCoef", 0.0, "display only, ignored")},
      .aliases = {}};
}

// Fluxion's own: Fazarinc's driving force A·cos(ωt + φ) (seed 003, eqs. 6–10).
ComponentSpec SinusoidalForceFieldSpec() {
  return ComponentSpec{
      .name = "SinusoidalForceField",
      .kind = ComponentKind::kForceField,
      .summary = "A force A·cos(ωt + φ) on chosen points (Fazarinc's driving force)",
      .fields = {FieldSpec::IndexList("indices", "points the force acts on (default: all)"),
                 FieldSpec::RealList("amplitude",
                                     "A: one force vector for every index, or one per index [N]"),
                 FieldSpec::OptionalReal("omega", "angular frequency ω [rad/s]").AtLeast(0),
                 FieldSpec::Real("phase", 0.0, "phase φ [rad]")},
      .aliases = {}};
}

ComponentSpec UniformVelocityDampingSpec() {
  return ComponentSpec{
      .name = "UniformVelocityDampingForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Linear drag f = −c·v on every point",
      .fields =
          {FieldSpec::Real("dampingCoefficient", 0.1, "c [N·s/m]").AtLeast(0).Alias("damping"),
           FieldSpec::Bool("implicit", false, "give implicit solvers the damping matrix B = c·I")},
      .aliases = {}};
}

ComponentSpec RequiredPluginSpec() {
  return ComponentSpec{
      .name = "RequiredPlugin",
      .kind = ComponentKind::kLoader,
      .summary =
          "Requires plugins by name: Fluxion plugins from the search path; SOFA module names "
          "(Sofa.*) are accepted when the scene's components are available",
      .fields = {FieldSpec::Text("pluginName", "", "plugin names, separated by spaces"),
                 FieldSpec::Bool("stopAfterFirstNameFound", false, "SOFA option, ignored"),
                 FieldSpec::Bool("stopAfterFirstSuffixFound", true, "SOFA option, ignored"),
                 FieldSpec::Bool("requireOne", false, "SOFA option, ignored"),
                 FieldSpec::Bool("requireAll", true, "SOFA option, ignored"),
                 FieldSpec::Text("suffixMap", "", "SOFA option, ignored")},
      .aliases = {}};
}

ComponentSpec Ignored(const char* name, const char* summary) {
  return ComponentSpec{.name = name,
                       .kind = ComponentKind::kIgnored,
                       .summary = summary,
                       .fields = {},
                       .aliases = {}};
}

}  // namespace

std::vector<ComponentSpec> BuiltinComponentSpecs() {
  std::vector<ComponentSpec> specs = {
      MechanicalObjectSpec(),     UniformMassSpec(),
      DiagonalMassSpec(),         SpringForceFieldSpec(),
      MeshSpringForceFieldSpec(), RegularGridSpringForceFieldSpec(),
      RegularGridTopologySpec(),  FixedProjectiveConstraintSpec(),
      ConstantForceFieldSpec(),   UniformVelocityDampingSpec(),
      LinearForceFieldSpec(),     SinusoidalForceFieldSpec(),
      CgLinearSolver::Spec(),     LdlLinearSolver::Spec(),
      RequiredPluginSpec(),
  };
  for (const char* visual :
       {"VisualStyle", "OglModel", "VisualModel", "DefaultVisualManagerLoop", "InteractiveCamera",
        "LightManager", "SpotLight", "DirectionalLight", "PositionalLight", "OglSceneFrame",
        "BackgroundSetting", "AttachBodyButtonSetting", "VisualGrid", "LineAxis"})
    specs.push_back(Ignored(visual, "visual only: accepted and ignored"));
  specs.push_back(Ignored("DefaultAnimationLoop",
                          "SOFA's default loop: accepted and ignored (Fluxion always runs it)"));
  return specs;
}

}  // namespace fluxion::internal
