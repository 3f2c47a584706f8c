#include "session.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>

#include <sys/resource.h>
#include <unistd.h>

#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "frame.h"
#include "scene_description.h"

namespace fluxion::view {

namespace {

using nlohmann::json;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The longest a paced run may lag behind real time before it gives up catching up [s]: a scene
// slower than real time then plays as fast as it can, without bursts.
constexpr double kLagBeforeReanchor = 0.1;
// The simulation thread's nice value (docs/viewer.md "Threads").
constexpr int kSimulationNice = 10;
// Most steps one `step` command may ask for (the page's button asks for 1).
constexpr long kMostSteps = 1'000'000;
// The fastest pace a page may ask for, as a multiple of real time.
constexpr double kFastestSpeed = 1000.0;

std::string SceneErrorText(const SceneError& error) {
  std::string text;
  for (const SceneDiagnostic& diagnostic : error.diagnostics())
    text += (text.empty() ? "" : "\n") + diagnostic.Format();
  return text.empty() ? std::string(error.what()) : text;
}

// True when `reloaded` has the objects of `original` (the page's topology still applies).
bool SameLayout(const Simulation& original, const Simulation& reloaded) {
  if (original.objects().size() != reloaded.objects().size()) return false;
  for (std::size_t k = 0; k < original.objects().size(); ++k)
    if (original.objects()[k].num_points != reloaded.objects()[k].num_points ||
        original.objects()[k].dimension != reloaded.objects()[k].dimension)
      return false;
  return true;
}

}  // namespace

Session::Session(const Host& host, SessionOptions options)
    : host_(host), options_(std::move(options)) {
  simulation_.emplace(host_.LoadFile(options_.scene, options_.load));
  description_ = DescribeScene(host_, *simulation_, options_.scene);
}

Session::~Session() { Stop(); }

void Session::Start(SessionSink sink) {
  sink_ = std::move(sink);
  if (options_.record) {
    record_option_used_ = true;
    StartRecording(options_.record);
  }
  thread_ = std::thread([this] { Loop(); });
}

void Session::Stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  StopRecording();
}

void Session::Submit(std::string command) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
    has_commands_ = true;
  }
  wake_.notify_all();
}

void Session::RequestFrame(bool current_state_too, bool exact) {
  {
    std::lock_guard lock(mutex_);
    if (current_state_too) force_frame_ = true;
    frame_exact_ = exact;
    frame_wanted_ = true;
  }
  wake_.notify_all();
}

void Session::Loop() {
  // Below the browser in the scheduler's eyes: when both want a core (a machine without a GPU,
  // where the browser's software renderer draws the page), the page's frames come first and the
  // simulation takes what is left; on an idle core it runs at full speed all the same. Linux
  // gives each thread its own nice value (setpriority of its thread id).
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kSimulationNice);
  std::deque<std::string> commands;
  while (!stop_) {
    if (has_commands_) {
      {
        std::lock_guard lock(mutex_);
        commands.swap(commands_);
        has_commands_ = false;
      }
      for (const std::string& command : commands) Apply(command);
      commands.clear();
    }
    bool stepped = false;
    double wait = -1;  // > 0: the next paced step is due in `wait` seconds
    if (pending_steps_ > 0) {
      --pending_steps_;
      StepOnce();
      stepped = true;
      if (pending_steps_ == 0) SendStatus();
    } else if (playing_) {
      // The next step is due when its time, from the anchor, is reached at `speed_` times real
      // time (at once for speed 0, as fast as possible).
      const double now = Now();
      const double due =
          speed_ == 0.0
              ? now
              : anchor_wall_ +
                    (simulation_->TimeAt(simulation_->step_count() + 1) - anchor_time_) / speed_;
      if (now >= due) {
        if (now - due > kLagBeforeReanchor) {
          anchor_wall_ = now;
          anchor_time_ = simulation_->time();
        }
        StepOnce();
        stepped = true;
      } else {
        wait = due - now;
      }
    }
    if ((dirty_ || force_frame_) && frame_wanted_.exchange(false)) {
      force_frame_ = false;
      const double start = Now();
      EncodeFrame(*simulation_, frame_,
                  frame_exact_ ? FramePrecision::kFloat64 : FramePrecision::kFloat32);
      dirty_ = false;
      if (sink_.frame) sink_.frame(frame_);
      const double end = Now();
      encode_seconds_ += end - start;
      ++timed_frames_;
      if (end - timing_start_ >= 1.0) SendTimings(end);
      continue;
    }
    if (stepped) continue;
    // Nothing to do until a command, a frame request (with a state to send) or the next paced
    // step.
    std::unique_lock lock(mutex_);
    const auto woken = [&] {
      return stop_ || has_commands_ || (frame_wanted_ && (dirty_ || force_frame_));
    };
    if (wait > 0)
      wake_.wait_for(lock, std::chrono::duration<double>(wait), woken);
    else if (!playing_ && pending_steps_ == 0)
      wake_.wait(lock, woken);
  }
}

