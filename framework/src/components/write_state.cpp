#include "components/write_state.h"

#include <unistd.h>
#include <zlib.h>

#include <cmath>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/output_files.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};

class WriteState final : public Observer {
 public:
  // `period` < 0: the scene's dt.
  WriteState(const Parameters& p, std::string object_id, std::vector<double> times, double period,
             bool periodic, OutputFile file, gzFile gz)
      : object_id_(std::move(object_id)),
        write_x_(p.flag("writeX")),
        write_x0_(p.flag("writeX0")),
        write_v_(p.flag("writeV")),
        write_f_(p.flag("writeF")),
        times_(std::move(times)),
        period_(period),
        periodic_(periodic),
        file_(std::move(file)),
        gz_(gz) {}

  void Begin(const ObservedState& state) override {
    const double dt = state.model().dt;
    epsilon_ = 0.1 * dt;
    if (period_ < 0) period_ = dt;
    MaybeWrite(state);
  }
  void AfterStep(const ObservedState& state) override { MaybeWrite(state); }

 private:
  // SOFA's schedule: the listed times first, then every period after the last one reached.
  void MaybeWrite(const ObservedState& state) {
    const double t = state.time();
    bool due = false;
    if (next_ < times_.size()) {
      last_time_ = times_[next_];
      if (t > last_time_ || std::abs(t - last_time_) < epsilon_) {
        due = true;
        exported_ = true;
        ++next_;
      }
    } else if (exported_ && periodic_) {
      const double next_time = last_time_ + period_;
      if (t > next_time || std::abs(t - next_time) < epsilon_) {
        due = true;
        last_time_ += period_;
      }
    }
    if (due) Write(state);
  }

  static void AppendValues(std::string& out, const char* label, const Vector& values) {
    out += label;
    for (Index k = 0; k < values.size(); ++k) {
      if (k > 0) out += ' ';
      AppendReal(out, values[k]);
    }
    out += '\n';
  }

  void Write(const ObservedState& state) {
    const int index = state.model().FindObject(object_id_);
    FLUXION_DEMAND(index >= 0);
    std::string out = "T= ";
    AppendReal(out, state.time());
    out += '\n';
    if (write_x_) AppendValues(out, "  X= ", state.position(index));
    if (write_x0_)
      AppendValues(out,
                   "  X0= ", state.model().objects[static_cast<std::size_t>(index)].rest_position);
    if (write_v_) AppendValues(out, "  V= ", state.velocity(index));
    if (write_f_) AppendValues(out, "  F= ", state.force(index));
    bool ok = false;
    if (gz_) {
      ok = gzwrite(gz_.get(), out.data(), static_cast<unsigned>(out.size())) ==
               static_cast<int>(out.size()) &&
           gzflush(gz_.get(), Z_SYNC_FLUSH) == Z_OK;
    } else {
      ok = std::fwrite(out.data(), 1, out.size(), file_.get()) == out.size() &&
           std::fflush(file_.get()) == 0;
    }
    if (!ok) throw Error("writing the state failed (expected a writable output folder)");
  }

  std::string object_id_;
  bool write_x_, write_x0_, write_v_, write_f_;
  std::vector<double> times_;
  double period_;
  bool periodic_;
  double epsilon_ = 0.0;
  std::size_t next_ = 0;
  double last_time_ = 0.0;
  bool exported_ = false;
  OutputFile file_;
  std::unique_ptr<gzFile_s, GzCloser> gz_;
};

}  // namespace

ComponentSpec WriteStateComponent::Spec() {
  return ComponentSpec{
      .name = "WriteState",
      .kind = ComponentKind::kObserver,
      .summary = "Records its node's MechanicalObject as text frames (T= X= V= F=)",
      .fields =
          {FieldSpec::Text("filename", "",
                           "output file, relative to the output folder (\".gz\": compressed)"),
           FieldSpec::Bool("writeX", true, "write positions"),
           FieldSpec::Bool("writeX0", false, "write rest positions"),
           FieldSpec::Bool("writeV", false, "write velocities"),
           FieldSpec::Bool("writeF", false, "write the total force f(t, x, v)"),
           FieldSpec::RealList("time", "times to write at [s] (default 0)"),
           FieldSpec::Real("period", 0.0, "period between frames [s] (default: dt)").AtLeast(0),
           FieldSpec::IndexList("DOFsX", "accepted and ignored, as in SOFA"),
           FieldSpec::IndexList("DOFsV", "accepted and ignored, as in SOFA"),
           FieldSpec::Real("stopAt", 0.0, "kinetic energy threshold (not supported: 0 only)"),
           FieldSpec::Real("keperiod", 0.0, "kinetic energy period (not supported: 0 only)")},
      .aliases = {}};
}

void WriteStateComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  if (p.real("stopAt") != 0.0 || p.real("keperiod") != 0.0) {
    context.Error(
        "WriteState 'stopAt'/'keperiod' (stopping on kinetic energy) are not supported "
        "(expected 0)");
    return;
  }
  const std::string& filename = p.text("filename");
  if (filename.empty()) {
    context.Error("WriteState has no 'filename' (expected a file name, e.g. \"state.txt\")");
    return;
  }
  std::vector<double> times = p.has("time") ? p.reals("time") : std::vector<double>{0.0};
  if (times.empty()) times = {0.0};
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (times[k] < 0 || (k > 0 && times[k] == 0)) {
      context.Error("WriteState 'time' has " + FormatReal(times[k]) +
                    " (expected times ≥ 0, only the first one 0)");
      return;
    }
  }
  // SOFA: a period keeps only the first time; no period and no time write at every step.
  bool periodic = false;
  double period = 0.0;
  if (p.has("period")) {
    periodic = true;
    period = p.real("period");
    times.resize(1);
  } else if (!p.has("time")) {
    periodic = true;
    period = -1.0;  // dt, known when the run starts
  }

  std::string why;
  OutputFile file = OpenSceneOutputFile(filename, &why);
  if (!file) {
    context.Error("WriteState " + why);
    return;
  }
  gzFile gz = nullptr;
  if (filename.size() >= 3 && filename.ends_with(".gz")) {
    const int fd = ::dup(::fileno(file.get()));
    gz = fd >= 0 ? gzdopen(fd, "wb") : nullptr;
    if (gz == nullptr) {
      if (fd >= 0) ::close(fd);
      context.Error("WriteState cannot compress into '" + Shown(filename) +
                    "' (expected zlib to work)");
      return;
    }
    // The compressed stream writes through a descriptor of its own; `file` stays open, unused,
    // so that the output policy's claim on the name holds for the whole run.
  }
  context.AddObserver(std::make_unique<WriteState>(p, object->id, std::move(times), period,
                                                   periodic, std::move(file), gz));
}

}  // namespace fluxion::internal
