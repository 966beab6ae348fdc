// One zstd frame of a chunk's samples (selfplay/training_data.h): written with its content size and
// checksum, read back without trusting either until checked. The one file that includes zstd.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ataxx {

struct ZstdFrameInfo {
  std::size_t content_size = 0;  // what the frame says it holds
  bool checksum = false;         // whether it carries its content's checksum
};

// Level 3, with the content's size and checksum in the frame.
std::string compress_frame(std::string_view raw);

// The frame's header. Throws std::runtime_error, saying what is wrong, for a damaged frame or one
// that does not say its size.
ZstdFrameInfo read_frame_info(std::string_view frame);

// The frame's content, which must be `claimed` bytes long. Memory grows with what the frame
// really holds as it is decompressed, never with the claim: a frame of a few bytes that claims
// gigabytes fails after at most a block's worth (what zstd's run-length blocks can make of them).
// Throws std::runtime_error, saying what is wrong, where it is not.
std::string decompress_frame(std::string_view frame, std::size_t claimed);

}  // namespace ataxx
