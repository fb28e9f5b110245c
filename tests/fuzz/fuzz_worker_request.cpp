// libFuzzer harness for the worker's request parser (app/worker/requests.h): decode_request on
// one line, as `tclens worker` reads it from its stdin.
//
// Input: the line (no '\n' needed; any bytes).
// Invariants:
//   - a refused line gets one error line (no newline), and the id it reports is 0 or a valid id;
//   - an accepted request has a valid id, and its encoding decodes to a request that encodes to
//     the same text (what the client writes, the worker reads back unchanged).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app/worker/requests.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens::worker;
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const DecodedRequest decoded = decode_request(line);
    TCLENS_FUZZ_CHECK(decoded.id >= 0 && decoded.id <= kMaxRequestId, decoded.error);
    if (!decoded.request) {
        TCLENS_FUZZ_CHECK(!decoded.error.empty(), std::string(line));
        TCLENS_FUZZ_CHECK(decoded.error.find('\n') == std::string::npos, decoded.error);
        return 0;
    }
    TCLENS_FUZZ_CHECK(decoded.error.empty(), decoded.error);
    TCLENS_FUZZ_CHECK(decoded.request->id >= 1 && decoded.request->id == decoded.id,
                      std::string(line));
    const std::string encoded = encode_request(*decoded.request);
    TCLENS_FUZZ_CHECK(encoded.find('\n') == std::string::npos, encoded);
    const DecodedRequest again = decode_request(encoded);
    TCLENS_FUZZ_CHECK(again.request.has_value(), encoded + " -> " + again.error);
    TCLENS_FUZZ_CHECK(encode_request(*again.request) == encoded,
                      encoded + " -> " + encode_request(*again.request));
    return 0;
}
