#include "scene/xml_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <tinyxml2.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <string_view>

#include "core/text_parsing.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

const AttributeText* ElementDescription::Find(const std::string& attribute_name) const {
  for (const AttributeText& attribute : attributes)
    if (attribute.name == attribute_name) return &attribute;
  return nullptr;
}

namespace {

// Nesting deeper than this is refused: a hostile scene must not exhaust the stack.
constexpr int kMaxNodeDepth = 200;

class Reader {
 public:
  Reader(std::string file, const IncludeReader& includes)
      : file_(std::move(file)), includes_(includes) {
    scene_.file = file_;
  }

  // `line` is a scene line (an included file's are offset, see kIncludedLineStride).
  void Fail(int line, const std::string& message) {
    const auto [file, local] = scene_.Locate(line);
    diagnostics_.push_back({file, local, message});
  }

  // Lines of the file being read, in the scene's numbering.
  int Line(int line) const { return offset_ + line; }

  std::vector<AttributeText> Attributes(const tinyxml2::XMLElement& element) {
    std::vector<AttributeText> attributes;
    for (const tinyxml2::XMLAttribute* a = element.FirstAttribute(); a != nullptr; a = a->Next())
      attributes.push_back({a->Name(), a->Value(), Line(a->GetLineNum())});
    return attributes;
  }

  // SOFA's older attribute form, a child of the component (simulation/common/xml/
  // AttributeElement.cpp, DataElement.cpp): <Attribute type="NAME"><Data value="V"/></Attribute>
  // sets NAME to V, replacing the same attribute written inline. Any other child is an error.
  void ReadAttributeElements(const tinyxml2::XMLElement& element, ElementDescription& component) {
    for (const tinyxml2::XMLElement* child = element.FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      const int line = Line(child->GetLineNum());
      const char* name = child->Attribute("type");
      const tinyxml2::XMLElement* data = child->FirstChildElement();
      if (std::string_view(child->Name()) != "Attribute" || name == nullptr || data == nullptr ||
          std::string_view(data->Name()) != "Data" || data->NextSiblingElement() != nullptr ||
          data->FirstChildElement() != nullptr) {
        Fail(line, "component <" + Shown(component.type) + "> has a child element <" +
                       Shown(child->Name()) +
                       "> (expected only <Node> elements to nest, or SOFA's "
                       "<Attribute type=\"name\"><Data value=\"…\"/></Attribute>)");
        continue;
      }
      const char* value = data->Attribute("value");
      std::erase_if(component.attributes, [&](const AttributeText& a) { return a.name == name; });
      component.attributes.push_back({name, value == nullptr ? "" : value, line});
    }
  }

  // A document is one element tree: a second root element is refused (reported at its line,
  // `offset` numbering the document's file) rather than dropped unread, in the scene and in
  // every file it includes alike.
  bool HasSingleRoot(const tinyxml2::XMLDocument& document, int offset) {
    const tinyxml2::XMLElement* second = document.RootElement()->NextSiblingElement();
    if (second == nullptr) return true;
    Fail(offset + second->GetLineNum(),
         "a second root element <" + Shown(second->Name()) + "> after the <" +
             Shown(document.RootElement()->Name()) + "> root (expected one root element)");
    return false;
  }

  void ReadNode(const tinyxml2::XMLElement& element, NodeDescription& node, int depth) {
    node.line = Line(element.GetLineNum());
    node.attributes = Attributes(element);
    for (const AttributeText& attribute : node.attributes)
      if (attribute.name == "name") node.name = attribute.value;
    if (depth > kMaxNodeDepth) {
      Fail(node.line, "nodes are nested more than " + std::to_string(kMaxNodeDepth) +
                          " deep (expected a shallower scene graph)");
      return;
    }
    for (const tinyxml2::XMLElement* child = element.FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      const std::string tag = child->Name();
      if (tag == "Node") {
        node.children.emplace_back();
        ReadNode(*child, node.children.back(), depth + 1);
      } else if (tag == "include") {
        Include(*child, node, depth);
      } else {
        ElementDescription component;
        component.line = Line(child->GetLineNum());
        component.type = tag;
        component.attributes = Attributes(*child);
        if (tag == "Object") {  // legacy form <Object type="X" .../>
          component.type.clear();
          std::erase_if(component.attributes, [&](const AttributeText& a) {
            if (a.name != "type") return false;
            component.type = a.value;
            return true;
          });
          if (component.type.empty()) {
            Fail(component.line,
                 "<Object> without a 'type' attribute (expected <Object type=\"X\">)");
            continue;
          }
        }
        ReadAttributeElements(*child, component);
        node.components.push_back(std::move(component));
      }
    }
  }

