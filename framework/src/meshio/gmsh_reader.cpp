// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshGmshLoader.cpp (doLoad,
// readGmsh). Kept as SOFA keeps them: element types 1 (line), 2 (triangle), 3 (quad),
// 4 (tetrahedron), 5 (hexahedron), and the corner vertices of 8 (second-order line), 9 (second-
// order triangle) and 11 (second-order tetrahedron), whose edges SOFA also adds to the edge list
// (formats 1–2: each element's new edges; format 4: edges new to the whole file).
// Deviations: binary files are refused (SOFA reads them as text); a node number the file does not
// define is an error (SOFA uses node 0 in format 2, number − 1 in format 4); format 4 node numbers
// are mapped through the node tags (SOFA assumes tags 1…N in file order, which gives the same
// mesh whenever that holds).
#include <map>
#include <set>

#include "core/text_parsing.h"
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

namespace fluxion::internal {

namespace {

// Corner count of the element types SOFA keeps, 0 for the others.
int Corners(long type) {
  switch (type) {
    case 1:
    case 8:
      return 2;
    case 2:
    case 9:
      return 3;
    case 3:
    case 4:
    case 11:
      return 4;
    case 5:
      return 8;
    default:
      return 0;
  }
}

// Nodes each element type has in the file (for the types SOFA reads at all).
int NodesOf(long type) {
  switch (type) {
    case 15:
      return 1;
    case 1:
      return 2;
    case 2:
      return 3;
    case 3:
    case 4:
      return 4;
    case 5:
      return 8;
    case 6:
      return 6;
    case 8:
      return 3;
    case 9:
      return 6;
    case 11:
      return 10;
    default:
      return -1;
  }
}

class GmshReader {
 public:
  GmshReader(std::string_view bytes, const std::string& file, MeshNotes& notes)
      : text_(bytes, file), notes_(notes) {}

  Topology Read() {
    std::string_view first = text_.RequireLine("$MeshFormat or $NOD");
    int format = 1;
    if (first.starts_with("$MeshFormat")) {
      const std::vector<std::string_view> version =
          MeshText::Words(text_.RequireLine("the format version"));
      if (version.empty()) text_.Fail("empty format line (expected e.g. 2.2 0 8)");
      const double number = text_.Real(version[0], "format version");
      // SOFA keeps the integer part; anything outside [2, 5) is a format it does not read.
      format = number >= 2.0 && number < 5.0 ? static_cast<int>(number) : 0;
      if (format != 2 && format != 4)
        text_.Fail("MSH format " + Shown(version[0], 40) + " (expected 1, 2 or 4, as SOFA reads)");
      if (version.size() > 1 && version[1] != "0")
        text_.Fail(
            "a binary MSH file (expected ASCII: re-save it with Gmsh's 'binary' option off)");
      Expect("$EndMeshFormat");
      SkipTo("$Nodes");
    } else if (!first.starts_with("$NOD")) {
      text_.Fail("the file starts with '" + Shown(first, 40) +
                 "' (expected $MeshFormat or $NOD: a Gmsh MSH file)");
    }
    if (format == 4) {
      ReadNodes4();
      Expect("$EndNodes");
      SkipTo("$Elements");
      ReadElements4();
    } else {
      ReadNodes12();
      ExpectOneOf("$ENDNOD", "$EndNodes");
      const std::string_view elements = text_.RequireLine("$ELM or $Elements");
      if (!elements.starts_with("$ELM") && !elements.starts_with("$Elements"))
        text_.Fail("expected $ELM or $Elements");
      ReadElements12(format);
    }
    return std::move(mesh_);
  }

