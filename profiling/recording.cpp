#include "profiling/recording.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "common/atomic_file.h"
#include "common/gzip.h"
#include "common/text.h"
#include "profiling/bench_json.h"
#include "profiling/device_json.h"
#include "profiling/json_reader.h"
#include "profiling/profile_json.h"
#include "profiling/source/source_profile_json.h"
#include "viz/warp_trace_json.h"

namespace tclens::profiling {
namespace {

// The compute capability of the recording's first GPU (major * 10 + minor), 0 without one.
int recording_sm(const Recording& recording) {
    if (!recording.system.has_gpu()) return 0;
    const DeviceFacts& gpu = recording.system.devices.front();
    return gpu.cc_major * 10 + gpu.cc_minor;
}

using nlohmann::json;

// A recording's trace: warp_trace_from_json in the signature JsonReader::list takes.
bool trace_from_json(const json& in, viz::WarpTrace& trace, std::string& error) {
    return viz::warp_trace_from_json(in, trace, error);
}

// A worker of "workers": {"worker": its number (its place, from 1), "host", "device"}.
bool worker_from_json(const json& in, RecordingWorker& worker, std::string& error) {
    JsonReader read(error);
    read(in, "host", worker.host);
    if (read.ok() && !in.contains("device")) read.fail("missing key 'device'");
    if (read.ok()) {
        std::string device_error;
        if (!system_report_from_json(in.at("device"), worker.system, device_error))
            read.fail("device: " + device_error);
    }
    return read.ok();
}

// Version 5's "workers" and each bench row's "worker" (a number in "workers"), into `out`.
void read_workers(const json& in, JsonReader& read, Recording& out) {
    read.list(in, "workers", out.workers, worker_from_json);
    for (std::size_t w = 0; read.ok() && w < out.workers.size(); ++w) {
        int number = 0;
        read(in.at("workers").at(w), "worker", number);
        if (read.ok() && number != int(w) + 1) {
            read.fail("workers[" + std::to_string(w) + "]: worker " + std::to_string(number) +
                      " is not its place in the list (" + std::to_string(w + 1) + ")");
        }
    }
    read(in, "notes", out.notes);
    for (std::size_t r = 0; read.ok() && r < out.bench.size(); ++r) {
        int number = 0;
        read(in.at("bench").at(r), "worker", number);
        if (read.ok() && (number < 1 || number > int(out.workers.size()))) {
            read.fail("bench[" + std::to_string(r) + "]: worker " + std::to_string(number) +
                      " is not one of the " + std::to_string(out.workers.size()) + " in 'workers'");
        }
        out.bench_worker.push_back(number - 1);
    }
}

// "12.3 MiB" for a byte count.
// Thrown out of the parser when the load is cancelled.
struct LoadCancelled {};

// json::parse, looking at `cancel` every 4096 parser events (a few microseconds apart).
json parse_unless_cancelled(const std::string& text, const std::atomic<bool>& cancel) {
    std::uint64_t events = 0;
    return json::parse(text, [&](int, json::parse_event_t, json&) {
        if ((++events & 4095) == 0 && cancel.load(std::memory_order_relaxed)) {
            throw LoadCancelled{};
        }
        return true;
    });
}

std::string mebibytes(std::uintmax_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1 << 20));
    return text;
}

}  // namespace