  // SOFA's <include href="FILE" attr="value" node__attr="value"/> (simulation/common/xml/XML.cpp,
  // includeNode): FILE's root element is read as if written here. A root <Node> named "Group"
  // or "_Group_" (or renamed so by the include's `name`) gives its components and children to
  // this node; "_Merge_" merges it into this node (SOFA's recursiveMergeNode: its attributes set
  // here, its named components and nodes merged into those of the same type and name); any other
  // root node becomes a child node. Every other attribute of <include> replaces that attribute in
  // each element of FILE that already has it ("node__attr": only in nodes and components named
  // `node`). FILE is found by the include reader: relative to the
  // including file, then the data folders, under the input policy. Fluxion refuses includes
  // of a lone component (no SOFA scene of the mass–spring kind uses them).
  void Include(const tinyxml2::XMLElement& element, NodeDescription& node, int depth) {
    const int line = Line(element.GetLineNum());
    const char* href = element.Attribute("href");
    if (href == nullptr || *href == '\0') {
      Fail(line, "<include> without 'href' (expected <include href=\"FILE\"/>)");
      return;
    }
    if (!includes_) {
      Fail(line, "<include href=\"" + Shown(href) +
                     "\">: this scene has no folder to include files from (expected a scene "
                     "file, not a string)");
      return;
    }
    if (static_cast<int>(scene_.included.size()) >= kMaxIncludedFiles) {
      Fail(line, "more than " + std::to_string(kMaxIncludedFiles) +
                     " included files (expected fewer <include> elements)");
      return;
    }
    std::string why;
    const std::string& including = current_file_.empty() ? file_ : current_file_;
    const std::optional<IncludedText> found = includes_(href, including, why);
    if (!found) {
      Fail(line, "<include>: " + why);
      return;
    }
    scene_.included.push_back(found->path);
    const int file_offset = static_cast<int>(scene_.included.size()) * kIncludedLineStride;
    tinyxml2::XMLDocument document(true, tinyxml2::COLLAPSE_WHITESPACE);
    if (document.Parse(found->bytes.data(), found->bytes.size()) != tinyxml2::XML_SUCCESS ||
        document.RootElement() == nullptr) {
      Fail(file_offset + std::max(document.ErrorLineNum(), 1),
           "malformed XML in an included file (expected a well-formed SOFA XML fragment)");
      return;
    }
    if (!HasSingleRoot(document, file_offset)) return;
    const tinyxml2::XMLElement& root = *document.RootElement();
    if (std::string(root.Name()) != "Node") {
      Fail(line, "<include href=\"" + Shown(href) + "\"> holds a <" + Shown(root.Name()) +
                     "> (expected a <Node> root: Fluxion includes nodes and groups)");
      return;
    }
    NodeDescription included;
    const int saved_offset = offset_;
    const std::string saved_file = current_file_;
    offset_ = file_offset;
    current_file_ = found->path;
    ReadNode(root, included, depth + 1);
    offset_ = saved_offset;
    current_file_ = saved_file;

    std::string name = included.name;
    for (const tinyxml2::XMLAttribute* a = element.FirstAttribute(); a != nullptr; a = a->Next()) {
      const std::string attribute = a->Name();
      if (attribute == "href") continue;
      if (attribute == "name") {
        name = a->Value();
        Rename(included, name);
        continue;
      }
      const std::size_t separator = attribute.find("__");
      if (separator == std::string::npos)
        Replace(included, attribute, a->Value(), nullptr);
      else {
        const std::string only = attribute.substr(0, separator);
        Replace(included, attribute.substr(separator + 2), a->Value(), &only);
      }
    }
    if (name == "_Merge_") {
      Merge(node, included);
    } else if (name == "Group" || name == "_Group_") {
      for (ElementDescription& component : included.components)
        node.components.push_back(std::move(component));
      for (NodeDescription& child : included.children) node.children.push_back(std::move(child));
    } else {
      node.children.push_back(std::move(included));
    }
  }

  // SOFA's recursiveMergeNode (_Merge_ mode): `from`'s attributes but its name are set on `into`;
  // each of its named components and child nodes merges into the element of `into` of the same
  // type and name, if there is one (attribute by attribute), and is appended otherwise.
  static void SetAttributes(std::vector<AttributeText>& into,
                            const std::vector<AttributeText>& from) {
    for (const AttributeText& attribute : from) {
      if (attribute.name == "name") continue;
      const auto same = std::find_if(into.begin(), into.end(), [&](const AttributeText& a) {
        return a.name == attribute.name;
      });
      if (same == into.end())
        into.push_back(attribute);
      else
        *same = attribute;
    }
  }
  static void Merge(NodeDescription& into, NodeDescription& from) {
    SetAttributes(into.attributes, from.attributes);
    for (ElementDescription& component : from.components) {
      const AttributeText* name = component.Find("name");
      const auto same = name == nullptr
                            ? into.components.end()
                            : std::find_if(into.components.begin(), into.components.end(),
                                           [&](const ElementDescription& c) {
                                             const AttributeText* other = c.Find("name");
                                             return c.type == component.type && other != nullptr &&
                                                    other->value == name->value;
                                           });
      if (same == into.components.end())
        into.components.push_back(std::move(component));
      else
        SetAttributes(same->attributes, component.attributes);
    }
    for (NodeDescription& child : from.children) {
      const auto same =
          child.name.empty()
              ? into.children.end()
              : std::find_if(into.children.begin(), into.children.end(),
                             [&](const NodeDescription& n) { return n.name == child.name; });
      if (same == into.children.end())
        into.children.push_back(std::move(child));
      else
        Merge(*same, child);
    }
  }

