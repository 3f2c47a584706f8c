#include "scene/xml_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <tinyxml2.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>

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
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void Fail(int line, const std::string& message) {
    diagnostics_.push_back({file_, line, message});
  }

  std::vector<AttributeText> Attributes(const tinyxml2::XMLElement& element) {
    std::vector<AttributeText> attributes;
    for (const tinyxml2::XMLAttribute* a = element.FirstAttribute(); a != nullptr; a = a->Next())
      attributes.push_back({a->Name(), a->Value(), a->GetLineNum()});
    return attributes;
  }

  void ReadNode(const tinyxml2::XMLElement& element, NodeDescription& node, int depth) {
    node.line = element.GetLineNum();
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
        Fail(child->GetLineNum(), "<include> is not supported (expected the components inline)");
      } else {
        ElementDescription component;
        component.line = child->GetLineNum();
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
        if (child->FirstChildElement() != nullptr)
          Fail(component.line, "component <" + Shown(component.type) +
                                   "> has child elements (expected only <Node> elements to nest)");
        node.components.push_back(std::move(component));
      }
    }
  }

  SceneDescription Read(const std::string& text) {
    tinyxml2::XMLDocument document(true, tinyxml2::COLLAPSE_WHITESPACE);
    SceneDescription scene;
    scene.file = file_;
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
    if (const tinyxml2::XMLElement* second = root->NextSiblingElement(); second != nullptr) {
      Fail(second->GetLineNum(), "a second root element <" + Shown(second->Name()) +
                                     "> after the <Node> root (expected one root element)");
      throw SceneError(diagnostics_);
    }
    if (std::string(root->Name()) != "Node") {
      Fail(root->GetLineNum(),
           "the root element is <" + Shown(root->Name()) + "> (expected <Node>)");
      throw SceneError(diagnostics_);
    }
    ReadNode(*root, scene.root, 0);
    if (!diagnostics_.empty()) throw SceneError(diagnostics_);
    return scene;
  }

 private:
  std::string file_;
  std::vector<SceneDiagnostic> diagnostics_;
};

}  // namespace

SceneDescription ReadSceneText(const std::string& text, const std::string& file_name) {
  return Reader(file_name).Read(text);
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

SceneDescription ReadSceneFile(const std::string& path, std::size_t max_bytes) {
  const auto fail = [&](const std::string& message) { throw SceneError({{path, 0, message}}); };
  std::string text, why;
  if (path == "-") {  // standard input, read with the same limit
    if (!ReadBounded(STDIN_FILENO, max_bytes, text, why)) fail(why);
    return ReadSceneText(text, "<stdin>");
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
  return ReadSceneText(text, path);
}

}  // namespace fluxion::internal