 private:
  void Expect(std::string_view tag) {
    const std::string_view line = text_.RequireLine(std::string(tag));
    if (!line.starts_with(tag))
      text_.Fail("'" + Shown(line, 40) + "' (expected " + std::string(tag) + ")");
  }
  void ExpectOneOf(std::string_view a, std::string_view b) {
    const std::string_view line = text_.RequireLine(std::string(a));
    if (!line.starts_with(a) && !line.starts_with(b))
      text_.Fail("'" + Shown(line, 40) + "' (expected " + std::string(a) + " or " + std::string(b) +
                 ")");
  }
  void SkipTo(std::string_view tag) {
    std::string_view line;
    while (text_.NextLine(line))
      if (line.starts_with(tag)) return;
    text_.Fail("no " + std::string(tag) + " section (expected one, as in every MSH file)");
  }
  std::vector<std::string_view> Line(const std::string& what, std::size_t at_least) {
    const std::vector<std::string_view> words = MeshText::Words(text_.RequireLine(what));
    if (words.size() < at_least)
      text_.Fail("'" + what + "' has " + std::to_string(words.size()) +
                 " numbers (expected at least " + std::to_string(at_least) + ")");
    return words;
  }
  Index Node(std::string_view word) {
    const long tag = text_.Count(word, "node number");
    const auto found = node_of_tag_.find(tag);
    if (found == node_of_tag_.end())
      text_.Fail("node " + std::to_string(tag) + " is not defined in $Nodes");
    return found->second;
  }
  void AddNode(long tag, std::array<double, 3> point) {
    if (!node_of_tag_.emplace(tag, static_cast<Index>(mesh_.points.size())).second)
      text_.Fail("node " + std::to_string(tag) + " is defined twice");
    mesh_.points.push_back(point);
  }

  void ReadNodes12() {
    const long count = text_.Count(Line("the node count", 1)[0], "node count");
    text_.CheckCount(count, 8, "node count");
    for (long i = 0; i < count; ++i) {
      const auto w = Line("a node: number x y z", 4);
      AddNode(text_.Count(w[0], "node number"),
              {text_.Real(w[1], "x"), text_.Real(w[2], "y"), text_.Real(w[3], "z")});
    }
  }

  void ReadNodes4() {
    const auto header = Line("the $Nodes header: blocks nodes min max", 2);
    const long blocks = text_.Count(header[0], "block count");
    text_.CheckCount(blocks, 8, "block count");
    for (long b = 0; b < blocks; ++b) {
      const auto block = Line("a node block header: dim tag parametric count", 4);
      const bool parametric = block[2] != "0";
      const long count = text_.Count(block[3], "node count");
      text_.CheckCount(count, 8, "node count");
      std::vector<long> tags;
      tags.reserve(static_cast<std::size_t>(count));
      for (long i = 0; i < count; ++i)
        tags.push_back(text_.Count(Line("a node tag", 1)[0], "node tag"));
      for (long i = 0; i < count; ++i) {
        const auto w = Line(parametric ? "x y z u…" : "x y z", 3);
        AddNode(tags[static_cast<std::size_t>(i)],
                {text_.Real(w[0], "x"), text_.Real(w[1], "y"), text_.Real(w[2], "z")});
      }
    }
  }

  // The element of `type` on `nodes` (corners first), as SOFA adds it.
  void AddElement(long type, const std::vector<Index>& n, std::set<std::array<Index, 2>>& edges) {
    const auto add_edge = [&](Index a, Index b) {
      const std::array<Index, 2> edge = {std::min(a, b), std::max(a, b)};
      if (edges.insert(edge).second) mesh_.edges.push_back(edge);
    };
    switch (type) {
      case 1:
      case 8:
        mesh_.edges.push_back({n[0], n[1]});
        break;
      case 2:
        mesh_.triangles.push_back({n[0], n[1], n[2]});
        break;
      case 9:
        mesh_.triangles.push_back({n[0], n[1], n[2]});
        add_edge(n[0], n[1]);
        add_edge(n[1], n[2]);
        add_edge(n[2], n[0]);
        break;
      case 3:
        mesh_.quads.push_back({n[0], n[1], n[2], n[3]});
        break;
      case 4:
        mesh_.tetrahedra.push_back({n[0], n[1], n[2], n[3]});
        break;
      case 11:
        mesh_.tetrahedra.push_back({n[0], n[1], n[2], n[3]});
        // SOFA's edge order for second-order tetrahedra (MeshGmshLoader:
        // {0,1},{1,2},{0,2},{0,3},{2,3},{1,3}).
        add_edge(n[0], n[1]);
        add_edge(n[1], n[2]);
        add_edge(n[0], n[2]);
        add_edge(n[0], n[3]);
        add_edge(n[2], n[3]);
        add_edge(n[1], n[3]);
        break;
      case 5:
        mesh_.hexahedra.push_back({n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]});
        break;
      default:
        ++notes_.skipped_elements;
    }
  }

