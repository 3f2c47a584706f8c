// The simulation of fluxion-view, on its own thread: it steps while playing (at a chosen multiple
// of real time, or as fast as it can), applies the page's commands between steps, and hands over
// a frame only when the page has asked for one (the page asks once it has drawn the last), so
// that a slow page or network never queues states: the states in between are not sent.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "fluxion/host.h"
#include "fluxion/output_files.h"
#include "fluxion/simulation.h"
#include "fluxion/trajectory_writer.h"

namespace fluxion::view {

struct SessionOptions {
  std::string scene;
  LoadOptions load;
  /// --record FILE: the trajectory from step 0 into FILE (claimed by the caller), as
  /// scene-runner --output FILE writes it; empty for none.
  std::optional<OutputClaim> record;
};

/// Where the session's output goes; both are called on the simulation thread.
struct SessionSink {
  /// A frame (frame.h) the page asked for; valid during the call only.
  std::function<void(std::span<const unsigned char>)> frame;
  /// A JSON event for the page: {"type": "status" | "log" | "reset", ...}.
  std::function<void(std::string)> event;
};

class Session {
 public:
  /// Loads the scene (throws SceneError, PluginError, ConfigError as Host::LoadFile).
  Session(const Host& host, SessionOptions options);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  /// /scene.json (scene_description.h) of the scene as loaded.
  const std::string& description() const { return description_; }

  /// Starts the simulation thread, paused at step 0.
  void Start(SessionSink sink);
  /// Stops the thread and finishes the recording, if any. Idempotent.
  void Stop();

  /// A command of the page (docs/viewer.md "Commands"), JSON text; applied between steps.
  void Submit(std::string command);
  /// The page is ready for the next frame, as float64 (exact: the simulation's doubles) or
  /// float32 (what the page draws) positions; a new page (reconnection) also wants the current
  /// state even when nothing changed.
  void RequestFrame(bool current_state_too = false, bool exact = true);

 private:
  void Loop();
  void Apply(const std::string& command);
  void StepOnce();
  void Reset();
  void StartRecording(std::optional<OutputClaim> claim);
  void StopRecording();
  void SendStatus();
  void SendLog(const std::string& level, const std::string& text);
  void SendTimings(double now);

  const Host& host_;
  SessionOptions options_;
  std::optional<SolverChoice> page_solver_;  // chosen on the page: kept across resets
  std::optional<Simulation> simulation_;
  std::string description_;
  SessionSink sink_;
  std::thread thread_;
  std::vector<unsigned char> frame_;

  // Shared with the network thread. The flags are atomic so that a running simulation checks
  // them without taking the mutex at every step (a thread relocking a mutex in a tight loop
  // starves the others that wait for it); they are set under the mutex, so that the simulation,
  // when idle, waits on the condition without missing a wake-up.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> commands_;  // under mutex_
  std::atomic<bool> has_commands_{false};
  std::atomic<bool> frame_wanted_{false};
  std::atomic<bool> force_frame_{false};
  std::atomic<bool> frame_exact_{true};
  std::atomic<bool> stop_{false};

  // The simulation thread's own.
  bool playing_ = false;
  long pending_steps_ = 0;
  double speed_ = 1.0;                            // multiple of real time; 0: as fast as possible
  bool dirty_ = true;                             // a state not yet sent
  double anchor_wall_ = 0.0, anchor_time_ = 0.0;  // pacing: when play (re)started
  bool failed_ = false;  // the last step failed (NumericalError): play refused until reset

  // Where the simulation thread's time goes, over about a second (the page's "timing" events,
  // docs/viewer.md "Measured").
  double timing_start_ = 0.0, step_seconds_ = 0.0, encode_seconds_ = 0.0;
  long timed_steps_ = 0, timed_frames_ = 0;

  // The recording.
  OutputFile record_file_;
  std::unique_ptr<TrajectoryWriter> record_writer_;
  std::string record_name_;
  bool record_option_used_ = false;
};

}  // namespace fluxion::view
