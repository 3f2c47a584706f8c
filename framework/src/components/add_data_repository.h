// SOFA's AddDataRepository: one more folder where the scene's files (meshes, …) are looked up.
// Source: Sofa/Component/SceneUtility/src/sofa/component/sceneutility/AddResourceRepository.cpp
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// `path` is appended to the folders the scene's files are looked up in, for every component of
/// the scene (SOFA adds it when the scene is parsed, before any loader runs; Fluxion applies it
/// in the read pass, as a loader). A relative path is taken from the scene's folder (SOFA: from
/// the current folder, which is the scene's while SOFA loads it).
/// Deviation: the folder must lie inside a folder the scene may already read (its own, a
/// --data-path, a SOFA tree's share/ or examples/): a scene never widens what it may read.
class AddDataRepositoryComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
