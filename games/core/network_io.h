// What a game's encoding gives the network and asks of it, on a square canvas: its input planes,
// the one of them that marks the board's cells (the trunk is masked to it), and its policy planes
// per cell (the pass comes after them). The network itself takes any canvas.
#pragma once

namespace ataxx {

struct NetworkIo {
  int input_planes = 0;
  int mask_plane = 0;
  int move_planes = 0;
  int canvas = 0;
  int area() const { return canvas * canvas; }
  int input_size() const { return input_planes * area(); }
  int policy_size() const { return move_planes * area() + 1; }
  int pass_index() const { return move_planes * area(); }
};

}  // namespace ataxx