  void ReadElements12(int format) {
    const long count = text_.Count(Line("the element count", 1)[0], "element count");
    text_.CheckCount(count, 8, "element count");
    std::vector<Index> nodes;
    for (long i = 0; i < count; ++i) {
      const auto w = Line("an element", 3);
      const long type = text_.Count(w[1], "element type");
      std::size_t first = 0;
      long declared = -1;
      if (format == 1) {  // number type reg-phys reg-elem count nodes…
        if (w.size() < 5) text_.Fail("a format-1 element needs number type phys elem count");
        declared = text_.Count(w[4], "node count");
        first = 5;
      } else {  // number type tag-count tags… nodes…
        const long tags = text_.Count(w[2], "tag count");
        first = 3 + static_cast<std::size_t>(std::min<long>(tags, 1000));
        declared = NodesOf(type);
      }
      std::set<std::array<Index, 2>> element_edges;  // formats 1–2: new edges of this element
      if (Corners(type) == 0 || declared < 0) {
        ++notes_.skipped_elements;
        continue;
      }
      if (w.size() < first + static_cast<std::size_t>(declared))
        text_.Fail("element type " + std::to_string(type) + " has " +
                   std::to_string(w.size() >= first ? w.size() - first : 0) + " nodes (expected " +
                   std::to_string(declared) + ")");
      nodes.clear();
      for (long k = 0; k < declared; ++k)
        nodes.push_back(Node(w[first + static_cast<std::size_t>(k)]));
      if (static_cast<int>(nodes.size()) < Corners(type))
        text_.Fail("too few nodes for element type " + std::to_string(type));
      AddElement(type, nodes, element_edges);
    }
  }

  void ReadElements4() {
    const auto header = Line("the $Elements header: blocks elements min max", 2);
    const long blocks = text_.Count(header[0], "block count");
    text_.CheckCount(blocks, 8, "block count");
    std::set<std::array<Index, 2>> file_edges;  // format 4: edges new to the file
    std::vector<Index> nodes;
    for (long b = 0; b < blocks; ++b) {
      const auto block = Line("an element block header: dim tag type count", 4);
      const long type = text_.Count(block[2], "element type");
      const long count = text_.Count(block[3], "element count");
      text_.CheckCount(count, 4, "element count");
      const int declared = NodesOf(type);
      for (long i = 0; i < count; ++i) {
        const auto w = Line("an element: tag nodes…", 1);
        if (Corners(type) == 0 || declared < 0) {
          ++notes_.skipped_elements;
          continue;
        }
        if (w.size() < 1 + static_cast<std::size_t>(declared))
          text_.Fail("element type " + std::to_string(type) + " has " +
                     std::to_string(w.size() - 1) + " nodes (expected " + std::to_string(declared) +
                     ")");
        nodes.clear();
        for (int k = 0; k < declared; ++k)
          nodes.push_back(Node(w[1 + static_cast<std::size_t>(k)]));
        AddElement(type, nodes, file_edges);
      }
    }
  }

  MeshText text_;
  MeshNotes& notes_;
  Topology mesh_;
  std::map<long, Index> node_of_tag_;
};

}  // namespace

Topology ReadGmshMesh(std::string_view bytes, const std::string& file, MeshNotes& notes) {
  return GmshReader(bytes, file, notes).Read();
}

}  // namespace fluxion::internal
