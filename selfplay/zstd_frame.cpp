#include "selfplay/zstd_frame.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader: the frame's checksum flag
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>

namespace ataxx {
namespace {

constexpr std::size_t kDecompressionStep = std::size_t{1} << 20;  // output grows by at most this at a time

[[noreturn]] void frame_error(const std::string& what) { throw std::runtime_error(what); }

}  // namespace

std::string compress_frame(std::string_view raw) {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!context) throw std::bad_alloc();
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, 3);
  ZSTD_CCtx_setParameter(context.get(), ZSTD_c_checksumFlag, 1);
  std::string compressed(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size = ZSTD_compress2(context.get(), compressed.data(), compressed.size(), raw.data(), raw.size());
  if (ZSTD_isError(size)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
  compressed.resize(size);
  return compressed;
}

ZstdFrameInfo read_frame_info(std::string_view frame) {
  ZSTD_frameHeader info;
  if (ZSTD_getFrameHeader(&info, frame.data(), frame.size()) != 0 || info.frameType != ZSTD_frame)
    frame_error("the compressed data is damaged");
  if (info.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN) frame_error("the compressed data has no size");
  return {.content_size = static_cast<std::size_t>(info.frameContentSize), .checksum = info.checksumFlag != 0};
}

std::string decompress_frame(std::string_view frame, std::size_t claimed) {
  if (claimed == std::numeric_limits<std::size_t>::max()) frame_error("the compressed data claims too much");
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!context) throw std::bad_alloc();
  std::string raw;
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  std::size_t left = 1;  // ZSTD_decompressStream's hint: 0 once the frame is whole
  while (left != 0) {
    const std::size_t used = raw.size();
    raw.resize(used + std::min(kDecompressionStep, claimed + 1 - used));  // one byte more: a longer frame shows
    ZSTD_outBuffer out{raw.data(), raw.size(), used};
    left = ZSTD_decompressStream(context.get(), &out, &in);
    raw.resize(out.pos);
    if (ZSTD_isError(left))
      frame_error(std::string("the compressed data is damaged (") + ZSTD_getErrorName(left) + ")");
    if (raw.size() > claimed) frame_error("the compressed data is longer than it says");
    if (left != 0 && in.pos == in.size && out.pos < out.size) frame_error("the compressed data is truncated");
  }
  if (raw.size() != claimed) frame_error("the compressed data is shorter than it says");
  if (in.pos != in.size) frame_error("trailing data after the compressed data");
  return raw;
}

}  // namespace ataxx
