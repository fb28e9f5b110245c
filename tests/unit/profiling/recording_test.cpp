// Tests for profiling/recording.*: a recording survives save and load with every field, plain
// and gzipped, and every kind of bad file (missing, a directory, empty, too large, junk,
// truncated, bad gzip, wrong types, another schema version) is refused with one line naming the
// file and what is wrong, leaving the caller's recording untouched. (The shipped recordings:
// shipped_recordings_test.cpp.)

#include "profiling/recording.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>

#include "common/gzip.h"
#include "profiling/bench_json.h"
#include "profiling/device_json.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"

namespace tclens::profiling {
namespace {

namespace fs = std::filesystem;

// A file under the temp folder, removed when the test ends.
class TempFile {
  public:
    explicit TempFile(const std::string& name) : path_(test::temp_path(name)) {}
    ~TempFile() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
        fs::remove(path_ + ".tmp", ignored);
    }
    const std::string& path() const { return path_; }
    void write(const std::string& bytes) const { std::ofstream(path_, std::ios::binary) << bytes; }

  private:
    std::string path_;
};

bool is_one_line(const std::string& text) {
    return !text.empty() && text.find('\n') == std::string::npos;
}

// Loads `file` expecting a refusal that names the file and contains `what`; a recording
// passed in stays as it was.
void expect_refused(const TempFile& file, const std::string& what) {
    Recording recording = test::sample_recording();
    std::string error;
    EXPECT_FALSE(load_recording(file.path(), recording, error));
    EXPECT_TRUE(is_one_line(error)) << error;
    EXPECT_NE(error.find(file.path()), std::string::npos) << error;
    EXPECT_NE(error.find(what), std::string::npos) << error;
    EXPECT_EQ(to_json(recording), to_json(test::sample_recording()));
}

// The sample with one change to its JSON, written to a file and refused with `what`.
void expect_refused_after(const std::function<void(nlohmann::json&)>& change,
                          const std::string& what) {
    TempFile file("changed.json");
    nlohmann::json j = to_json(test::sample_recording());
    change(j);
    file.write(j.dump());
    expect_refused(file, what);
}

TEST(Recording, JsonHasTheDocumentedKeys) {
    const nlohmann::json j = to_json(test::sample_recording());
    for (const char* key :
         {"schema_version", "tclens_version", "created_utc", "command", "system", "workers",
          "notes", "peaks", "peak_error", "dram_bandwidth", "bench", "profiles", "timelines",
          "sources", "sources_missing", "instruction_mixes", "instruction_mixes_missing", "traces",
          "traces_missing"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["schema_version"], kRecordingSchemaVersion);
    EXPECT_EQ(j["system"]["devices"][0]["name"], "tclens test GPU");
    EXPECT_EQ(j["peaks"][2]["precision"], "f16");
    EXPECT_EQ(j["dram_bandwidth"]["bytes_per_s"], 3.01e12);
    EXPECT_EQ(j["bench"].size(), 4u);
    EXPECT_EQ(j["profiles"][0]["kernel"], "wmma.f16");
    EXPECT_EQ(j["timelines"][0]["samples"].size(), 300u);
    EXPECT_EQ(j["instruction_mixes"][0]["kernel_id"], "wmma.f16");
    EXPECT_EQ(j["instruction_mixes"][0]["counts"]["hmma"], 16);
    EXPECT_EQ(j["instruction_mixes"][0]["counts"]["total"], 410);
    Recording unmeasured = test::sample_recording();
    unmeasured.dram_bandwidth = {};
    EXPECT_TRUE(to_json(unmeasured)["dram_bandwidth"].is_null());
}

TEST(Recording, SaveAndLoadKeepEveryField) {
    const Recording original = test::sample_recording();
    TempFile file("round_trip.json");
    ASSERT_EQ(save_recording(file.path(), original), "");
    EXPECT_FALSE(fs::exists(file.path() + ".tmp"));
    Recording back;
    std::string error;
    ASSERT_TRUE(load_recording(file.path(), back, error)) << error;
    EXPECT_EQ(error, "");
    // to_json writes every serialised field of every part, so equal documents mean equal fields.
    EXPECT_EQ(to_json(back), to_json(original));
    // And the fields the readers derive or restore on their own:
    EXPECT_EQ(back.schema_version, kRecordingSchemaVersion);
    EXPECT_EQ(back.created_utc, "2026-11-22T10:00:00Z");
    EXPECT_EQ(back.system.devices.at(0).l2_bytes, 52'428'800);
    EXPECT_EQ(back.system.devices.at(0).global_mem_bytes, 85'045'870'592ull);
    EXPECT_TRUE(back.system.devices.at(0).cluster_launch);
    ASSERT_EQ(back.peaks.size(), 4u);
    EXPECT_EQ(back.peaks[3].precision, kernels::Precision::kBF16);
    EXPECT_EQ(back.peaks[3].tflops, 905.5);
    EXPECT_EQ(back.dram_bandwidth.method, original.dram_bandwidth.method);
    ASSERT_EQ(back.bench.size(), 4u);
    EXPECT_EQ(back.bench[0].reference_id, "cublas.f16");
    EXPECT_EQ(back.bench[0].result.tflops, 292.0);
    EXPECT_TRUE(back.bench[0].result.counts());
    EXPECT_EQ(back.bench[1].result.skipped, "needs sm_90a (this GPU is sm_80)");
    EXPECT_EQ(back.bench[2].result.check.nan_count, 12);
    EXPECT_EQ(back.bench[2].result.check.wrong_elements, 40);
    EXPECT_FALSE(back.bench[2].result.counts());
    EXPECT_EQ(back.bench[3].reference_id, "");  // a cuBLAS row
    ASSERT_EQ(back.profiles.size(), 1u);
    EXPECT_EQ(back.profiles[0].metrics.size(), original.profiles[0].metrics.size());
    EXPECT_EQ(back.profiles[0].occupancy.limiter, "registers");
    ASSERT_EQ(back.timelines.size(), 1u);
    EXPECT_EQ(back.timelines[0].samples[299].values, original.timelines[0].samples[299].values);
    EXPECT_EQ(back.timelines[0].samples[299].sequence, 299u);
    ASSERT_EQ(back.instruction_mixes.size(), 1u);
    EXPECT_EQ(back.instruction_mixes[0].sm, 90);
    EXPECT_EQ(back.instruction_mixes[0].mix.arch, "sm_90a");
    EXPECT_EQ(back.instruction_mixes[0].mix[kernels::OpClass::kLdsLdsm], 24);
    EXPECT_EQ(back.instruction_mixes[0].mix.counts, original.instruction_mixes[0].mix.counts);
    ASSERT_EQ(back.sources.size(), 1u);
    EXPECT_EQ(back.sources[0].instructions.size(), original.sources[0].instructions.size());
    EXPECT_EQ(back.sources[0].files[0].text, original.sources[0].files[0].text);
    EXPECT_EQ(back.sources[0].stalls[0].key, original.sources[0].stalls[0].key);
    EXPECT_EQ(back.sources_missing, "");
    ASSERT_EQ(back.traces.size(), 1u);
    EXPECT_EQ(back.traces[0].kernel, "wgmma_ws.bf16");
    ASSERT_EQ(back.traces[0].phases.size(), 3u);
    EXPECT_EQ(back.traces[0].phases[2].phase, viz::TracePhase::kWgmma);
    EXPECT_EQ(back.traces[0].phases[2].end_ns, 700);
    EXPECT_EQ(back.traces_missing, "");
}

TEST(Recording, ANameEndingInGzIsWrittenGzippedAndReadBack) {
    const Recording original = test::sample_recording();
    TempFile plain("plain.json"), packed("packed.json.gz");
    ASSERT_EQ(save_recording(plain.path(), original), "");
    ASSERT_EQ(save_recording(packed.path(), original), "");
    std::ifstream in(packed.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(common::looks_gzipped(bytes));
    EXPECT_LT(fs::file_size(packed.path()), fs::file_size(plain.path()) / 4);
    Recording back;
    std::string error;
    ASSERT_TRUE(load_recording(packed.path(), back, error)) << error;
    EXPECT_EQ(to_json(back), to_json(original));
    // Told apart by the bytes, not the name: a gzipped file called .json opens too.
    TempFile renamed("gzipped_but_named.json");
    renamed.write(bytes);
    ASSERT_TRUE(load_recording(renamed.path(), back, error)) << error;
    EXPECT_EQ(to_json(back), to_json(original));
}

TEST(Recording, BadGzipIsRefusedInOneLine) {
    const std::string packed = common::gzip(to_json(test::sample_recording()).dump());
    TempFile truncated("truncated.json.gz");
    truncated.write(packed.substr(0, packed.size() / 2));
    expect_refused(truncated, "the gzip data ends early (a truncated file?)");
    TempFile trailing("trailing.json.gz");
    trailing.write(packed + "x");
    expect_refused(trailing, "bytes after the end of the gzip data");
    TempFile not_json("not_json.json.gz");
    not_json.write(common::gzip("not a recording"));
    expect_refused(not_json, "not JSON: syntax error at byte");
    // A small file that expands past the limit is refused once it has, not read to the end.
    TempFile bomb("bomb.json.gz");
    bomb.write(common::gzip(std::string(kMaxRecordingBytes + 1, ' ')));
    EXPECT_LT(fs::file_size(bomb.path()), 1u << 20);
    expect_refused(bomb, "it expands to more than 64 MiB");
}

TEST(Recording, ACancelledLoadStopsAndSaysSo) {
    TempFile file("cancelled.json.gz");
    ASSERT_EQ(save_recording(file.path(), test::sample_recording()), "");
    std::atomic<bool> cancel{true};
    Recording recording = test::sample_recording();
    std::string error;
    EXPECT_FALSE(load_recording(file.path(), recording, error, &cancel));
    EXPECT_EQ(error, "cannot open recording " + file.path() + ": cancelled");
    EXPECT_EQ(to_json(recording), to_json(test::sample_recording()));
    cancel = false;
    EXPECT_TRUE(load_recording(file.path(), recording, error, &cancel)) << error;
}

TEST(Recording, DeferringTheBulkReadsTheSameRecordingPlainOrGzipped) {
    for (const char* name : {"deferred.json", "deferred.json.gz"}) {
        TempFile file(name);
        ASSERT_EQ(save_recording(file.path(), test::sample_recording()), "");
        Recording whole, deferred;
        std::string error;
        ASSERT_TRUE(load_recording(file.path(), whole, error)) << error;
        ASSERT_TRUE(load_recording_deferring_bulk(file.path(), deferred, error)) << error;
        ASSERT_NE(deferred.bulk, nullptr);
        EXPECT_TRUE(deferred.sources.empty() && deferred.traces.empty());
        ASSERT_EQ(sources_of(deferred).size(), 1u);
        EXPECT_EQ(traces_of(deferred).at(0).kernel, "wgmma_ws.bf16");
        EXPECT_EQ(deferred.bulk->error(), "");
        EXPECT_EQ(to_json(deferred), to_json(whole));  // what Save recording as writes
    }
}

TEST(Recording, ADamagedBulkIsFoundWhenFirstAskedForAndReadsAsEmpty) {
    TempFile file("damaged_bulk.json");
    nlohmann::json j = to_json(test::sample_recording());
    j["sources"][0]["instructions"] = "many";
    // Strings with brackets and escaped quotes do not confuse the scanner that finds the bulk.
    j["command"] = "tclens record \"x]}\" [\"sources\": {";
    file.write(j.dump(1));
    Recording recording;
    std::string error;
    ASSERT_TRUE(load_recording_deferring_bulk(file.path(), recording, error)) << error;
    EXPECT_EQ(recording.command, j["command"]);
    EXPECT_TRUE(sources_of(recording).empty());
    EXPECT_TRUE(traces_of(recording).empty());
    EXPECT_NE(recording.bulk->error().find("sources[0]"), std::string::npos)
        << recording.bulk->error();
    // Read whole, the same file is refused as before.
    EXPECT_FALSE(load_recording(file.path(), recording, error));
    EXPECT_NE(error.find("sources[0]"), std::string::npos) << error;
}

TEST(Recording, DeferringTheBulkKeepsEveryRefusalOfTheRest) {
    TempFile junk("deferred_junk.json");
    const std::string whole = to_json(test::sample_recording()).dump(1);
    junk.write(whole.substr(0, whole.size() / 2));
    Recording recording;
    std::string deferred_error, error;
    EXPECT_FALSE(load_recording_deferring_bulk(junk.path(), recording, deferred_error));
    EXPECT_FALSE(load_recording(junk.path(), recording, error));
    EXPECT_EQ(deferred_error, error);  // the byte of the early end is the file's, not a cut text's
}

TEST(Recording, NotANumberSurvivesAsNaN) {
    // JSON has no NaN: a broken kernel's error is written as null and read back as NaN.
    Recording original = test::sample_recording();
    original.profiles[0].check.rel_rms_error = std::nan("");
    original.bench[2].result.check.rel_rms_error = std::nan("");
    original.profiles[0].error = profiler_error(ProfilerProblem::kFailed, "not verified");
    Recording back;
    std::string error;
    ASSERT_TRUE(recording_from_json(to_json(original), back, error)) << error;
    EXPECT_TRUE(std::isnan(back.profiles[0].check.rel_rms_error));
    EXPECT_TRUE(std::isnan(back.bench[2].result.check.rel_rms_error));
    EXPECT_EQ(back.profiles[0].error.message, "not verified");
}

TEST(Recording, SaveReplacesAtomicallyAndReportsUnwritablePaths) {
    TempFile file("replace.json");
    file.write("old");
    ASSERT_EQ(save_recording(file.path(), test::sample_recording()), "");
    Recording back;
    std::string error;
    EXPECT_TRUE(load_recording(file.path(), back, error)) << error;

    const std::string nowhere = test::temp_path("no_such_folder") + "/r.json";
    error = save_recording(nowhere, test::sample_recording());
    EXPECT_TRUE(is_one_line(error)) << error;
    EXPECT_NE(error.find(nowhere), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(nowhere));
    EXPECT_FALSE(fs::exists(nowhere + ".tmp"));
}

TEST(Recording, UnknownKeysAreIgnored) {
    nlohmann::json j = to_json(test::sample_recording());
    j["made_by_a_later_tool"] = {{"anything", 1}};
    j["bench"][0]["extra"] = true;
    Recording back;
    std::string error;
    EXPECT_TRUE(recording_from_json(j, back, error)) << error;
}

TEST(Recording, MissingFileDirectoryAndEmptyFileAreRefused) {
    TempFile missing("missing.json");
    expect_refused(missing, "no such file");
    TempFile folder("folder.json");
    fs::create_directory(folder.path());
    expect_refused(folder, "directory");
    TempFile empty("empty.json");
    empty.write("");
    expect_refused(empty, "empty");
}

TEST(Recording, FilesOverTheSizeLimitAreRefusedUnread) {
    TempFile junk("junk_100mb.json");
    {
        std::ofstream out(junk.path(), std::ios::binary);
        std::mt19937 random(7);
        std::string block(1 << 20, '\0');
        for (int mb = 0; mb < 100; ++mb) {
            for (char& c : block) c = char(random());
            out << block;
        }
    }
    ASSERT_EQ(fs::file_size(junk.path()), 100u << 20);
    expect_refused(junk, "100.0 MiB is more than a recording may hold (64.0 MiB)");

    TempFile just_over("just_over.json");
    just_over.write(" ");
    fs::resize_file(just_over.path(), kMaxRecordingBytes + 1);
    expect_refused(just_over, "more than a recording may hold");
}

TEST(Recording, JunkAndTruncatedJsonNameTheByte) {
    TempFile junk("junk.json");
    std::string bytes(4096, '\0');
    std::mt19937 random(11);
    for (char& c : bytes) c = char(random() | 0x80);  // never valid JSON text
    junk.write(bytes);
    expect_refused(junk, "not JSON: syntax error at byte 1");

    TempFile truncated("truncated.json");
    const std::string whole = to_json(test::sample_recording()).dump(1);
    truncated.write(whole.substr(0, whole.size() / 2));
    expect_refused(truncated, "the JSON ends early at byte");
    expect_refused(truncated, "truncated");
}

TEST(Recording, WrongTypesNameWhereTheyAre) {
    expect_refused_after([](nlohmann::json& j) { j["bench"][0]["tflops"] = "fast"; },
                         "bench[0]: key 'tflops' has the wrong type");
    expect_refused_after([](nlohmann::json& j) { j["profiles"][0]["metrics"][1]["value"] = "hi"; },
                         "profiles[0]: key 'value' has the wrong type");
    expect_refused_after([](nlohmann::json& j) { j["timelines"][0].erase("samples"); },
                         "timelines[0]: missing array 'samples'");
    expect_refused_after([](nlohmann::json& j) { j["system"]["devices"][0].erase("name"); },
                         "system: devices[0]: missing key 'name'");
    expect_refused_after([](nlohmann::json& j) { j["peaks"][1]["precision"] = "fp4"; },
                         "peaks[1]: unknown precision 'fp4'");
    expect_refused_after([](nlohmann::json& j) { j["dram_bandwidth"]["bytes_per_s"] = "3 TB/s"; },
                         "dram_bandwidth: key 'bytes_per_s' has the wrong type");
    expect_refused_after([](nlohmann::json& j) { j["bench"] = 5; }, "missing array 'bench'");
    expect_refused_after([](nlohmann::json& j) { j.erase("system"); }, "missing key 'system'");
    expect_refused_after(
        [](nlohmann::json& j) {
            j = nlohmann::json::array({1, 2});
        },
        "not a recording: the document is array");
}

TEST(Recording, OnlyVersionsOneToThisOneAreRead) {
    expect_refused_after(
        [](nlohmann::json& j) { j["schema_version"] = kRecordingSchemaVersion + 1; },
        "schema_version 6 is newer than this build reads (1 to 5)");
    expect_refused_after([](nlohmann::json& j) { j["schema_version"] = 0; },
                         "schema_version 0 is older than this build reads (1 to 5)");
    expect_refused_after([](nlohmann::json& j) { j["schema_version"] = "1"; },
                         "key 'schema_version' has the wrong type");
    expect_refused_after([](nlohmann::json& j) { j["schema_version"] = 1.5; },
                         "key 'schema_version' has the wrong type");
    expect_refused_after([](nlohmann::json& j) { j.erase("schema_version"); },
                         "not a recording: missing key 'schema_version'");
}

TEST(Recording, AVersionOneRecordingOpensWithoutInstructionMixesAndSaysWhy) {
    // Version 1 had no instruction mixes: a reader must not ask for the keys.
    nlohmann::json j = to_json(test::sample_recording());
    j["schema_version"] = 1;
    j.erase("instruction_mixes");
    j.erase("instruction_mixes_missing");
    j.erase("sources");
    j.erase("sources_missing");
    Recording recording;
    std::string error;
    ASSERT_TRUE(recording_from_json(j, recording, error)) << error;
    EXPECT_TRUE(recording.instruction_mixes.empty());
    EXPECT_NE(recording.instruction_mixes_missing.find("schema_version 1"), std::string::npos)
        << recording.instruction_mixes_missing;
    EXPECT_EQ(recording.schema_version, kRecordingSchemaVersion);  // the current version once read
    EXPECT_EQ(recording.bench.size(), 4u);
    // Saved again, the note stays.
    Recording again;
    ASSERT_TRUE(recording_from_json(to_json(recording), again, error)) << error;
    EXPECT_EQ(again.instruction_mixes_missing, recording.instruction_mixes_missing);
}

TEST(Recording, ADamagedInstructionMixNamesItsPlace) {
    expect_refused_after(
        [](nlohmann::json& j) { j["instruction_mixes"][0]["counts"].erase("hgmma"); },
        "instruction_mixes[0]: counts: missing key 'hgmma'");
    expect_refused_after([](nlohmann::json& j) { j["instruction_mixes"][0]["kernel_id"] = ""; },
                         "instruction_mixes[0]: key 'kernel_id' is empty");
    expect_refused_after([](nlohmann::json& j) { j.erase("instruction_mixes"); },
                         "missing array 'instruction_mixes'");
}

TEST(Recording, AVersionOneRecordingOpensWithoutSourceProfilesAndSaysWhy) {
    nlohmann::json old = to_json(test::sample_recording());
    old["schema_version"] = 1;
    old.erase("sources");
    old.erase("sources_missing");
    Recording recording;
    std::string error;
    ASSERT_TRUE(recording_from_json(old, recording, error)) << error;
    EXPECT_TRUE(recording.sources.empty());
    EXPECT_NE(recording.sources_missing.find("schema_version 1, from before tclens kept source "
                                             "profiles"),
              std::string::npos);
    EXPECT_EQ(recording.profiles.size(), 1u);  // everything else is there
    // Read, it is a current-version recording that keeps the note when written back.
    EXPECT_EQ(recording.schema_version, kRecordingSchemaVersion);
    Recording again;
    ASSERT_TRUE(recording_from_json(to_json(recording), again, error)) << error;
    EXPECT_EQ(again.sources_missing, recording.sources_missing);
}

TEST(Recording, AVersionThreeRecordingOpensWithoutTracesAndSaysWhy) {
    nlohmann::json old = to_json(test::sample_recording());
    old["schema_version"] = 3;
    old.erase("traces");
    old.erase("traces_missing");
    Recording recording;
    std::string error;
    ASSERT_TRUE(recording_from_json(old, recording, error)) << error;
    EXPECT_TRUE(recording.traces.empty());
    EXPECT_NE(recording.traces_missing.find("schema_version 3, from before recordings carried "
                                            "warp traces"),
              std::string::npos)
        << recording.traces_missing;
    EXPECT_EQ(recording.sources.size(), 1u);  // everything else is there
    Recording again;
    ASSERT_TRUE(recording_from_json(to_json(recording), again, error)) << error;
    EXPECT_EQ(again.traces_missing, recording.traces_missing);
}

// Version 5: a bench over two workers keeps each row's worker, the workers' hosts and GPUs and
// the notes; a row naming a worker the list lacks, or a worker out of its place, is refused.
TEST(Recording, ABenchOverTwoWorkersNamesEachRowsGpu) {
    Recording two = test::sample_recording();
    SystemReport other = two.system;
    other.devices.at(0).name = "tclens test GPU B";
    other.devices.at(0).pci_bus_id = "0000:02:00.0";
    two.workers = {{"host-a", two.system}, {"host-b", other}};
    two.bench_worker.assign(two.bench.size(), 0);
    two.bench_worker.back() = 1;
    two.notes = {
        "worker 3 (host-c, tclens test GPU) was lost at 64x64x64: it died; that size "
        "went to the others"};
    Recording back;
    std::string error;
    ASSERT_TRUE(recording_from_json(to_json(two), back, error)) << error;
    EXPECT_EQ(back.bench_worker, two.bench_worker);
    ASSERT_EQ(back.workers.size(), 2u);
    EXPECT_EQ(back.workers[1].host, "host-b");
    EXPECT_EQ(back.notes, two.notes);
    EXPECT_EQ(row_gpu_text(back, back.bench.size() - 1),
              "host-b: tclens test GPU B (0000:02:00.0)");
    EXPECT_EQ(to_json(back), to_json(two));
    const auto refused = [&](const std::function<void(nlohmann::json&)>& change,
                             const std::string& what) {
        nlohmann::json j = to_json(two);
        change(j);
        Recording r;
        EXPECT_FALSE(recording_from_json(j, r, error));
        EXPECT_NE(error.find(what), std::string::npos) << error;
    };
    refused([](nlohmann::json& j) { j["bench"][0]["worker"] = 3; },
            "bench[0]: worker 3 is not one of the 2 in 'workers'");
    refused([](nlohmann::json& j) { j["bench"][1].erase("worker"); }, "missing key 'worker'");
    refused([](nlohmann::json& j) { j["workers"][1]["worker"] = 1; },
            "workers[1]: worker 1 is not its place in the list (2)");
    refused([](nlohmann::json& j) { j["workers"][0].erase("device"); },
            "workers[0]: missing key 'device'");
}

// Before version 5 every row ran on the recording's one GPU: it opens with that one worker.
TEST(Recording, AVersionFourRecordingOpensWithOneWorkerRunningEveryRow) {
    nlohmann::json old = to_json(test::sample_recording());
    old["schema_version"] = 4;
    old.erase("workers");
    old.erase("notes");
    for (nlohmann::json& row : old["bench"]) row.erase("worker");
    Recording recording;
    std::string error;
    ASSERT_TRUE(recording_from_json(old, recording, error)) << error;
    ASSERT_EQ(recording.workers.size(), 1u);
    EXPECT_EQ(recording.workers[0].host, "");
    EXPECT_EQ(recording.bench_worker, std::vector<int>(recording.bench.size(), 0));
    EXPECT_EQ(row_gpu_text(recording, 0), worker_gpu_text("", recording.system));
}

TEST(Recording, ABrokenTraceNamesItsPlace) {
    expect_refused_after([](nlohmann::json& j) { j["traces"][0]["phases"][1][3] = "nap"; },
                         "traces[0]: ");
    expect_refused_after([](nlohmann::json& j) { j.erase("traces"); }, "missing array 'traces'");
}

TEST(Recording, ABrokenSourceProfileNamesItsPlace) {
    expect_refused_after([](nlohmann::json& j) { j["sources"][0]["instructions"][2].erase("pc"); },
                         "sources[0]: instructions[2]: missing key 'pc'");
    expect_refused_after([](nlohmann::json& j) { j.erase("sources"); }, "missing array 'sources'");
}

TEST(Recording, AVersionTwoRecordingGetsItsMixesFromItsSourceProfilesSass) {
    // Version 2 kept the SASS only in its source profiles: the mix comes from there.
    nlohmann::json old = to_json(test::sample_recording());
    old["schema_version"] = 2;
    old.erase("instruction_mixes");
    old.erase("instruction_mixes_missing");
    Recording recording;
    std::string error;
    ASSERT_TRUE(recording_from_json(old, recording, error)) << error;
    ASSERT_EQ(recording.instruction_mixes.size(), 1u);
    const RecordedInstructionMix& mix = recording.instruction_mixes[0];
    EXPECT_EQ(mix.kernel_id, "mma_cp_async.f16");
    EXPECT_EQ(mix.sm, 90);  // the sample recording's GPU
    // The sample source profile's 13 instructions: 2 HMMA, 2 LDSM, 2 LDGSTS, 1 BAR.
    using kernels::OpClass;
    EXPECT_EQ(mix.mix[OpClass::kTotal], 13);
    EXPECT_EQ(mix.mix[OpClass::kHmma], 2);
    EXPECT_EQ(mix.mix[OpClass::kLdsLdsm], 2);
    EXPECT_EQ(mix.mix[OpClass::kLdgLdgsts], 2);
    EXPECT_EQ(mix.mix[OpClass::kBar], 1);
    EXPECT_EQ(recording.instruction_mixes_missing, "");
    // Without SASS in its source profiles: none, and the note says why.
    old.erase("sources");
    old["sources"] = nlohmann::json::array();
    ASSERT_TRUE(recording_from_json(old, recording, error)) << error;
    EXPECT_TRUE(recording.instruction_mixes.empty());
    EXPECT_NE(recording.instruction_mixes_missing.find("schema_version 2"), std::string::npos);
}

}  // namespace
}  // namespace tclens::profiling
