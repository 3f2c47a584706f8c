#include "topology_record.h"

#include <string>
#include <vector>

#include "fluxion/node_topologies.h"
#include "fluxion/text.h"

namespace fluxion::runner {

namespace {

class TopologyRecordWriter final : public TrajectoryWriter {
 public:
  explicit TopologyRecordWriter(std::FILE* stream) : stream_(stream) {}

  // The first record is the state before any step: its topology is that of the first step
  // only once the changes due at its start are made, so records are written after each step.
  void Begin(const Simulation& simulation) override { start_ = simulation.time(); }
  void Record(const Simulation& simulation) override {
    if (!started_) {  // Record() right after Begin(): no step yet
      started_ = true;
      start_ = simulation.time();
      return;
    }
    std::string text = "T= " + FormatReal(start_) + "\n";
    for (const TopologyModel& topology : NodeTopologies(simulation)) {
      text += "  Topology= " + topology.node_path + " " + topology.name + "\n";
      const Topology& t = *topology.topology;
      Append(text, "Edges", t.edges);
      Append(text, "Triangles", t.triangles);
      Append(text, "Quads", t.quads);
      Append(text, "Tetrahedra", t.tetrahedra);
      Append(text, "Hexahedra", t.hexahedra);
    }
    if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size()) ok_ = false;
    start_ = simulation.time();
  }
  void End(const Simulation&) override {
    if (std::fflush(stream_) != 0) ok_ = false;
  }
  bool ok() const override { return ok_; }

 private:
  template <std::size_t N>
  static void Append(std::string& text, const char* what,
                     const std::vector<std::array<Index, N>>& elements) {
    text += std::string("  ") + what + "= " + std::to_string(elements.size()) + "\n";
    std::string line;
    for (const auto& element : elements)
      for (const Index v : element) line += std::to_string(v) + " ";
    text += line + "\n";
  }

  std::FILE* stream_;
  double start_ = 0.0;
  bool started_ = false;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<TrajectoryWriter> MakeTopologyRecordWriter(std::FILE* stream) {
  return std::make_unique<TopologyRecordWriter>(stream);
}

}  // namespace fluxion::runner
