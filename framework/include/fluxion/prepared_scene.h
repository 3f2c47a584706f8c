// Build once, run many: a scene read and validated once (Host::Prepare), then built as many times
// as needed with some of its data replaced (PreparedScene::Instantiate) — a parameter sweep's
// cases, fluxion-analyze's refinement runs — without reading or parsing the XML again.
//
//   fluxion::PreparedScene cloth = host.Prepare("scenes/cloth_grid.scn");
//   for (const char* ks : {"100", "200", "400"}) {
//     fluxion::Simulation sim =
//         cloth.Instantiate({{"root/cloth/MeshSpringForceField.linesStiffness", ks}});
//     sim.Run(100);
//   }
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/simulation.h"

namespace fluxion {

namespace internal {
struct PreparedSceneData;
}

/// One value of a prepared scene replaced: the attribute `path` names, set to `value` as if the
/// scene's XML had `value` written there.
struct DataOverride {
  /// "node/path/object.data": a component by its node's path and its name — an unnamed component
  /// by its type, as trajectory column ids name objects ("root/cloth/MeshSpringForceField.
  /// linesStiffness", "root/cloth/dofs.position") —, a node's own data by its path
  /// ("root.gravity"), or "dt" (the root node's dt). The data may be named by any of its
  /// aliases; an attribute the element already has under another alias is replaced.
  std::string path;
  /// The attribute's text exactly as the XML would hold it ("250", "0 -9.81 0").
  std::string value;
};

/// A scene file read, parsed and validated once, with the load options it was prepared with.
/// Instantiate builds a new, independent Simulation from it each time. Movable and copyable (the
/// parsed scene is shared, immutable); keeps what it needs (plugin code included) alive after the
/// Host that prepared it is gone. Instantiate is safe to call from several threads at once.
class FLUXION_API PreparedScene {
 public:
  PreparedScene(const PreparedScene&);
  PreparedScene& operator=(const PreparedScene&);
  PreparedScene(PreparedScene&&) noexcept;
  PreparedScene& operator=(PreparedScene&&) noexcept;
  ~PreparedScene();

  /// Builds the scene with `overrides` applied in order (a later one for the same attribute
  /// wins) and, when given, `solver` replacing every solver node's ODE solver (as
  /// LoadOptions::solver, over the one the scene was prepared with). The result is the
  /// simulation Host::LoadFile gives for the XML with those values written in, bit for bit.
  /// Values are validated as the XML's are: a bad value throws the SceneError the XML would
  /// give (FILE:LINE of the element or attribute). A path that names no node, no component, or
  /// several components, or data the component does not declare, throws SceneError at the
  /// scene's file (line 0) naming the override and what exists; PluginError as LoadFile.
  Simulation Instantiate(const std::vector<DataOverride>& overrides = {},
                         const std::optional<SolverChoice>& solver = std::nullopt) const;

  /// The scene file as given to Prepare (for messages).
  const std::string& file() const;

 private:
  friend class Host;
  // Not exported: only the library makes prepared scenes (no internal type in its symbol table).
  FLUXION_NO_EXPORT explicit PreparedScene(std::shared_ptr<const internal::PreparedSceneData> data);
  std::shared_ptr<const internal::PreparedSceneData> data_;
};

}  // namespace fluxion
