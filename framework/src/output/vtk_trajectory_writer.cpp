// The ParaView trajectory writer (fluxion/trajectory_writer.h, MakeVtkTrajectoryWriter): a .pvd
// collection of .vtu files, one per object and recorded state, written through the output
// policy. The VTK formats themselves are meshio/vtu_writer.h's; the cells are the topology's
// elements in the order SOFA's VTKExporter writes them (meshio/vtk_cells.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fluxion/output_files.h"
#include "fluxion/trajectory_writer.h"
#include "meshio/vtk_cells.h"
#include "meshio/vtu_writer.h"

namespace fluxion {

namespace {

using internal::VtuArray;
using internal::VtuPiece;

// A per-element output written as a part of its own (its elements are not its object's).
// The sizes of a topology's lists, points first, then edges to hexahedra (all 0 without one).
// A change followed in place (build/topology_in_place.h, build/tetrahedron_in_place.h) edits the
// topology where it is, with no new model when it frees no point, and always removes or adds
// elements (build/addition_in_place.h): a changed size is how a record notices it.
using TopologySizes = std::array<std::size_t, 6>;

TopologySizes SizesOf(const Topology* topology) {
  if (topology == nullptr) return {};
  return {topology->points.size(), topology->edges.size(),      topology->triangles.size(),
          topology->quads.size(),  topology->tetrahedra.size(), topology->hexahedra.size()};
}

constexpr std::size_t kGone = static_cast<std::size_t>(-1);

struct ElementPart {
  // Its index in Simulation::ElementOutputs(), found again at each record by the component and
  // the data name: a rebuild after a topological change leaves out a component with no element
  // left (kGone; the part is then written with no cells, as a change in place leaves it).
  std::size_t output;
  std::string component, name;
  int object = -1;
  std::string file_stem;
  std::optional<internal::VtuCells> cells;
  TopologySizes sizes{};  // of the topology the cells were taken from
  // Its elements then: a Tetra2Triangle surface followed in place (build/mapped_child_in_place.h)
  // may lose and gain as many triangles in one change, its sizes the same.
  Topology elements{};
};

// `part`'s record of the topology its cells come from: its sizes and elements.
void TakeElements(const Topology* topology, ElementPart& part) {
  part.sizes = SizesOf(topology);
  if (topology == nullptr) return;
  part.elements.edges = topology->edges;
  part.elements.triangles = topology->triangles;
  part.elements.quads = topology->quads;
  part.elements.tetrahedra = topology->tetrahedra;
  part.elements.hexahedra = topology->hexahedra;
}

// Whether `topology` has the elements `seen` holds (its points are not compared: sizes are).
bool SameElements(const Topology& topology, const Topology& seen) {
  return topology.edges == seen.edges && topology.triangles == seen.triangles &&
         topology.quads == seen.quads && topology.tetrahedra == seen.tetrahedra &&
         topology.hexahedra == seen.hexahedra;
}

// What stays the same from record to record for one object.
struct ObjectPart {
  std::string file_stem;                    // "<name>_<id with '/' and unsafe characters as '_'>"
  std::optional<internal::VtuCells> cells;  // set by Begin
  std::vector<std::array<Index, 2>> edges;  // the cells that are edges, for the elongation
  std::vector<double> rest_lengths;         // one per edge [m]
  std::vector<double> mass;                 // one per point [kg]
  TopologySizes sizes{};                    // of the topology the cells were taken from
};

// `id` with every character a file name should not hold replaced by '_'.
std::string FileSafe(const std::string& id) {
  std::string out = id;
  for (char& c : out) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.';
    if (!safe) c = '_';
  }
  return out;
}

// Point `i` of a flat vector of `dimension` coordinates per point, padded to 3.
std::array<double, 3> PointAt(const Eigen::Ref<const Vector>& values, int dimension, Index i) {
  std::array<double, 3> p = {0.0, 0.0, 0.0};
  for (int a = 0; a < dimension; ++a) p[static_cast<std::size_t>(a)] = values[i * dimension + a];
  return p;
}

double Distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// A flat vector of `dimension` values per point as 3 per point.
std::vector<double> Padded(const Eigen::Ref<const Vector>& values, int dimension, Index points) {
  std::vector<double> out(static_cast<std::size_t>(points) * 3, 0.0);
  for (Index i = 0; i < points; ++i)
    for (int a = 0; a < dimension; ++a)
      out[static_cast<std::size_t>(i * 3 + a)] = values[i * dimension + a];
  return out;
}

class VtkTrajectoryWriter final : public TrajectoryWriter {
 public:
  explicit VtkTrajectoryWriter(const VtkTrajectoryOptions& options) : options_(options) {}

