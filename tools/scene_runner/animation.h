// An animated preview of a run (scene-runner --animate FILE.gif): the pictures of render.h as the
// frames of a looping GIF, written with Debian's giflib.
#pragma once

#include <string>

#include "render.h"

struct GifFileType;

namespace fluxion::runner {

/// A looping GIF built one frame at a time. Colours are mapped to a fixed palette — the 6×6×6
/// colour cube and 40 greys — which holds the pictures' white, black, greys and strain colours
/// closely enough to see (GIF allows 256 colours; a fixed palette needs no second pass). Every
/// frame is `delay_cs` hundredths of a second. Not copyable.
class GifAnimation {
 public:
  GifAnimation() = default;
  GifAnimation(const GifAnimation&) = delete;
  GifAnimation& operator=(const GifAnimation&) = delete;
  ~GifAnimation();

  /// Creates the file of `claim` through the output policy for frames of width × height
  /// pixels. False with `why`.
  bool Open(const OutputClaim& claim, int width, int height, int delay_cs, std::string& why);
  /// Appends the picture of the simulation's current state. False with `why`.
  bool Add(const Simulation& simulation, const Camera& camera, const std::string& title,
           std::string& why);
  /// Writes the end of the file and closes it. False with `why`.
  bool Close(std::string& why);

 private:
  GifFileType* gif_ = nullptr;
  std::string path_;
  int width_ = 0, height_ = 0, delay_cs_ = 4;
};

}  // namespace fluxion::runner