void Session::StepOnce() {
  try {
    const double start = Now();
    simulation_->Step();
    step_seconds_ += Now() - start;
    ++timed_steps_;
  } catch (const NumericalError& error) {
    failed_ = true;
    playing_ = false;
    pending_steps_ = 0;
    SendLog("error", error.what());
    SendStatus();
    return;
  } catch (const SceneError& error) {
    failed_ = true;
    playing_ = false;
    pending_steps_ = 0;
    SendLog("error", SceneErrorText(error));
    SendStatus();
    return;
  }
  dirty_ = true;
  if (record_writer_) {
    record_writer_->Record(*simulation_);
    if (!record_writer_->ok()) {
      SendLog("error", record_name_ + ": " +
                           (record_writer_->error().empty() ? std::string("write failed")
                                                            : record_writer_->error()));
      StopRecording();
      SendStatus();
    }
  }
}

void Session::Apply(const std::string& text) {
  const json command = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const std::string name =
      command.is_object() && command.contains("cmd") && command["cmd"].is_string()
          ? command["cmd"].get<std::string>()
          : std::string();
  const auto number = [&](const char* key, double fallback) {
    return command.contains(key) && command[key].is_number() ? command[key].get<double>()
                                                             : fallback;
  };
  if (name == "status") {
    SendStatus();
  } else if (name == "play") {
    if (failed_) {
      SendLog("error", "the simulation failed at step " +
                           std::to_string(simulation_->step_count() + 1) +
                           ": reset it before playing (expected a reset)");
    } else {
      playing_ = true;
      anchor_wall_ = Now();
      anchor_time_ = simulation_->time();
    }
    SendStatus();
  } else if (name == "pause") {
    playing_ = false;
    pending_steps_ = 0;
    SendStatus();
  } else if (name == "step") {
    const double count = number("count", 1);
    if (failed_ || !(count >= 1 && count <= kMostSteps)) {
      SendLog("error", failed_ ? "the simulation failed: reset it before stepping"
                               : "step: count " + FormatReal(count) + " refused (expected 1 to " +
                                     std::to_string(kMostSteps) + ")");
      return;
    }
    playing_ = false;
    pending_steps_ += static_cast<long>(count);
    SendStatus();
  } else if (name == "reset") {
    Reset();
  } else if (name == "speed") {
    const double speed = number("value", -1);
    if (!(speed >= 0 && speed <= kFastestSpeed)) {
      SendLog("error", "speed " + FormatReal(speed) +
                           " refused (expected 0, as fast as possible, "
                           "or a multiple of real time up to " +
                           FormatReal(kFastestSpeed) + ")");
      return;
    }
    speed_ = speed;
    anchor_wall_ = Now();
    anchor_time_ = simulation_->time();
    SendStatus();
  } else if (name == "set") {
    const std::string component = command.value("component", "");
    const std::string field = command.value("field", "");
    std::vector<double> values;
    if (command.contains("values") && command["values"].is_array())
      for (const json& value : command["values"])
        if (value.is_number()) values.push_back(value.get<double>());
    try {
      simulation_->SetComponentField(component, field, values);
      std::string shown;
      for (const double v : values) shown += (shown.empty() ? "" : " ") + FormatReal(v);
      const std::string message = component + "." + field + " = " + shown + " from step " +
                                  std::to_string(simulation_->step_count() + 1);
      LogInfo(message);
      SendLog("info", message);
    } catch (const UsageError& error) {
      SendLog("error", error.what());
    }
  } else if (name == "solver") {
    SolverChoice choice{command.value("name", ""), {}};
    if (command.contains("parameters") && command["parameters"].is_object())
      for (const auto& [key, value] : command["parameters"].items())
        if (value.is_string()) choice.parameters.emplace_back(key, value.get<std::string>());
    try {
      simulation_->ReplaceSolver(choice);
      page_solver_ = choice;
      const std::string message = "every solver node now uses " + choice.name + " from step " +
                                  std::to_string(simulation_->step_count() + 1);
      LogInfo(message);
      SendLog("info", message);
    } catch (const SceneError& error) {
      SendLog("error", SceneErrorText(error));
    } catch (const PluginError& error) {
      SendLog("error", error.what());
    }
    SendStatus();
  } else if (name == "record") {
    if (record_writer_) {
      StopRecording();
    } else if (options_.record && !record_option_used_) {
      record_option_used_ = true;
      StartRecording(options_.record);
    } else {
      // A new file beside the others: <scene>-view-N.csv in the output folder, never replacing.
      const std::string stem = std::filesystem::path(options_.scene).stem().string();
      std::optional<OutputClaim> claim;
      std::string why;
      for (int n = 1; n <= 999 && !claim; ++n)
        claim = ClaimOutputFile(stem + "-view-" + std::to_string(n) + ".csv", OutputOrigin::kScene,
                                "the recording (the page's record button)", &why);
      if (!claim) SendLog("error", why);
      StartRecording(claim);
    }
    SendStatus();
  } else {
    SendLog("error",
            "unknown command '" + EscapeControl(text.substr(0, 80)) +
                "' (expected status, play, pause, step, reset, speed, set, solver or record)");
  }
}