  static void Rename(NodeDescription& node, const std::string& name) {
    node.name = name;
    for (AttributeText& attribute : node.attributes)
      if (attribute.name == "name") attribute.value = name;
  }

  // SOFA's recReplaceAttribute: `value` replaces `attribute` wherever it is already set (in the
  // elements named `*only`, if given).
  static void Replace(NodeDescription& node, const std::string& attribute, const std::string& value,
                      const std::string* only) {
    const auto replace_in = [&](std::vector<AttributeText>& attributes, const std::string& name) {
      if (only != nullptr && name != *only) return;
      for (AttributeText& a : attributes)
        if (a.name == attribute) a.value = value;
    };
    replace_in(node.attributes, node.name);
    for (ElementDescription& component : node.components) {
      const AttributeText* named = component.Find("name");
      replace_in(component.attributes, named != nullptr ? named->value : component.type);
    }
    for (NodeDescription& child : node.children) Replace(child, attribute, value, only);
  }

  SceneDescription Read(const std::string& text) {
    tinyxml2::XMLDocument document(true, tinyxml2::COLLAPSE_WHITESPACE);
    SceneDescription& scene = scene_;
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; })) {
      Fail(1, "the file is empty (expected a SOFA XML scene with a <Node> root element)");
      throw SceneError(diagnostics_);
    }
    if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      const int line = std::max(document.ErrorLineNum(), 1);  // some errors carry no line
      // "XML_ERROR_MISMATCHED_ELEMENT" -> "mismatched element"
      std::string why = document.ErrorName();
      if (why.rfind("XML_ERROR_", 0) == 0) why = why.substr(10);
      for (char& c : why)
        c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      Fail(line, "malformed XML: " + why + " (expected a well-formed SOFA XML scene)");
      throw SceneError(diagnostics_);
    }
    const tinyxml2::XMLElement* root = document.RootElement();
    if (root == nullptr) {
      Fail(1, "the file holds no XML element (expected a <Node> root)");
      throw SceneError(diagnostics_);
    }
    if (!HasSingleRoot(document, 0)) throw SceneError(diagnostics_);
    if (std::string(root->Name()) != "Node") {
      Fail(root->GetLineNum(),
           "the root element is <" + Shown(root->Name()) + "> (expected <Node>)");
      throw SceneError(diagnostics_);
    }
    ReadNode(*root, scene.root, 0);
    if (!diagnostics_.empty()) throw SceneError(diagnostics_);
    return std::move(scene_);
  }

 private:
  std::string file_;
  const IncludeReader& includes_;
  SceneDescription scene_;
  int offset_ = 0;            // line offset of the file being read (0: the scene)
  std::string current_file_;  // the included file being read ("": the scene)
  std::vector<SceneDiagnostic> diagnostics_;
};

}  // namespace

SceneDescription ReadSceneText(const std::string& text, const std::string& file_name,
                               const IncludeReader& includes) {
  return Reader(file_name, includes).Read(text);
}

namespace {

// Reads at most `max_bytes` from `fd` into `text`; false (with `why`) when there is more, or on a
// read error.
bool ReadBounded(int fd, std::size_t max_bytes, std::string& text, std::string& why) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return true;
    if (got < 0) {
      if (errno == EINTR) continue;
      why = "the scene file could not be read";
      return false;
    }
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) {
      why = "the scene is larger than " + std::to_string(max_bytes) +
            " bytes (expected a smaller scene, or a larger LoadOptions::max_scene_bytes)";
      return false;
    }
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace

SceneDescription ReadSceneFile(const std::string& path, std::size_t max_bytes,
                               const IncludeReader& includes) {
  const auto fail = [&](const std::string& message) { throw SceneError({{path, 0, message}}); };
  std::string text, why;
  if (path == "-") {  // standard input, read with the same limit
    if (!ReadBounded(STDIN_FILENO, max_bytes, text, why)) fail(why);
    return ReadSceneText(text, "<stdin>", includes);
  }
  // O_NONBLOCK: opening a FIFO must not wait for a writer; only regular files are read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) fail("the scene file does not exist (expected a readable XML file)");
    if (errno == EISDIR) fail("is a directory (expected a scene file)");
    fail("the scene file cannot be opened for reading (check permissions)");
  }
  struct stat info {};
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  const bool read = regular && ReadBounded(fd, max_bytes, text, why);
  ::close(fd);
  if (!regular) {
    fail(S_ISDIR(info.st_mode)
             ? "is a directory (expected a scene file)"
             : "is not a regular file (expected a scene file; a FIFO or device is "
               "never read)");
  }
  if (!read) fail(why);
  return ReadSceneText(text, path, includes);
}

}  // namespace fluxion::internal