  void Begin(const Simulation& simulation) override {
    model_ = simulation.shared_model();
    // Every object's file stem, made unique if two ids differ only by unsafe characters.
    std::set<std::string> stems;
    const std::vector<ObjectModel>& objects = simulation.objects();
    for (std::size_t k = 0; k < objects.size(); ++k) {
      const ObjectModel& object = objects[k];
      ObjectPart part;
      part.file_stem = options_.name + "_" + FileSafe(object.id);
      if (!stems.insert(part.file_stem).second) {
        part.file_stem += "_" + std::to_string(k);
        stems.insert(part.file_stem);
      }
      FillPart(simulation, object, part);
      parts_.push_back(std::move(part));
    }
    // A per-element output on another topology than its object's (a force field in a child
    // node whose topology a topological mapping fills) gets a part of its own: the object's
    // points and that topology's elements of the output's type.
    const std::vector<ElementValues> outputs = simulation.ElementOutputs();
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const ElementValues& output = outputs[k];
      if (output.topology == objects[static_cast<std::size_t>(output.object)].topology) continue;
      const Topology& t = *output.topology;
      const ElementType type = output.type;
      ElementPart part{k,
                       output.component,
                       output.name,
                       output.object,
                       options_.name + "_" + FileSafe(output.component),
                       std::nullopt};
      while (!stems.insert(part.file_stem).second) part.file_stem += "_";
      part.cells.emplace(internal::CollectVtkCells(
          t, type == ElementType::kEdge, type == ElementType::kTriangle, type == ElementType::kQuad,
          type == ElementType::kTetrahedron, type == ElementType::kHexahedron));
      TakeElements(&t, part);
      element_parts_.push_back(std::move(part));
    }
    // A scene with a collision pipeline also gets its contacts, as a part of their own.
    if (!simulation.collision_models().empty()) {
      contacts_stem_ = options_.name + "_contacts";
      while (!stems.insert(contacts_stem_).second) contacts_stem_ += "_";
    }
    pvd_ = Open(options_.name + ".pvd");
    if (!pvd_) return;
    const std::string header = internal::PvdHeader();
    Write(pvd_.get(), header + internal::PvdFooter(), options_.name + ".pvd");
    pvd_tail_ = static_cast<long>(header.size());
  }

  // What part `part` writes of `object` besides its state: its cells, its edges with their rest
  // lengths, its points' masses (Begin, and again after a topological change).
  static void FillPart(const Simulation& simulation, const ObjectModel& object, ObjectPart& part) {
    part.cells.reset();
    part.sizes = SizesOf(object.topology.get());
    part.edges.clear();
    part.rest_lengths.clear();
    // Cells: every element of the topology; points without a topology as vertices, so that
    // they show.
    internal::VtkCells cells;
    if (object.topology)
      cells = internal::CollectVtkCells(*object.topology, true, true, true, true, true);
    if (cells.cells.empty()) {
      for (Index i = 0; i < object.num_points; ++i) {
        cells.cells.push_back({i});
        cells.types.push_back(internal::kVtkVertex);
      }
    }
    part.cells.emplace(cells);
    // Edges and their rest lengths, from the rest positions (as mesh springs take theirs).
    const Vector& rest =
        object.rest_position.size() == object.num_dofs() ? object.rest_position : object.position;
    if (object.topology) {
      for (const auto& edge : object.topology->edges) {
        part.edges.push_back(edge);
        part.rest_lengths.push_back(Distance(PointAt(rest, object.dimension, edge[0]),
                                             PointAt(rest, object.dimension, edge[1])));
      }
    }
    part.mass = PointMasses(simulation, object);
  }

