// An animated preview of a run (scene-runner --animate FILE.gif): the pictures of render.h as the
// frames of a looping GIF, written with Debian's giflib.
#pragma once

#include <string>
#include <vector>

#include "render.h"

struct GifFileType;

namespace fluxion::runner {

/// A looping GIF of a run. Frames are recorded as the run goes (Snapshot: 12 bytes per 3-D point
/// and frame) and drawn when it ends, all with one camera fitted to every frame's points and one
/// strain scale, the largest strain of any frame: a swinging cloth stays in the picture and a
/// colour means the same strain in every frame. Colours are mapped to a fixed palette — the
/// 6×6×6 colour cube and 40 greys — which holds the pictures' white, black, greys and strain
/// colours closely enough to see (GIF allows 256 colours). Every frame is `delay_cs` hundredths
/// of a second. Not copyable.
class GifAnimation {
 public:
  GifAnimation() = default;
  GifAnimation(const GifAnimation&) = delete;
  GifAnimation& operator=(const GifAnimation&) = delete;
  ~GifAnimation();

  /// Creates the file of `claim` through the output policy for frames of width × height
  /// pixels. False with `why`.
  bool Open(const OutputClaim& claim, int width, int height, int delay_cs, std::string& why);
  /// Records the simulation's current state as the next frame.
  void Add(const Simulation& simulation);
  /// Draws every recorded frame as seen from `view`, writes them and the end of the file, and
  /// closes it. False with `why`.
  bool Close(const Simulation& simulation, View view, const std::string& title, std::string& why);

 private:
  bool WriteFrame(const Surface& surface, std::string& why);

  GifFileType* gif_ = nullptr;
  std::string path_;
  int width_ = 0, height_ = 0, delay_cs_ = 4;
  std::vector<Snapshot> frames_;
};

}  // namespace fluxion::runner
