// Declarative configuration: a component declares its fields once (name, type, default, help,
// validation); the XML loader, `--param key=value`, `--list-components` and the docs all read
// that one declaration, and the component receives already-validated, typed `Parameters`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/types.h"

namespace fluxion {

/// The value types a field can have. Lists are whitespace-separated in XML.
enum class FieldType {
  kBool,       ///< "0"/"1"/"true"/"false"
  kInteger,    ///< a whole number
  kReal,       ///< a finite double
  kText,       ///< free text (names, file names)
  kChoice,     ///< one of a fixed set of words
  kRealList,   ///< finite doubles, e.g. positions "0 1 0  1 1 0"
  kIndexList,  ///< non-negative whole numbers, e.g. point indices "0 3 7"
  kLink,       ///< a reference to another object or node: "@path/to/object"
};

/// Human-readable name of a field type, as printed by `--list-components`.
FLUXION_API std::string_view FieldTypeName(FieldType type);

/// What kind of component a registered name creates.
enum class ComponentKind {
  kNode,
  kState,
  kTopology,
  kMass,
  kForceField,
  kConstraint,
  kOdeSolver,
  kLinearSolver,
  kLoader,
  kContext,  ///< sets a property of its node's context (SOFA's Gravity)
  /// Computes data that other components take through links ("@box.indices", src="@loader"):
  /// mesh loaders and creators, BoxROI. Built when a link first needs it, else with the
  /// masses, constraints and force fields.
  kEngine,
  kIgnored,  ///< accepted for SOFA compatibility, has no effect (visual components)
  /// Derives the topology of a container from another's (SOFA's topological mappings such as
  /// Tetra2TriangleTopologicalMapping): built with the topologies, after its input, and not
  /// counted as the node's topology.
  kTopologicalMapping,
  /// Watches the running simulation or plays a recording into it (exporters, WriteState,
  /// ReadState): registers an Observer (fluxion/observer.h), built with the force fields.
  kObserver,
  /// Configures the Newton iterations of an ODE solver (SOFA's NewtonRaphsonSolver): never built
  /// itself; the builder hands its fields to the solver of its node or above that declares a
  /// `newtonSolver` link (fluxion/newton_raphson.h).
  kNonlinearSolver,
  /// Makes the MechanicalObject of its node a mapped object of another (SOFA's mechanical
  /// mappings: IdentityMapping, SubsetMapping, BarycentricMapping): built after the objects and
  /// before the systems are laid out, it calls BuildContext::MapObject.
  kMapping,
  /// Geometry for SOFA's collision pipeline (TriangleCollisionModel, SphereCollisionModel…):
  /// never built itself. Inert in a scene without a pipeline — SOFA reaches collision models
  /// only through one — and given to the pipeline's detection in a scene with one.
  kCollisionModel,
  /// Configures how a linear solver's system is stored and refreshed (SOFA's
  /// PreconditionedMatrixFreeSystem, whose assemblingRate sets how often a PCGLinearSolver's
  /// preconditioner is rebuilt): never built; the builder hands its fields to the linear solver.
  kLinearSystem,
  /// A part of SOFA's collision pipeline (CollisionPipeline, its broad and narrow phases, the
  /// intersection method, the contact manager): never built itself; the builder reads their
  /// fields to set up contact detection and response (docs/contact.md).
  kCollisionPipeline,
};

FLUXION_API std::string_view ComponentKindName(ComponentKind kind);

/// The declaration of one component field (an XML attribute).
struct FLUXION_API FieldSpec {
  std::string name;
  FieldType type = FieldType::kReal;
  std::string default_value;         ///< XML text of the default; empty = no value unless given
  std::string help;                  ///< one sentence, units in brackets
  std::vector<std::string> aliases;  ///< other accepted attribute names (SOFA's old names)
  std::vector<std::string> choices;  ///< for kChoice
  std::optional<double> minimum;     ///< inclusive lower bound (kInteger, kReal, kRealList)
  bool minimum_exclusive = false;    ///< the lower bound itself is not allowed
  std::optional<double> maximum;     ///< inclusive upper bound
  /// For kLink fields the scene builder resolves itself: the kind of component the link must
  /// name. Today a link to a kLinearSolver (PCGLinearSolver's `preconditioner`): the builder
  /// creates the linked solver and hands it to the linking one (LinearSolver::AttachLinked), so a
  /// plugin's linear solver can take a preconditioner as the built-in one does. Empty: the
  /// component reads the link's text itself.
  std::optional<ComponentKind> link_target;