json to_json(const Recording& recording) {
    json peaks = json::array();
    for (const kernels::PeakMeasurement& peak : recording.peaks) peaks.push_back(to_json(peak));
    // Rows that name no worker (a recording made in memory without them) ran on its system.
    std::vector<RecordingWorker> listed = recording.workers;
    if (listed.empty() && !recording.bench.empty()) listed.push_back({"", recording.system});
    json workers = json::array();
    for (std::size_t w = 0; w < listed.size(); ++w) {
        workers.push_back(
            {{"worker", w + 1}, {"host", listed[w].host}, {"device", to_json(listed[w].system)}});
    }
    json bench = json::array();
    for (std::size_t r = 0; r < recording.bench.size(); ++r) {
        bench.push_back(to_json(recording.bench[r]));
        int worker = r < recording.bench_worker.size() ? recording.bench_worker[r] : 0;
        if (worker < 0 || std::size_t(worker) >= listed.size()) worker = 0;
        bench.back()["worker"] = worker + 1;
    }
    json profiles = json::array();
    for (const KernelProfile& profile : recording.profiles) profiles.push_back(to_json(profile));
    json timelines = json::array();
    for (const KernelTimeline& timeline : recording.timelines) {
        timelines.push_back(to_json(timeline));
    }
    json sources = json::array();
    for (const SourceProfile& source : sources_of(recording)) sources.push_back(to_json(source));
    json mixes = json::array();
    for (const RecordedInstructionMix& mix : recording.instruction_mixes) {
        mixes.push_back(to_json(mix));
    }
    json traces = json::array();
    for (const viz::WarpTrace& trace : traces_of(recording))
        traces.push_back(viz::warp_trace_json(trace));
    const DramBandwidth& dram = recording.dram_bandwidth;
    return {{"schema_version", recording.schema_version},
            {"tclens_version", recording.tclens_version},
            {"created_utc", recording.created_utc},
            {"command", recording.command},
            {"system", to_json(recording.system)},
            {"workers", workers},
            {"notes", recording.notes},
            {"peaks", peaks},
            {"peak_error", recording.peak_error},
            {"dram_bandwidth",
             dram.bytes_per_s > 0 ? json{{"bytes_per_s", dram.bytes_per_s}, {"method", dram.method}}
                                  : json()},
            {"bench", bench},
            {"profiles", profiles},
            {"timelines", timelines},
            {"sources", sources},
            {"sources_missing", recording.sources_missing},
            {"instruction_mixes", mixes},
            {"instruction_mixes_missing", recording.instruction_mixes_missing},
            {"traces", traces},
            {"traces_missing", recording.traces_missing}};
}

bool recording_from_json(const json& in, Recording& recording, std::string& error) {
    error.clear();
    if (!in.is_object()) {
        error = std::string("not a recording: the document is ") + in.type_name() +
                ", expected an object with \"schema_version\"";
        return false;
    }
    if (!in.contains("schema_version")) {
        error = "not a recording: missing key 'schema_version'";
        return false;
    }
    const json& version = in.at("schema_version");
    if (!version.is_number_integer()) {
        error = "key 'schema_version' has the wrong type: expected an integer";
        return false;
    }
    const std::int64_t found = version.get<std::int64_t>();
    if (found < kOldestRecordingSchemaVersion || found > kRecordingSchemaVersion) {
        const std::string wanted = std::to_string(kOldestRecordingSchemaVersion) + " to " +
                                   std::to_string(kRecordingSchemaVersion);
        error =
            "schema_version " + std::to_string(found) +
            (found > kRecordingSchemaVersion
                 ? " is newer than this build reads (" + wanted + "); open it with a newer tclens"
                 : " is older than this build reads (" + wanted + ")");
        return false;
    }

    JsonReader read(error);
    Recording out;
    read(in, "tclens_version", out.tclens_version);
    read(in, "created_utc", out.created_utc);
    read(in, "command", out.command);
    if (read.ok() && !in.contains("system")) read.fail("missing key 'system'");
    if (read.ok()) {
        std::string system_error;
        if (!system_report_from_json(in.at("system"), out.system, system_error)) {
            read.fail("system: " + system_error);
        }
    }
    read.list(in, "peaks", out.peaks, peak_from_json);
    read(in, "peak_error", out.peak_error);
    if (read.ok() && !in.contains("dram_bandwidth")) read.fail("missing key 'dram_bandwidth'");
    if (read.ok() && !in.at("dram_bandwidth").is_null()) {
        std::string dram_error;
        JsonReader read_dram(dram_error);
        read_dram(in.at("dram_bandwidth"), "bytes_per_s", out.dram_bandwidth.bytes_per_s);
        read_dram(in.at("dram_bandwidth"), "method", out.dram_bandwidth.method);
        if (!dram_error.empty()) read.fail("dram_bandwidth: " + dram_error);
    }
    read.list(in, "bench", out.bench, bench_row_from_json);
    if (found >= 5) {
        read_workers(in, read, out);
    } else {
        out.workers = {RecordingWorker{"", out.system}};
        out.bench_worker.assign(out.bench.size(), 0);
    }
    read.list(in, "profiles", out.profiles, kernel_profile_from_json);
    read.list(in, "timelines", out.timelines, kernel_timeline_from_json);
    if (found >= 2) {
        read.list(in, "sources", out.sources, source_profile_from_json);
        read(in, "sources_missing", out.sources_missing);
    } else {
        out.sources_missing = "the recording is schema_version " + std::to_string(found) +
                              ", from before tclens kept source profiles (per-instruction samples, "
                              "counts and SASS); record it again with tclens record to see them";
    }
    if (found >= 3) {
        read.list(in, "instruction_mixes", out.instruction_mixes, recorded_mix_from_json);
        read(in, "instruction_mixes_missing", out.instruction_mixes_missing);
    } else if (found == 2) {
        out.instruction_mixes = mixes_from_sources(out.sources, recording_sm(out));
        if (out.instruction_mixes.empty()) {
            out.instruction_mixes_missing =
                "the recording is schema_version 2 and none of its source profiles has SASS text";
        }
    } else {
        out.instruction_mixes_missing =
            "the recording is schema_version " + std::to_string(found) +
            ", from before recordings carried each kernel's instruction mix; record it again "
            "with tclens record to see it";
    }
    if (found >= 4) {
        read.list(in, "traces", out.traces, trace_from_json);
        read(in, "traces_missing", out.traces_missing);
    } else {
        out.traces_missing = "the recording is schema_version " + std::to_string(found) +
                             ", from before recordings carried warp traces; record it again with "
                             "tclens record on an sm_90 GPU to see them";
    }
    if (!read.ok()) return false;
    recording = std::move(out);
    return true;
}