void Session::Reset() {
  StopRecording();
  LoadOptions load = options_.load;
  if (page_solver_) load.solver = page_solver_;
  try {
    Simulation reloaded = host_.LoadFile(options_.scene, load);
    if (!SameLayout(*simulation_, reloaded)) {
      SendLog("error", options_.scene +
                           ": the scene's objects changed on disk (expected the same objects and "
                           "point counts: restart fluxion-view to see the new scene)");
      return;
    }
    simulation_.emplace(std::move(reloaded));
  } catch (const SceneError& error) {
    SendLog("error", SceneErrorText(error));
    return;
  } catch (const PluginError& error) {
    SendLog("error", error.what());
    return;
  } catch (const ConfigError& error) {
    SendLog("error", options_.scene + ": " + error.what());
    return;
  }
  playing_ = false;
  pending_steps_ = 0;
  failed_ = false;
  dirty_ = true;
  LogInfo(options_.scene + ": reset to step 0");
  if (sink_.event) sink_.event(json{{"type", "reset"}}.dump());
  SendStatus();
}

void Session::StartRecording(std::optional<OutputClaim> claim) {
  if (!claim) return;
  std::string why;
  record_file_ = OpenClaimedOutputFile(*claim, &why);
  if (!record_file_) {
    SendLog("error", why);
    return;
  }
  record_name_ = claim->name;
  record_writer_ = MakeCsvTrajectoryWriter(record_file_.get());
  record_writer_->Begin(*simulation_);
  record_writer_->Record(*simulation_);
  const std::string message = "recording the trajectory into " + record_name_ + " from step " +
                              std::to_string(simulation_->step_count());
  LogInfo(message);
  SendLog("info", message);
}

void Session::StopRecording() {
  if (!record_writer_) return;
  record_writer_->End(*simulation_);
  const bool ok = record_writer_->ok();
  record_writer_.reset();
  const bool closed = std::fclose(record_file_.release()) == 0;
  const std::string message = (ok && closed ? "recorded the trajectory into " + record_name_
                                            : record_name_ + ": write failed") +
                              " up to step " + std::to_string(simulation_->step_count());
  LogInfo(message);
  SendLog(ok && closed ? "info" : "error", message);
  record_name_.clear();
}

void Session::SendStatus() {
  if (!sink_.event) return;
  const auto& nodes = simulation_->solver_nodes();
  sink_.event(json{{"type", "status"},
                   {"playing", playing_},
                   {"speed", speed_},
                   {"step", simulation_->step_count()},
                   {"failed", failed_},
                   {"solver", nodes.empty() ? std::string() : nodes.front().solver_type},
                   {"recording", record_name_}}
                  .dump(-1, ' ', false, json::error_handler_t::replace));
}

// The simulation thread's share of a frame's time: how long a step takes, and how long a frame
// takes to encode (energies included) and hand over, averaged since the last report.
void Session::SendTimings(double now) {
  if (sink_.event && timed_frames_ > 0)
    sink_.event(json{{"type", "timing"},
                     {"step_ms", timed_steps_ ? 1e3 * step_seconds_ / timed_steps_ : 0.0},
                     {"encode_ms", 1e3 * encode_seconds_ / timed_frames_},
                     {"steps_per_frame", static_cast<double>(timed_steps_) / timed_frames_}}
                    .dump());
  timing_start_ = now;
  step_seconds_ = encode_seconds_ = 0.0;
  timed_steps_ = timed_frames_ = 0;
}

void Session::SendLog(const std::string& level, const std::string& text) {
  if (level == "error") Log(LogLevel::kWarn, text);
  if (!sink_.event) return;
  sink_.event(json{{"type", "log"}, {"level", level}, {"text", text}}.dump(
      -1, ' ', false, json::error_handler_t::replace));
}

}  // namespace fluxion::view