  static FieldSpec Bool(std::string name, bool default_value, std::string help);
  static FieldSpec Integer(std::string name, long default_value, std::string help);
  static FieldSpec Real(std::string name, double default_value, std::string help);
  /// A real with no default: absent unless given (see `Parameters::has`).
  static FieldSpec OptionalReal(std::string name, std::string help);
  static FieldSpec Text(std::string name, std::string default_value, std::string help);
  static FieldSpec Choice(std::string name, std::string default_value,
                          std::vector<std::string> choices, std::string help);
  static FieldSpec RealList(std::string name, std::string help);
  static FieldSpec IndexList(std::string name, std::string help);
  static FieldSpec Link(std::string name, std::string help);
  /// A link the builder resolves to a component of kind `target` (see `link_target`).
  static FieldSpec LinkTo(std::string name, ComponentKind target, std::string help);

  FieldSpec& AtLeast(double bound);      ///< value >= bound
  FieldSpec& GreaterThan(double bound);  ///< value > bound
  FieldSpec& AtMost(double bound);       ///< value <= bound
  FieldSpec& Alias(std::string alias);
  FieldSpec& DefaultText(std::string text);  ///< set the default as XML text (lists)
};

/// The declaration of a component type: what the XML element name creates and which fields it has.
struct FLUXION_API ComponentSpec {
  std::string name;  ///< the XML element name, SOFA's class name
  ComponentKind kind = ComponentKind::kForceField;
  std::string summary;  ///< one line: what it models
  std::vector<FieldSpec> fields;
  std::vector<std::string> aliases;  ///< other accepted element names (e.g. FixedConstraint)

  /// The field called `name` or having it as an alias, or nullptr.
  const FieldSpec* FindField(std::string_view name) const;
};

/// A parsed field value.
using FieldValue =
    std::variant<bool, long, double, std::string, std::vector<double>, std::vector<Index>>;

/// Validated, typed values of a component's fields, keyed by the field's canonical name.
///
/// Every declared field with a default has a value; `has()` tells whether the scene gave it.
/// Accessors throw UsageError when the field was not declared or has another type: that is a bug
/// in the component, not bad input.
class FLUXION_API Parameters {
 public:
  Parameters() = default;

  /// True if the scene (or command line) set this field explicitly.
  bool has(std::string_view name) const;
  /// True if the field has a value, given or default.
  bool has_value(std::string_view name) const;

  bool flag(std::string_view name) const;
  long integer(std::string_view name) const;
  double real(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  const std::vector<double>& reals(std::string_view name) const;
  const std::vector<Index>& indices(std::string_view name) const;

  /// The text the value was parsed from (for messages and `--summary` echoes).
  const std::string& source_text(std::string_view name) const;

  /// Used by the framework's parser; components only read.
  void Set(std::string name, FieldValue value, std::string source_text, bool given);

  /// Canonical names of the fields the user set explicitly, sorted.
  std::vector<std::string> given_names() const;

 private:
  struct Entry {
    FieldValue value;
    std::string source_text;
    bool given = false;
  };
  const Entry& Find(std::string_view name) const;
  std::map<std::string, Entry, std::less<>> entries_;
};

/// Parses `attributes` (name -> text) against `spec`: applies defaults, resolves aliases, checks
/// types and bounds. Throws ConfigError naming the first bad or unknown attribute, with a
/// "did you mean" suggestion for misspelt names.
FLUXION_API Parameters ParseParameters(
    const ComponentSpec& spec, const std::vector<std::pair<std::string, std::string>>& attributes);

}  // namespace fluxion
