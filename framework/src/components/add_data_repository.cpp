#include "components/add_data_repository.h"

namespace fluxion::internal {

ComponentSpec AddDataRepositoryComponent::Spec() {
  return ComponentSpec{
      .name = "AddDataRepository",
      .kind = ComponentKind::kLoader,
      .summary = "Adds a folder (below the scene's readable folders) where files are looked up",
      .fields = {FieldSpec::Text("path", "", "the folder, relative to the scene's folder")},
      .aliases = {}};
}

void AddDataRepositoryComponent::Build(BuildContext& context) {
  const std::string& path = context.parameters().text("path");
  if (path.empty()) {
    context.Error("AddDataRepository without 'path' (expected a folder)");
    return;
  }
  context.AddInputFolder(path);
}

}  // namespace fluxion::internal
