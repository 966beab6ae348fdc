// One zstd frame of a chunk's samples (selfplay/training_data.h): written with its content size and
// checksum, read back without trusting either until checked. zstd is included here alone.
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

// The frame's header. The errors thrown (std::runtime_error) name the chunk `name`, as all a
// chunk's do: a damaged frame, or one that does not say its size.
ZstdFrameInfo read_frame_info(std::string_view frame, const std::string& name);

// The frame's content, which must be `claimed` bytes long. Memory grows with what the frame
// really holds as it is decompressed, never with the claim: a frame of a few bytes that claims
// gigabytes fails after at most a block's worth (what zstd's run-length blocks can make of them).
std::string decompress_frame(std::string_view frame, std::size_t claimed, const std::string& name);

}  // namespace ataxx