std::string save_recording(const std::string& path, const Recording& recording) {
    if (common::ends_with(path, ".gz")) {
        const std::string packed = common::gzip(to_json(recording).dump());
        if (packed.empty()) return "cannot write " + path + ": zlib could not compress it";
        return common::write_bytes_atomically(path, packed);
    }
    return common::write_bytes_atomically(path, to_json(recording).dump(1) + "\n");
}

namespace {

// The JSON text of the recording file at `path`, gunzipped when it is gzip. False, with `error`
// one line after `where`, when it cannot be read.
bool read_recording_text(const std::string& path, const std::string& where, std::string& text,
                         std::string& error) {
    namespace fs = std::filesystem;
    if (path.empty()) {
        error = where + "no path given";
        return false;
    }
    std::error_code ignored;
    const fs::file_status status = fs::status(path, ignored);
    if (!fs::exists(status)) {
        error = where + "no such file";
        return false;
    }
    if (fs::is_directory(status)) {
        error = where + "it is a directory, not a file";
        return false;
    }
    if (!fs::is_regular_file(status)) {
        error = where + "not a regular file";
        return false;
    }
    const std::uintmax_t size = fs::file_size(path, ignored);
    if (size == 0) {
        error = where + "the file is empty";
        return false;
    }
    if (size > kMaxRecordingBytes) {
        error = where + mebibytes(size) + " is more than a recording may hold (" +
                mebibytes(kMaxRecordingBytes) + ")";
        return false;
    }
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        error = where + std::strerror(errno);
        return false;
    }
    text.assign(size, '\0');
    const std::size_t got = std::fread(text.data(), 1, text.size(), file);
    std::fclose(file);
    text.resize(got);
    if (common::looks_gzipped(text)) {
        std::string inflated, gzip_error;
        if (!common::gunzip(text, kMaxRecordingBytes, inflated, gzip_error)) {
            error = where + gzip_error;
            return false;
        }
        text = std::move(inflated);
    }
    return true;
}

