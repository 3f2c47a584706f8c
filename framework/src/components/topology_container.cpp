// Sources: Sofa/Component/Topology/Container/Constant/src/sofa/component/topology/container/
//          constant/MeshTopology.cpp (init, EdgeUpdate);
//          …/container/dynamic/*SetTopologyContainer.*
//          Sofa/framework/Core/src/sofa/core/topology/Topology.cpp (edge order in elements).
//          …/container/dynamic/{Tetrahedron,Hexahedron}SetTopologyContainer.cpp
//          (createTriangleSetArray, createQuadSetArray: the faces derived from volumes).
// Deviations: prisms and pyramids are refused (no Fluxion component uses them).
#include "components/topology_container.h"
#include "components/point_selection.h"

#include "fluxion/errors.h"
#include "mechanics/topology_elements.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

namespace {

struct ElementField {
  const char* name;
  int size;
  ContainerLevel level;
};

constexpr ElementField kElementFields[] = {
    {"edges", 2, ContainerLevel::kEdges},         {"triangles", 3, ContainerLevel::kTriangles},
    {"quads", 4, ContainerLevel::kQuads},         {"tetrahedra", 4, ContainerLevel::kTetrahedra},
    {"hexahedra", 8, ContainerLevel::kHexahedra},
};

// The element lists a container has as its data, SOFA's class hierarchy: EdgeSet < PointSet,
// TriangleSet and QuadSet < EdgeSet, TetrahedronSet < TriangleSet, HexahedronSet < QuadSet
// (a HexahedronSetTopologyContainer has no triangles: src="@grid" does not give it the grid's).
bool Accepts(ContainerLevel container, ContainerLevel field) {
  if (container == ContainerLevel::kAll || field == container) return true;
  switch (field) {
    case ContainerLevel::kEdges:
      return container != ContainerLevel::kPoints;
    case ContainerLevel::kTriangles:
      return container == ContainerLevel::kTetrahedra;
    case ContainerLevel::kQuads:
      return container == ContainerLevel::kHexahedra;
    default:
      return false;
  }
}

template <std::size_t N>
bool ReadElements(BuildContext& context, const char* field, std::vector<std::array<Index, N>>& out,
                  Index points) {
  const std::vector<Index>& list = context.parameters().indices(field);
  if (list.size() % N != 0) {
    context.Error(context.type() + " '" + field + "' has " + std::to_string(list.size()) +
                  " indices, not a multiple of " + std::to_string(N) + " (" + std::to_string(N) +
                  " per element)");
    return false;
  }
  for (std::size_t k = 0; k < list.size(); ++k)
    if (points > 0 && list[k] >= points) {
      context.Error(context.type() + " '" + field + "' uses point " + std::to_string(list[k]) +
                    " (expected indices below the " + std::to_string(points) + " points)");
      return false;
    }
  out.resize(list.size() / N);
  for (std::size_t e = 0; e < out.size(); ++e)
    for (std::size_t v = 0; v < N; ++v) out[e][v] = list[e * N + v];
  return true;
}

}  // namespace

ComponentSpec TopologyContainerSpec(std::string name, std::string summary, ContainerLevel level) {
  ComponentSpec spec{.name = std::move(name),
                     .kind = ComponentKind::kTopology,
                     .summary = std::move(summary),
                     .fields = {FieldSpec::RealList("position", "points [m], 3 coordinates each")},
                     .aliases = {}};
  spec.fields.back().Alias("points");
  for (const ElementField& field : kElementFields)
    if (Accepts(level, field.level))
      spec.fields.push_back(FieldSpec::IndexList(
          field.name, "elements, " + std::to_string(field.size) + " point indices each"));
  // SOFA's MeshTopology aliases.
  for (FieldSpec& field : spec.fields) {
    if (field.name == "edges") field.Alias("lines");
    if (field.name == "tetrahedra") field.Alias("tetras");
    if (field.name == "hexahedra") field.Alias("hexas");
  }
  spec.fields.push_back(FieldSpec::Text("filename", "",
                                        "a mesh file (.obj, .msh, .vtk) whose points and elements "
                                        "this topology takes (SOFA's BaseMeshTopology)")
                            .Alias("fileTopology"));
  if (level == ContainerLevel::kAll) {
    spec.fields.push_back(FieldSpec::IndexList("prisms", "only supported empty"));
    spec.fields.push_back(FieldSpec::IndexList("pyramids", "only supported empty"));
    spec.fields.push_back(
        FieldSpec::RealList("uv", "texture coordinates: no mechanical effect").Alias("texcoords"));
    spec.fields.push_back(FieldSpec::Bool("computeAllBuffers", false, "SOFA option, ignored"));
  } else {
    spec.fields.push_back(
        FieldSpec::Integer("nbPoints", 0, "points when no position is given").AtLeast(0));
    spec.fields.push_back(FieldSpec::Bool("checkConnexity", false, "SOFA check, ignored"));
    spec.fields.push_back(FieldSpec::Bool("checkTopology", false, "SOFA check, ignored"));
  }
  // SOFA declares these and never reads them: the faces of the volumes are derived anyway.
  if (level == ContainerLevel::kTetrahedra)
    spec.fields.push_back(FieldSpec::Bool(
        "createTriangleArray", false, "SOFA option, ignored: the triangles are always derived"));
  if (level == ContainerLevel::kHexahedra)
    spec.fields.push_back(FieldSpec::Bool("createQuadArray", false,
                                          "SOFA option, ignored: the quads are always derived"));
  spec.fields.push_back(FieldSpec::Link(
      "src",
      "a component whose data of the same names (position, edges, …) this topology takes: "
      "SOFA's src link, e.g. src=\"@loader\""));
  return spec;
}