  void Record(const Simulation& simulation) override {
    if (!ok_ || !pvd_) return;
    // A topological change (TopologicalChangeProcessor) gave the objects other points and
    // elements: each file of a step holds its own, so the parts are taken again from the new
    // model (the per-element parts too, when the components are the same), or from a topology
    // changed in place (its sizes changed, the model the same).
    const bool new_model = simulation.shared_model() != model_;
    model_ = simulation.shared_model();
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const ObjectModel& object = simulation.objects()[k];
      if (new_model || SizesOf(object.topology.get()) != parts_[k].sizes)
        FillPart(simulation, object, parts_[k]);
    }
    if (!element_parts_.empty()) {
      const std::vector<ElementValues> outputs = simulation.ElementOutputs();
      for (ElementPart& part : element_parts_) {
        const auto found = std::find_if(outputs.begin(), outputs.end(), [&](const auto& o) {
          return o.component == part.component && o.name == part.name;
        });
        if (found == outputs.end() || found->object != part.object) {
          part.output = kGone;
          part.cells.emplace(internal::VtkCells{});
          part.sizes = {};
          continue;
        }
        part.output = static_cast<std::size_t>(found - outputs.begin());
        const ElementValues& output = *found;
        if (!new_model && SizesOf(output.topology.get()) == part.sizes &&
            (output.topology == nullptr || SameElements(*output.topology, part.elements)))
          continue;
        const ElementType type = output.type;
        part.cells.emplace(internal::CollectVtkCells(
            *output.topology, type == ElementType::kEdge, type == ElementType::kTriangle,
            type == ElementType::kQuad, type == ElementType::kTetrahedron,
            type == ElementType::kHexahedron));
        TakeElements(output.topology.get(), part);
      }
    }
    // The force on every solver node's DOFs, once per record.
    forces_.resize(simulation.solver_nodes().size());
    for (std::size_t n = 0; n < forces_.size(); ++n) {
      const SolverNode& node = simulation.solver_nodes()[n];
      forces_[n].resize(node.system->num_dofs());
      node.system->ComputeForce(node.state, forces_[n]);
    }
    // The components' per-element outputs (a FEM force field's von Mises stress), once per record.
    element_outputs_ = simulation.ElementOutputs();
    // The objects' files first, then the collection naming them: it never names a missing file.
    std::string entries;
    char step[32];
    std::snprintf(step, sizeof step, "_%06ld.vtu", simulation.step_count());
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const std::string file = parts_[k].file_stem + step;
      const OutputFile vtu = Open(file);
      if (!vtu) return;
      const std::string text = internal::FormatVtu(
          Piece(simulation, static_cast<int>(k)), *parts_[k].cells,
          options_.compress ? internal::VtuEncoding::kZlibBinary : internal::VtuEncoding::kAscii);
      if (!Write(vtu.get(), text, file)) return;
      entries += internal::PvdDataSet(simulation.time(), static_cast<int>(k),
                                      simulation.objects()[k].id, file);
    }
    for (std::size_t p = 0; p < element_parts_.size(); ++p) {
      const ElementPart& part = element_parts_[p];
      const std::string file = part.file_stem + step;
      const OutputFile vtu = Open(file);
      if (!vtu) return;
      const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(part.object)];
      VtuPiece piece;
      piece.points = Padded(simulation.position(part.object), object.dimension, object.num_points);
      // No element left: no array, as a scene built without them has none.
      if (part.output != kGone && !element_outputs_[part.output].values.empty())
        piece.cell_data.push_back({part.name, 1, element_outputs_[part.output].values});
      const std::string text = internal::FormatVtu(
          piece, *part.cells,
          options_.compress ? internal::VtuEncoding::kZlibBinary : internal::VtuEncoding::kAscii);
      if (!Write(vtu.get(), text, file)) return;
      entries += internal::PvdDataSet(simulation.time(), static_cast<int>(parts_.size() + p),
                                      part.component, file);
    }
    if (!contacts_stem_.empty()) {
      const std::string file = contacts_stem_ + step;
      const OutputFile vtu = Open(file);
      if (!vtu) return;
      if (!Write(vtu.get(), ContactsVtu(simulation), file)) return;
      entries += internal::PvdDataSet(simulation.time(),
                                      static_cast<int>(parts_.size() + element_parts_.size()),
                                      "contacts", file);
    }
    // Appended before the footer, which is written again after them.
    if (std::fseek(pvd_.get(), pvd_tail_, SEEK_SET) != 0) {
      Fail("cannot extend '" + Path(options_.name + ".pvd") + "' (expected a seekable file)");
      return;
    }
    if (!Write(pvd_.get(), entries + internal::PvdFooter(), options_.name + ".pvd")) return;
    pvd_tail_ += static_cast<long>(entries.size());
  }

  bool ok() const override { return ok_; }
  std::string error() const override { return error_; }

 private:
  // Each point's mass: the row sums of the mass matrix over the point's first DOF (the diagonal
  // of a lumped mass, the lumped equivalent of a consistent one); 0 for a static object. A
  // diagonal mass is read as its diagonal (the same values): M itself would build the system's
  // whole matrix pattern, which an explicit or matrix-free run never needs (and which a change
  // of topology followed in place would then have to renumber).
  static std::vector<double> PointMasses(const Simulation& simulation, const ObjectModel& object) {
    std::vector<double> mass(static_cast<std::size_t>(object.num_points), 0.0);
    if (object.system < 0) return mass;
    const MechanicalSystem& system =
        *simulation.solver_nodes()[static_cast<std::size_t>(object.system)].system;
    const Vector row_sums = system.is_mass_diagonal()
                                ? system.mass_diagonal()
                                : Vector(system.mass() * Vector::Ones(system.num_dofs()));
    for (Index i = 0; i < object.num_points; ++i)
      mass[static_cast<std::size_t>(i)] = row_sums[object.offset + i * object.dimension];
    return mass;
  }

  VtuPiece Piece(const Simulation& simulation, int k) const {
    const ObjectModel& object = simulation.objects()[static_cast<std::size_t>(k)];
    const ObjectPart& part = parts_[static_cast<std::size_t>(k)];
    const Eigen::Map<const Vector> x = simulation.position(k);
    VtuPiece piece;
    piece.points = Padded(x, object.dimension, object.num_points);
    piece.point_data.push_back(
        {"velocity", 3, Padded(simulation.velocity(k), object.dimension, object.num_points)});
    std::vector<double> force(static_cast<std::size_t>(object.num_points) * 3, 0.0);
    if (object.system >= 0)
      force = Padded(forces_[static_cast<std::size_t>(object.system)].segment(object.offset,
                                                                              object.num_dofs()),
                     object.dimension, object.num_points);
    piece.point_data.push_back({"force", 3, std::move(force)});
    piece.point_data.push_back({"mass", 1, part.mass});
    if (!part.edges.empty()) {
      // The edges are the first cells (SOFA's order); the other cells get 0.
      std::vector<double> elongation(part.cells->size(), 0.0);
      for (std::size_t e = 0; e < part.edges.size(); ++e)
        elongation[e] = Distance(PointAt(x, object.dimension, part.edges[e][0]),
                                 PointAt(x, object.dimension, part.edges[e][1])) -
                        part.rest_lengths[e];
      piece.cell_data.push_back({"elongation", 1, std::move(elongation)});
    }
    AddElementOutputs(object, k, *part.cells, piece);
    return piece;
  }

  // Each per-element output on this object's own topology as cell data named as SOFA names the
  // data ("vonMisesPerElement"; "<name> (<component>)" when two components give one name): the
  // value of element e of its type at that element's cell (the cells hold the topology's lists
  // in SOFA's order: edges, triangles, quads, tetrahedra, hexahedra), 0 at the other cells.
  // An output on another topology (a component's `topology` link) has no cells here.
  void AddElementOutputs(const ObjectModel& object, int k, const internal::VtuCells& cells,
                         VtuPiece& piece) const {
    if (!object.topology) return;
    const Topology& t = *object.topology;
    std::set<std::string> names;
    for (const ElementValues& output : element_outputs_) {
      if (output.object != k || output.topology != object.topology) continue;
      // No element left (a topological change removed them all): no array, as a scene built
      // without them has none.
      if (output.values.empty()) continue;
      std::size_t first = 0;
      switch (output.type) {
        case ElementType::kHexahedron:
          first += t.tetrahedra.size();
          [[fallthrough]];
        case ElementType::kTetrahedron:
          first += t.quads.size();
          [[fallthrough]];
        case ElementType::kQuad:
          first += t.triangles.size();
          [[fallthrough]];
        case ElementType::kTriangle:
          first += t.edges.size();
          [[fallthrough]];
        case ElementType::kEdge:
          break;
      }
      std::vector<double> values(cells.size(), 0.0);
      if (first + output.values.size() > values.size()) continue;  // not this topology's cells
      std::copy(output.values.begin(), output.values.end(),
                values.begin() + static_cast<std::ptrdiff_t>(first));
      std::string name = output.name;
      if (!names.insert(name).second) name += " (" + output.component + ")";
      piece.cell_data.push_back({name, 1, std::move(values)});
    }
  }

  // The contacts of the step that led to the recorded state (Simulation::contacts(): found at
  // its start): each a line from its point on model 1 to its point on model 2, with the cell data
  // `normal` (from model 1 towards model 2), `penetration` (positive: the penalty pushes),
  // `distance` (d) and `force` (on model 2's point: ks·max(penetration, 0)·n). No contact: an
  // empty data set, so that the time series stays aligned with the objects'.
  std::string ContactsVtu(const Simulation& simulation) const {
    const std::vector<Contact>& contacts = simulation.contacts();
    internal::VtkCells lines;
    VtuPiece piece;
    VtuArray normal{"normal", 3, {}}, penetration{"penetration", 1, {}},
        distance{"distance", 1, {}}, force{"force", 3, {}};
    for (const Contact& contact : contacts) {
      const Index first = static_cast<Index>(piece.points.size() / 3);
      for (const auto& point : contact.point)
        piece.points.insert(piece.points.end(), point.begin(), point.end());
      lines.cells.push_back({first, first + 1});
      lines.types.push_back(internal::kVtkLine);
      normal.values.insert(normal.values.end(), contact.normal.begin(), contact.normal.end());
      penetration.values.push_back(contact.penetration);
      distance.values.push_back(contact.distance);
      const double magnitude = contact.stiffness * std::max(contact.penetration, 0.0);
      for (const double n : contact.normal) force.values.push_back(magnitude * n);
    }
    piece.cell_data = {std::move(normal), std::move(penetration), std::move(distance),
                       std::move(force)};
    return internal::FormatVtu(
        piece, internal::VtuCells(lines),
        options_.compress ? internal::VtuEncoding::kZlibBinary : internal::VtuEncoding::kAscii);
  }

  std::string Path(const std::string& file) const {
    return options_.folder.empty() || options_.folder == "." ? file : options_.folder + "/" + file;
  }
  OutputFile Open(const std::string& file) {
    std::string why;
    OutputFile opened = OpenSceneOutputFile(Path(file), &why);
    if (!opened) Fail(why);
    return opened;
  }
  // Writes and flushes `text`: output already written stays on disk however the run ends.
  bool Write(std::FILE* stream, const std::string& text, const std::string& file) {
    if (std::fwrite(text.data(), 1, text.size(), stream) != text.size() || std::fflush(stream) != 0)
      Fail("writing '" + Path(file) + "' failed (expected a writable folder with free space)");
    return ok_;
  }
  void Fail(const std::string& why) {
    if (ok_) error_ = why;
    ok_ = false;
  }

  VtkTrajectoryOptions options_;
  std::vector<ObjectPart> parts_;
  std::string contacts_stem_;   // "<name>_contacts", empty without a collision pipeline
  std::vector<Vector> forces_;  // per solver node, reused
  std::vector<ElementPart> element_parts_;
  std::vector<ElementValues> element_outputs_;  // the record's, refreshed by Record
  std::shared_ptr<const Model> model_;          // the model the parts were taken from
  OutputFile pvd_;
  long pvd_tail_ = 0;  // where the footer starts
  bool ok_ = true;
  std::string error_;
};

}  // namespace

std::unique_ptr<TrajectoryWriter> MakeVtkTrajectoryWriter(const VtkTrajectoryOptions& options) {
  return std::make_unique<VtkTrajectoryWriter>(options);
}

}  // namespace fluxion