// `text` parsed; false, with `error` one line after `where` (the byte of a syntax error).
bool parse_recording_text(const std::string& text, const std::string& where, json& document,
                          std::string& error, const std::atomic<bool>* cancel) {
    try {
        if (cancel != nullptr && cancel->load()) throw LoadCancelled{};
        document = cancel == nullptr ? json::parse(text) : parse_unless_cancelled(text, *cancel);
    } catch (const LoadCancelled&) {
        error = where + "cancelled";
        return false;
    } catch (const json::parse_error& e) {
        error = where + (e.byte >= text.size()
                             ? "the JSON ends early at byte " + std::to_string(e.byte) +
                                   " (a truncated file?)"
                             : "not JSON: syntax error at byte " + std::to_string(e.byte));
        return false;
    } catch (const json::out_of_range& e) {
        // The parser's only out_of_range: a number too large for a double ("1e999").
        const std::string what = e.what();
        error = where + "a number is out of range: " + what.substr(what.find("] ") + 2);
        return false;
    }
    return true;
}

bool recording_from_text(const std::string& text, const std::string& where, Recording& recording,
                         std::string& error, const std::atomic<bool>* cancel) {
    json document;
    if (!parse_recording_text(text, where, document, error, cancel)) return false;
    std::string content_error;
    if (!recording_from_json(document, recording, content_error)) {
        error = where + content_error;
        return false;
    }
    error.clear();
    return true;
}

std::string where_of(const std::string& path) {
    return "cannot open recording " + (path.empty() ? "''" : path) + ": ";
}

// The scanner of bulk_ranges: where the JSON string or value starting at `at` ends (one past
// it), or npos where the text ends first. Strings skip their escapes; arrays and objects match
// their brackets; a scalar ends at the next comma, bracket or white space.
constexpr std::size_t kNowhere = std::string::npos;

std::size_t skip_space(const std::string& text, std::size_t at) {
    const std::size_t next = text.find_first_not_of(" \t\r\n", at);
    return next == kNowhere ? text.size() : next;
}

std::size_t string_end(const std::string& text, std::size_t at) {
    for (std::size_t i = at + 1; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
        } else if (text[i] == '"') {
            return i + 1;
        }
    }
    return kNowhere;
}

std::size_t value_end(const std::string& text, std::size_t at) {
    if (at >= text.size()) return kNowhere;
    if (text[at] == '"') return string_end(text, at);
    if (text[at] != '[' && text[at] != '{') {
        const std::size_t end = text.find_first_of(",]} \t\r\n", at);
        return end == kNowhere ? text.size() : end;
    }
    int depth = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            i = string_end(text, i);
            if (i == kNowhere) return kNowhere;
            --i;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return i + 1;
        }
    }
    return kNowhere;
}

struct BulkRange {
    std::string key;  // "sources" or "traces"
    std::size_t begin = 0, end = 0;
};

// Where the array value of every top-level "sources" or "traces" member of the object `text` is,
// in order. Stops (with what it found) where the text is not such an object: the parser then
// says what is wrong.
std::vector<BulkRange> bulk_ranges(const std::string& text) {
    std::vector<BulkRange> ranges;
    std::size_t at = skip_space(text, 0);
    if (at >= text.size() || text[at] != '{') return ranges;
    at = skip_space(text, at + 1);
    while (at < text.size() && text[at] == '"') {
        const std::size_t key_end = string_end(text, at);
        if (key_end == kNowhere) break;
        const std::string key = text.substr(at + 1, key_end - at - 2);
        at = skip_space(text, key_end);
        if (at >= text.size() || text[at] != ':') break;
        at = skip_space(text, at + 1);
        const std::size_t end = value_end(text, at);
        if (end == kNowhere) break;
        if ((key == "sources" || key == "traces") && text[at] == '[') {
            ranges.push_back({key, at, end});
        }
        at = skip_space(text, end);
        if (at >= text.size() || text[at] != ',') break;
        at = skip_space(text, at + 1);
    }
    return ranges;
}

}  // namespace

bool load_recording(const std::string& path, Recording& recording, std::string& error,
                    const std::atomic<bool>* cancel) {
    const std::string where = where_of(path);
    std::string text;
    return read_recording_text(path, where, text, error) &&
           recording_from_text(text, where, recording, error, cancel);
}