namespace {

// SOFA's BaseMeshTopology 'filename': the file's mesh, read by its extension.
bool ReadFile(BuildContext& context, Topology& topology) {
  const std::string& name = context.parameters().text("filename");
  const std::string extension = name.substr(std::min(name.rfind('.'), name.size()));
  if (extension != ".obj" && extension != ".msh" && extension != ".vtk") {
    context.Error(context.type() + " 'filename' is '" + name +
                  "' (expected a .obj, .msh or .vtk mesh file)");
    return false;
  }
  const std::optional<BuildContext::InputFile> file = context.ReadInputFile(name);
  if (!file) return false;
  MeshNotes notes;
  try {
    topology = extension == ".obj" ? ReadObjMesh(file->bytes, file->path, false, false, notes)
               : extension == ".msh"
                   ? ReadGmshMesh(file->bytes, file->path, notes)
                   : ReadVtkMesh(file->bytes, file->path, notes, MeshBudgetOf(context));
  } catch (const ConfigError& error) {
    context.Error(context.type() + " cannot read the mesh: " + error.what());
    return false;
  }
  return true;
}

}  // namespace

void BuildTopologyContainer(BuildContext& context) {
  const Parameters& p = context.parameters();
  if (!p.text("filename").empty()) {
    Topology topology;
    if (!ReadFile(context, topology)) return;
    CompleteTopology(topology);
    context.SetTopology(std::move(topology));
    return;
  }
  static const std::vector<double> kNone;
  const std::vector<double>& position = p.has_value("position") ? p.reals("position") : kNone;
  // SOFA reads the list point by point (x y z) and drops an incomplete last point: its
  // BDFOdeSolver_spring1d.scn writes position="1" for a 1-D object, an empty list to SOFA.
  if (position.size() % 3 != 0)
    context.Warn(context.type() + " 'position' has " + std::to_string(position.size()) +
                 " numbers, not a multiple of 3 (x y z per point): the last " +
                 std::to_string(position.size() % 3) + " are ignored, as SOFA does");
  Topology topology;
  const Index points = static_cast<Index>(position.size() / 3);
  if (points + context.topology_points() > context.max_scene_points()) {
    context.Error(context.type() + " has " + std::to_string(points) + " points (expected " +
                  PointLimitText(context, context.max_scene_points()) + ")");
    return;
  }
  for (Index i = 0; i < points; ++i)
    topology.points.push_back({position[3 * i], position[3 * i + 1], position[3 * i + 2]});
  for (const char* volume : {"prisms", "pyramids"})
    if (p.has_value(volume) && !p.indices(volume).empty()) {
      context.Error(context.type() + " '" + volume + "' is not supported (expected none)");
      return;
    }
  bool ok = true;
  const auto read = [&](const char* field, auto& list) {
    if (p.has_value(field)) ok = ReadElements(context, field, list, points) && ok;
  };
  read("edges", topology.edges);
  read("triangles", topology.triangles);
  read("quads", topology.quads);
  read("tetrahedra", topology.tetrahedra);
  read("hexahedra", topology.hexahedra);
  if (!ok) return;
  CompleteTopology(topology);
  context.SetTopology(std::move(topology));
}

}  // namespace fluxion::internal
