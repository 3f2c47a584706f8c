#include "components/read_state.h"

#include <zlib.h>

#include <optional>
#include <sstream>

#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

// Decompressed files are refused beyond this size (a hostile .gz could expand without bound).
constexpr std::size_t kMaxDecompressedBytes = std::size_t{1} << 30;

// The whole content of a gzip stream, or nullopt with `why`.
std::optional<std::string> Gunzip(const std::string& bytes, std::string& why) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
    why = "zlib could not start";
    return std::nullopt;
  }
  std::string out;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  char buffer[1 << 16];
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      inflateEnd(&stream);
      why = "it is not a valid gzip file";
      return std::nullopt;
    }
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (out.size() > kMaxDecompressedBytes) {
      inflateEnd(&stream);
      why = "it decompresses to more than 1 GiB";
      return std::nullopt;
    }
    if (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
      inflateEnd(&stream);
      why = "it is truncated";
      return std::nullopt;
    }
  }
  inflateEnd(&stream);
  return out;
}

struct RecordedFrame {
  double time = 0.0;
  std::optional<Vector> x, v;
};

class ReadState final : public Observer {
 public:
  ReadState(std::string object_id, std::vector<RecordedFrame> frames, double shift, bool loop,
            double scale, std::array<double, 3> translation, int dimension)
      : object_id_(std::move(object_id)),
        frames_(std::move(frames)),
        shift_(shift),
        loop_(loop),
        scale_(scale),
        translation_(translation),
        dimension_(dimension) {}

  void Drive(long /*step*/, StateSetter& state) override {
    const double time = state.time() + shift_;
    // The frames due since the last call; the last of them applies (SOFA's readNext).
    std::optional<std::size_t> due;
    while (!frames_.empty()) {
      if (cursor_ == frames_.size()) {
        if (!loop_) break;
        cursor_ = 0;
        loop_time_ = last_read_time_;
      }
      const double frame_time = frames_[cursor_].time + loop_time_;
      if (frame_time > time) break;
      last_read_time_ = frame_time;
      due = cursor_++;
    }
    if (!due) return;
    const int index = state.model().FindObject(object_id_);
    FLUXION_DEMAND(index >= 0);
    const RecordedFrame& frame = frames_[*due];
    if (frame.x) {
      Vector x = *frame.x * scale_;
      for (Index k = 0; k < x.size(); ++k)
        x[k] += translation_[static_cast<std::size_t>(k % dimension_)];
      state.SetPosition(index, {x.data(), static_cast<std::size_t>(x.size())});
    }
    if (frame.v)
      state.SetVelocity(index, {frame.v->data(), static_cast<std::size_t>(frame.v->size())});
  }

 private:
  std::string object_id_;
  std::vector<RecordedFrame> frames_;
  double shift_;
  bool loop_;
  double scale_;
  std::array<double, 3> translation_;
  int dimension_;
  std::size_t cursor_ = 0;
  double loop_time_ = 0.0, last_read_time_ = 0.0;
};

}  // namespace

ComponentSpec ReadStateComponent::Spec() {
  return ComponentSpec{
      .name = "ReadState",
      .kind = ComponentKind::kObserver,
      .summary = "Plays recorded frames (WriteState's T= X= V=) into its node's MechanicalObject",
      .fields = {FieldSpec::Text("filename", "", "the recording (\".gz\": compressed)"),
                 FieldSpec::Real("interval", 0.0, "accepted and ignored, as in SOFA"),
                 FieldSpec::Real("shift", 0.0, "added to the time before choosing a frame [s]"),
                 FieldSpec::Bool("loop", false, "start the file again at its end"),
                 FieldSpec::Real("scalePos", 1.0, "scale applied to the read positions"),
                 FieldSpec::RealList("rotation", "rotation (not supported: 0 0 0 only)")
                     .DefaultText("0 0 0"),
                 FieldSpec::RealList("translation", "translation added to the read positions [m]")
                     .DefaultText("0 0 0")},
      .aliases = {}};
}

void ReadStateComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const std::vector<double>& rotation = p.reals("rotation");
  const std::vector<double>& translation = p.reals("translation");
  if (rotation.size() != 3 || rotation[0] != 0 || rotation[1] != 0 || rotation[2] != 0) {
    context.Error("ReadState 'rotation' is not supported (expected 0 0 0)");
    return;
  }
  if (translation.size() != 3) {
    context.Error("ReadState 'translation' has " + std::to_string(translation.size()) +
                  " numbers (expected 3)");
    return;
  }
  const std::string& filename = p.text("filename");
  if (filename.empty()) {
    context.Error("ReadState has no 'filename' (expected the recording's file name)");
    return;
  }
  const std::optional<BuildContext::InputFile> input = context.ReadInputFile(filename);
  if (!input) return;
  std::string text = input->bytes;
  if (filename.ends_with(".gz")) {
    std::string why;
    std::optional<std::string> plain = Gunzip(input->bytes, why);
    if (!plain) {
      context.Error("ReadState cannot read '" + input->path + "': " + why +
                    " (expected a gzip-compressed WriteState file)");
      return;
    }
    text = std::move(*plain);
  }

  // Frames: "T= t" opens one; "X= …" and "V= …" lines fill it; other lines are skipped.
  std::vector<RecordedFrame> frames;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  const auto refuse = [&](const std::string& what) {
    context.Error("ReadState '" + input->path + "' line " + std::to_string(number) + ": " + what);
  };
  while (std::getline(lines, line)) {
    ++number;
    std::istringstream words(line);
    std::string command;
    words >> command;
    if (command != "T=" && command != "X=" && command != "V=") continue;
    std::vector<double> values;
    for (std::string word; words >> word;) {
      std::string why;
      const std::optional<double> value = ParseReal(word, &why);
      if (!value) {
        refuse("'" + word + "' is " + why + " (expected numbers)");
        return;
      }
      values.push_back(*value);
    }
    if (command == "T=") {
      if (values.size() != 1) {
        refuse("T= has " + std::to_string(values.size()) + " numbers (expected one time)");
        return;
      }
      frames.push_back(RecordedFrame{values[0], std::nullopt, std::nullopt});
      continue;
    }
    if (frames.empty()) {
      refuse(command + " comes before any T= (expected a time first)");
      return;
    }
    if (static_cast<Index>(values.size()) != object->num_dofs()) {
      refuse(command + " has " + std::to_string(values.size()) + " numbers (expected " +
             std::to_string(object->num_dofs()) + " for '" + object->id + "')");
      return;
    }
    Vector read = Eigen::Map<const Vector>(values.data(), static_cast<Index>(values.size()));
    (command == "X=" ? frames.back().x : frames.back().v) = std::move(read);
  }
  context.AddObserver(std::make_unique<ReadState>(
      object->id, std::move(frames), p.real("shift"), p.flag("loop"), p.real("scalePos"),
      std::array<double, 3>{translation[0], translation[1], translation[2]}, object->dimension));
}

}  // namespace fluxion::internal