bool load_recording_deferring_bulk(const std::string& path, Recording& recording,
                                   std::string& error, const std::atomic<bool>* cancel) {
    const std::string where = where_of(path);
    std::string text;
    if (!read_recording_text(path, where, text, error)) return false;
    // The text without the bulk: each of its arrays as "[]". The last of a key counts, as in
    // the parser.
    std::string light;
    RecordingBulk::Span sources, traces;
    std::size_t copied = 0;
    for (const BulkRange& range : bulk_ranges(text)) {
        light.append(text, copied, range.begin - copied);
        light += "[]";
        (range.key == "sources" ? sources : traces) = {range.begin, range.end};
        copied = range.end;
    }
    light.append(text, copied, std::string::npos);
    json document;
    Recording out;
    std::string content_error;
    const bool light_read = parse_recording_text(light, where, document, error, cancel) &&
                            recording_from_json(document, out, content_error);
    if (light_read && document.at("schema_version").get<int>() >= 4) {
        out.bulk = std::make_shared<RecordingBulk>(std::move(text), sources, traces);
        recording = std::move(out);
        error.clear();
        return true;
    }
    if (error == where + "cancelled") return false;
    // An older recording (its instruction mixes come from its sources), or a fault: the whole
    // text, so that what is read and every message (a syntax error's byte) are load_recording's.
    return recording_from_text(text, where, recording, error, cancel);
}

RecordingBulk::RecordingBulk(std::string text, Span sources, Span traces)
    : text_(std::move(text)), sources_span_(sources), traces_span_(traces) {}

void RecordingBulk::read() const {
    std::call_once(once_, [this] {
        JsonReader reader(error_);
        const auto part = [this](Span span) {
            if (span.begin == span.end) return json::array();
            return json::parse(text_.begin() + static_cast<std::ptrdiff_t>(span.begin),
                               text_.begin() + static_cast<std::ptrdiff_t>(span.end), nullptr,
                               false);
        };
        const json parts = {{"sources", part(sources_span_)}, {"traces", part(traces_span_)}};
        for (const char* key : {"sources", "traces"}) {
            if (parts.at(key).is_discarded()) reader.fail(std::string(key) + ": not JSON");
        }
        reader.list(parts, "sources", sources_, source_profile_from_json);
        reader.list(parts, "traces", traces_, trace_from_json);
        if (!reader.ok()) {
            sources_.clear();
            traces_.clear();
        }
        text_ = std::string();
        read_.store(true, std::memory_order_release);
    });
}

const std::vector<SourceProfile>& RecordingBulk::sources() const {
    read();
    return sources_;
}

const std::vector<viz::WarpTrace>& RecordingBulk::traces() const {
    read();
    return traces_;
}

bool RecordingBulk::is_read() const { return read_.load(std::memory_order_acquire); }

const std::string& RecordingBulk::error() const {
    read();
    return error_;
}

const std::vector<SourceProfile>& sources_of(const Recording& recording) {
    return recording.bulk ? recording.bulk->sources() : recording.sources;
}

const std::vector<viz::WarpTrace>& traces_of(const Recording& recording) {
    return recording.bulk ? recording.bulk->traces() : recording.traces;
}

std::string worker_gpu_text(const std::string& host, const SystemReport& system) {
    const std::string where = host.empty() ? "" : host + ": ";
    if (system.devices.empty()) return where + "no GPU";
    const DeviceFacts& gpu = system.devices.front();
    return where + gpu.name + (gpu.pci_bus_id.empty() ? "" : " (" + gpu.pci_bus_id + ")");
}

std::string row_gpu_text(const Recording& recording, std::size_t row) {
    if (row >= recording.bench_worker.size()) return "";
    const std::size_t worker = std::size_t(recording.bench_worker[row]);
    if (worker >= recording.workers.size()) return "";
    return worker_gpu_text(recording.workers[worker].host, recording.workers[worker].system);
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace tclens::profiling
