// Tests for app/worker/requests.*: every request type round-trips through its line (the source
// request too, with its defaults), and every malformed line is refused in one line that names
// what is wrong (the field, the type, the value), with the id when the id itself was readable.

#include "app/worker/requests.h"

#include <gtest/gtest.h>

#include <string>

#include "kernels/problem_text.h"

namespace tclens::worker {
namespace {

Request round_trip(const Request& request) {
    const std::string line = encode_request(request);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    const DecodedRequest decoded = decode_request(line);
    EXPECT_TRUE(decoded.request.has_value()) << line << "\n" << decoded.error;
    EXPECT_EQ(decoded.id, request.id);
    EXPECT_EQ(decoded.error, "");
    return decoded.request.value_or(Request{});
}

TEST(WorkerRequests, HelloAndShutdownRoundTrip) {
    const Request hello = round_trip({7, HelloRequest{3}});
    EXPECT_EQ(hello.id, 7);
    EXPECT_EQ(std::get<HelloRequest>(hello.body).protocol, 3);
    EXPECT_TRUE(std::holds_alternative<ShutdownRequest>(round_trip({8, ShutdownRequest{}}).body));
    EXPECT_EQ(encode_request({8, ShutdownRequest{}}), R"({"id":8,"type":"shutdown"})");
}

TEST(WorkerRequests, LoadRoundTripsWithProblems) {
    LoadRequest load;
    load.ref = "examples/my kernel.cu:launch:tf32";
    load.compile_only = true;
    load.problems = {{4096, 129, 77}, {1, 1, 1}};
    const auto back = std::get<LoadRequest>(round_trip({1, load}).body);
    EXPECT_EQ(back.ref, load.ref);
    EXPECT_TRUE(back.compile_only);
    ASSERT_EQ(back.problems.size(), 2u);
    EXPECT_EQ(kernels::problem_text(back.problems[0]), "4096x129x77");
}

TEST(WorkerRequests, BenchRoundTripsEveryField) {
    BenchRequest bench;
    bench.kernels = {"yours.matmul", "wgmma_ws.bf16"};
    bench.problems = {{512, 512, 512}};
    bench.runs = 999;
    bench.warmup = 0;
    bench.seed = 18446744073709551615ull;
    bench.peaks = false;
    bench.references = false;
    const auto back = std::get<BenchRequest>(round_trip({kMaxRequestId, bench}).body);
    EXPECT_EQ(back.kernels, bench.kernels);
    EXPECT_EQ(back.runs, 999);
    EXPECT_EQ(back.warmup, 0);
    EXPECT_EQ(back.seed, bench.seed);
    EXPECT_FALSE(back.peaks);
    EXPECT_FALSE(back.references);
}

TEST(WorkerRequests, BenchDefaultsWhenOptionalFieldsAreLeftOut) {
    const DecodedRequest decoded = decode_request(
        R"({"id":2,"type":"bench","kernels":["naive_fma.f32"],"problems":["64x64x64"]})");
    ASSERT_TRUE(decoded.request) << decoded.error;
    const auto bench = std::get<BenchRequest>(decoded.request->body);
    EXPECT_EQ(bench.runs, 30);
    EXPECT_EQ(bench.warmup, 5);
    EXPECT_EQ(bench.seed, 1u);
    EXPECT_TRUE(bench.peaks);
    EXPECT_TRUE(bench.references);
}

TEST(WorkerRequests, ProfileRoundTripsWithMetricsOrATimeline) {
    WorkerProfileRequest profile;
    profile.kernel = "yours.x";
    profile.problem = {128, 256, 64};
    profile.metrics = {"gpu__time_duration.sum", "dram__bytes_read.sum"};
    profile.drop_unavailable = true;
    profile.flush_l2 = false;
    profile.seed = 5;
    auto back = std::get<WorkerProfileRequest>(round_trip({3, profile}).body);
    EXPECT_EQ(back.metrics, profile.metrics);
    EXPECT_TRUE(back.drop_unavailable);
    EXPECT_FALSE(back.flush_l2);
    EXPECT_FALSE(back.timeline.has_value());

    profile.metrics.clear();
    profile.timeline = TimelineSettings{{"sm__pipe_tensor_cycles_active.avg.pct"}, 250'000, 75};
    back = std::get<WorkerProfileRequest>(round_trip({4, profile}).body);
    ASSERT_TRUE(back.timeline.has_value());
    EXPECT_EQ(back.timeline->metrics, profile.timeline->metrics);
    EXPECT_EQ(back.timeline->interval_ns, 250'000u);
    EXPECT_EQ(back.timeline->duration_ms, 75);
}

TEST(WorkerRequests, LiveProfileRoundTripsWithMetricsOrATimeline) {
    LiveProfileRequest live;
    live.kernels = {"wmma.f16", "yours.x"};
    live.problem = {1024, 512, 256};
    live.metrics = {"gpu__time_duration.sum"};
    live.seed = 9;
    live.max_updates = 200;
    auto back = std::get<LiveProfileRequest>(round_trip({3, live}).body);
    EXPECT_EQ(back.kernels, live.kernels);
    EXPECT_TRUE(kernels::same_problem(back.problem, live.problem));
    EXPECT_EQ(back.metrics, live.metrics);
    EXPECT_EQ(back.seed, 9u);
    EXPECT_EQ(back.max_updates, 200u);
    EXPECT_FALSE(back.timeline.has_value());

    live.kernels = {"wmma.f16"};
    live.metrics.clear();
    live.timeline = LiveTimelineSettings{{"sm__pipe_tensor_cycles_active.avg.pct"}, 500'000, 0};
    back = std::get<LiveProfileRequest>(round_trip({4, live}).body);
    ASSERT_TRUE(back.timeline.has_value());
    EXPECT_EQ(back.timeline->metrics, live.timeline->metrics);
    EXPECT_EQ(back.timeline->interval_ns, 500'000u);
    EXPECT_EQ(back.timeline->duration_ms, 0);  // until stopped
}

TEST(WorkerRequests, LiveProfileDefaultsRunUntilStopped) {
    const DecodedRequest decoded = decode_request(
        R"({"id":2,"type":"live_profile","kernels":["wmma.f16"],"problem":"64x64x64",)"
        R"("metrics":["m"]})");
    ASSERT_TRUE(decoded.request) << decoded.error;
    const auto& live = std::get<LiveProfileRequest>(decoded.request->body);
    EXPECT_EQ(live.max_updates, 0u);
    EXPECT_EQ(live.seed, 1u);
}

TEST(WorkerRequests, StopIsTheIdAndTypeAlone) {
    EXPECT_EQ(encode_request({12, StopRequest{}}), R"({"id":12,"type":"stop"})");
    EXPECT_TRUE(std::holds_alternative<StopRequest>(round_trip({12, StopRequest{}}).body));
    const DecodedRequest extra = decode_request(R"({"id":12,"type":"stop","now":true})");
    EXPECT_FALSE(extra.request);
    EXPECT_NE(extra.error.find("stop request: unknown field \"now\""), std::string::npos)
        << extra.error;
}

TEST(WorkerRequests, ExerciseRoundTrips) {
    EXPECT_EQ(std::get<ExerciseRequest>(round_trip({9, ExerciseRequest{"ex.cu"}}).body).ref,
              "ex.cu");
}

TEST(WorkerRequests, TraceRoundTripsEveryField) {
    TraceRequest trace;
    trace.kernel = "yours.traced_wmma";
    trace.problem = {512, 256, 128};
    trace.blocks = 3;
    trace.seed = 11;
    EXPECT_EQ(encode_request({12, trace}),
              R"({"blocks":3,"id":12,"kernel":"yours.traced_wmma","problem":"512x256x128",)"
              R"("seed":11,"type":"trace"})");
    const TraceRequest back = std::get<TraceRequest>(round_trip({12, trace}).body);
    EXPECT_EQ(back.kernel, "yours.traced_wmma");
    EXPECT_EQ(kernels::problem_text(back.problem), "512x256x128");
    EXPECT_EQ(back.blocks, 3);
    EXPECT_EQ(back.seed, 11u);
}

TEST(WorkerRequests, TraceDefaultsWhenOptionalFieldsAreLeftOut) {
    const DecodedRequest decoded =
        decode_request(R"({"id":4,"type":"trace","kernel":"wgmma_ws.bf16","problem":"64x64x64"})");
    ASSERT_TRUE(decoded.request) << decoded.error;
    const TraceRequest& trace = std::get<TraceRequest>(decoded.request->body);
    EXPECT_EQ(trace.blocks, 8);
    EXPECT_EQ(trace.seed, 1u);
}

TEST(WorkerRequests, TypeNamesFollowTheVariant) {
    EXPECT_STREQ(request_type(RequestBody{LoadRequest{}}), "load");
    EXPECT_STREQ(request_type(RequestBody{ShutdownRequest{}}), "shutdown");
    EXPECT_STREQ(request_type(RequestBody{WorkerSourceRequest{}}), "source");
    EXPECT_STREQ(request_type(RequestBody{TraceRequest{}}), "trace");
    EXPECT_STREQ(request_type(RequestBody{BankMeasureRequest{}}), "bank_measure");
    EXPECT_STREQ(request_type(RequestBody{LayoutVerifyRequest{}}), "layout_verify");
    EXPECT_STREQ(request_type(RequestBody{LiveProfileRequest{}}), "live_profile");
    EXPECT_STREQ(request_type(RequestBody{StopRequest{}}), "stop");
    EXPECT_STREQ(request_type(RequestBody{ClockSkewRequest{}}), "clock_skew");
    EXPECT_EQ(request_types(),
              "hello, load, bench, profile, exercise, shutdown, source, trace, bank_measure, "
              "layout_verify, live_profile, stop, clock_skew");
}

TEST(WorkerRequests, BankMeasureRoundTripsEveryField) {
    BankMeasureRequest bank;
    bank.swizzle = "cute:3,4,3";
    bank.pattern = "ldmatrix.x4.trans";
    bank.rows = 64;
    bank.row_bytes = 128;
    bank.iterations = 1'000'000;
    EXPECT_EQ(encode_request({5, bank}),
              R"({"id":5,"iterations":1000000,"pattern":"ldmatrix.x4.trans","row_bytes":128,)"
              R"("rows":64,"swizzle":"cute:3,4,3","type":"bank_measure"})");
    const auto back = std::get<BankMeasureRequest>(round_trip({5, bank}).body);
    EXPECT_EQ(back.swizzle, "cute:3,4,3");
    EXPECT_EQ(back.pattern, "ldmatrix.x4.trans");
    EXPECT_EQ(back.rows, 64);
    EXPECT_EQ(back.row_bytes, 128);
    EXPECT_EQ(back.iterations, 1'000'000);
}

TEST(WorkerRequests, BankMeasureDefaultsTo256Iterations) {
    const DecodedRequest decoded = decode_request(
        R"({"id":4,"type":"bank_measure","swizzle":"xor","pattern":"ldmatrix.x4","rows":16,)"
        R"("row_bytes":128})");
    ASSERT_TRUE(decoded.request.has_value()) << decoded.error;
    EXPECT_EQ(std::get<BankMeasureRequest>(decoded.request->body).iterations, 256);
}

TEST(WorkerRequests, LayoutVerifyRoundTrips) {
    EXPECT_EQ(encode_request({9, LayoutVerifyRequest{"mma.m16n8k8.tf32"}}),
              R"({"id":9,"layout":"mma.m16n8k8.tf32","type":"layout_verify"})");
    const auto back =
        std::get<LayoutVerifyRequest>(round_trip({9, LayoutVerifyRequest{"ldmatrix.x4"}}).body);
    EXPECT_EQ(back.layout, "ldmatrix.x4");
}

TEST(WorkerRequests, ClockSkewRoundTripsAndDefaultsTo101Rounds) {
    EXPECT_EQ(encode_request({10, ClockSkewRequest{10000}}),
              R"({"id":10,"rounds":10000,"type":"clock_skew"})");
    EXPECT_EQ(std::get<ClockSkewRequest>(round_trip({10, ClockSkewRequest{7}}).body).rounds, 7);
    const DecodedRequest decoded = decode_request(R"({"id":11,"type":"clock_skew"})");
    ASSERT_TRUE(decoded.request.has_value()) << decoded.error;
    EXPECT_EQ(std::get<ClockSkewRequest>(decoded.request->body).rounds, 101);
}

TEST(WorkerRequests, SourceRoundTripsEveryField) {
    WorkerSourceRequest source;
    source.kernel = "yours.matmul_tensor";
    source.problem = {2048, 1024, 512};
    source.seed = 18446744073709551615ull;
    source.target_samples = 100'000'000;
    source.period_log2 = 31;
    const auto back = std::get<WorkerSourceRequest>(round_trip({12, source}).body);
    EXPECT_EQ(back.kernel, source.kernel);
    EXPECT_EQ(kernels::problem_text(back.problem), "2048x1024x512");
    EXPECT_EQ(back.seed, source.seed);
    EXPECT_EQ(back.target_samples, 100'000'000u);
    EXPECT_EQ(back.period_log2, 31);
    EXPECT_EQ(encode_request({3, WorkerSourceRequest{"naive_fma.f32", {64, 64, 64}}}),
              R"({"id":3,"kernel":"naive_fma.f32","period_log2":0,"problem":"64x64x64",)"
              R"("seed":1,"target_samples":500000,"type":"source"})");
}

TEST(WorkerRequests, SourceDefaultsWhenOptionalFieldsAreLeftOut) {
    const DecodedRequest decoded = decode_request(
        R"({"id":2,"type":"source","kernel":"mma_cp_async.f16","problem":"64x64x64"})");
    ASSERT_TRUE(decoded.request) << decoded.error;
    const auto source = std::get<WorkerSourceRequest>(decoded.request->body);
    EXPECT_EQ(source.kernel, "mma_cp_async.f16");
    EXPECT_EQ(source.seed, 1u);
    EXPECT_EQ(source.target_samples, 500'000u);
    EXPECT_EQ(source.period_log2, 0);
}

struct Bad {
    std::string line;
    std::vector<std::string> named;  // what the error must mention
    std::int64_t id = 0;             // the id the decoder should still report
};

TEST(WorkerRequests, EveryMalformedLineIsOneLineNamingWhatIsWrong) {
    const std::vector<Bad> cases = {
        {"", {"not JSON"}},
        {"{", {"not JSON"}},
        {"hello", {"not JSON"}},
        {"[1,2]", {"JSON object"}},
        {"42", {"JSON object"}},
        {R"({"type":"hello","protocol":1})", {"missing field 'id'"}},
        {R"({"id":0,"type":"hello","protocol":1})", {"'id'", "1 to 9007199254740991"}},
        {R"({"id":-3,"type":"hello","protocol":1})", {"'id'", "-3"}},
        {R"({"id":9007199254740992,"type":"hello","protocol":1})", {"'id'"}},
        {R"({"id":1.5,"type":"hello","protocol":1})", {"'id'", "1.5"}},
        {R"({"id":"1","type":"hello","protocol":1})", {"'id'", "\"1\""}},
        {R"({"id":4})", {"missing field 'type'"}, 4},
        {R"({"id":4,"type":"helo"})", {"unknown type \"helo\"", "hello, load, bench"}, 4},
        {R"({"id":4,"type":7})", {"'type'"}, 4},
        {R"({"id":5,"type":"hello"})", {"hello request", "missing field 'protocol'"}, 5},
        {R"({"id":5,"type":"hello","protocol":1,"extra":true})",
         {"unknown field \"extra\"", "valid: id, type, protocol"},
         5},
        {R"({"id":6,"type":"load"})", {"load request", "'ref'"}, 6},
        {R"({"id":6,"type":"load","ref":""})", {"'ref'", "non-empty"}, 6},
        {R"({"id":6,"type":"load","ref":"x.cu","compile_only":"yes"})",
         {"'compile_only'", "true or false"},
         6},
        {R"({"id":6,"type":"load","ref":"x.cu","problems":["0x1x1"]})", {"'problems'", "0x1x1"}, 6},
        {R"({"id":6,"type":"load","ref":"x.cu","problems":["40\n96x1x1"]})",
         {"'problems'", "'40 96x1x1'"},
         6},
        {R"({"id":7,"type":"bench","problems":["64x64x64"]})", {"'kernels'"}, 7},
        {R"({"id":7,"type":"bench","kernels":[],"problems":["64x64x64"]})",
         {"'kernels'", "1 to 64"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":"64x64x64"})", {"'problems'"}, 7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64"]})",
         {"'problems'", "'64x64'"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64x64"],"runs":0})",
         {"'runs'", "1 to 1000", "0"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64x64"],"runs":"abc"})",
         {"'runs'", "\"abc\""},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64x64"],"warmup":101})",
         {"'warmup'", "0 to 100"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64x64"],"seed":-1})",
         {"'seed'"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a",3],"problems":["64x64x64"]})",
         {"'kernels'", "3"},
         7},
        {R"({"id":7,"type":"bench","kernels":["a"],"problems":["64x64x64"],"run":30})",
         {"unknown field \"run\"", "runs"},
         7},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64"})",
         {"'metrics'", "'timeline'"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64","metrics":["m"],)"
         R"("timeline":{}})",
         {"timeline.metrics"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"big","metrics":["m"]})",
         {"'problem'", "'big'"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64","timeline":[]})",
         {"'timeline'", "an object or null"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64","timeline":)"
         R"({"interval_ns":99999}})",
         {"'interval_ns'", "100000"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64","timeline":)"
         R"({"duration_ms":10001}})",
         {"'duration_ms'", "50 to 10000"},
         8},
        {R"({"id":8,"type":"profile","kernel":"a","problem":"64x64x64","timeline":)"
         R"({"metric":[]}})",
         {"timeline", "unknown field \"metric\""},
         8},
        {R"({"id":9,"type":"exercise"})", {"exercise request", "'ref'"}, 9},
        {R"({"id":10,"type":"shutdown","now":true})", {"shutdown request", "\"now\""}, 10},
        {R"({"id":11,"type":"source","problem":"64x64x64"})", {"source request", "'kernel'"}, 11},
        {R"({"id":11,"type":"source","kernel":"","problem":"64x64x64"})",
         {"'kernel'", "non-empty"},
         11},
        {R"({"id":11,"type":"source","kernel":"a"})", {"missing field 'problem'"}, 11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x63x1"})",
         {"'problem'", "'64x64x63x1'"},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64","seed":"one"})",
         {"'seed'", "\"one\""},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64","target_samples":999})",
         {"'target_samples'", "1000 to 100000000", "999"},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64",)"
         R"("target_samples":100000001})",
         {"'target_samples'"},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64","period_log2":4})",
         {"'period_log2'", "5 to 31", "4"},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64","period_log2":32})",
         {"'period_log2'", "32"},
         11},
        {R"({"id":11,"type":"source","kernel":"a","problem":"64x64x64","top":10})",
         {"unknown field \"top\"", "target_samples, period_log2"},
         11},
        {R"({"id":11,"type":"trace","problem":"64x64x64"})", {"trace request", "'kernel'"}, 11},
        {R"({"id":12,"type":"trace","kernel":"a"})", {"trace request", "'problem'"}, 12},
        {R"({"id":13,"type":"trace","kernel":"a","problem":"64x64x64","blocks":0})",
         {"trace request", "'blocks'", "1 to 1024", "0"},
         13},
        {R"({"id":14,"type":"trace","kernel":"a","problem":"64x64x64","blocks":1025})",
         {"'blocks'", "1025"},
         14},
        {R"({"id":15,"type":"trace","kernel":"a","problem":"64x64x64","block":2})",
         {"trace request", "unknown field \"block\""},
         15},
        {R"({"id":16,"type":"trace","kernel":"a","problem":"64x64","seed":"x"})",
         {"trace request", "'problem'"},
         16},
        {R"({"id":17,"type":"bank_measure","pattern":"ldmatrix.x4","rows":16,"row_bytes":128})",
         {"bank_measure request", "'swizzle'"},
         17},
        {R"({"id":18,"type":"bank_measure","swizzle":"xor","rows":16,"row_bytes":128})",
         {"bank_measure request", "'pattern'"},
         18},
        {R"({"id":19,"type":"bank_measure","swizzle":"xor","pattern":"p","row_bytes":128})",
         {"bank_measure request", "'rows'"},
         19},
        {R"({"id":20,"type":"bank_measure","swizzle":"xor","pattern":"p","rows":0,"row_bytes":8})",
         {"'rows'", "1 to 1048576", "0"},
         20},
        {R"({"id":21,"type":"bank_measure","swizzle":"xor","pattern":"p","rows":1,"row_bytes":-8})",
         {"'row_bytes'", "-8"},
         21},
        {R"({"id":22,"type":"bank_measure","swizzle":"xor","pattern":"p","rows":1,"row_bytes":8,)"
         R"("iterations":1000001})",
         {"'iterations'", "1 to 1000000", "1000001"},
         22},
        {R"({"id":23,"type":"bank_measure","swizzle":7,"pattern":"p","rows":1,"row_bytes":8})",
         {"'swizzle'", "7"},
         23},
        {R"({"id":24,"type":"bank_measure","swizzle":"xor","pattern":"p","rows":1,"row_bytes":8,)"
         R"("measure":true})",
         {"bank_measure request", "unknown field \"measure\""},
         24},
        {R"({"id":25,"type":"layout_verify"})", {"layout_verify request", "'layout'"}, 25},
        {R"({"id":26,"type":"layout_verify","layout":""})", {"'layout'"}, 26},
        {R"({"id":27,"type":"layout_verify","layout":"ldmatrix.x4","operand":"A"})",
         {"layout_verify request", "unknown field \"operand\""},
         27},
        {R"({"id":28,"type":"live_profile","problem":"64x64x64","metrics":["m"]})",
         {"live_profile request", "missing field 'kernels'"},
         28},
        {R"({"id":29,"type":"live_profile","kernels":[],"problem":"64x64x64","metrics":["m"]})",
         {"'kernels'"},
         29},
        {R"({"id":30,"type":"live_profile","kernels":["a","b","c","d","e","f","g","h","i"],)"
         R"("problem":"64x64x64","metrics":["m"]})",
         {"'kernels'", "1 to 8"},
         30},
        {R"({"id":31,"type":"live_profile","kernels":["a"],"problem":"64x64x64"})",
         {"give 'metrics'", "'timeline'"},
         31},
        {R"({"id":32,"type":"live_profile","kernels":["a"],"problem":"64x64x64",)"
         R"("metrics":["m"],"max_updates":-1})",
         {"'max_updates'", "-1"},
         32},
        {R"({"id":33,"type":"live_profile","kernels":["a","b"],"problem":"64x64x64",)"
         R"("timeline":{}})",
         {"a timeline samples one kernel", "got 2"},
         33},
        {R"({"id":34,"type":"live_profile","kernels":["a"],"problem":"64x64x64",)"
         R"("timeline":{"interval_ns":5}})",
         {"live_profile request's timeline", "'interval_ns'", "100000 to 10000000", "5"},
         34},
        {R"({"id":35,"type":"live_profile","kernels":["a"],"problem":"64x64x64",)"
         R"("timeline":{"duration_ms":3600001}})",
         {"'duration_ms'", "3600001"},
         35},
        {R"({"id":36,"type":"live_profile","kernels":["a"],"problem":"64x64x64",)"
         R"("metrics":["m"],"stop":true})",
         {"unknown field \"stop\"", "max_updates"},
         36},
        {R"({"id":37,"type":"clock_skew","rounds":0})", {"'rounds'", "1 to 10000", "0"}, 37},
        {R"({"id":38,"type":"clock_skew","rounds":10001})", {"'rounds'", "10001"}, 38},
        {R"({"id":39,"type":"clock_skew","rounds":"many"})", {"'rounds'", "many"}, 39},
        {R"({"id":40,"type":"clock_skew","kernel":"x"})",
         {"clock_skew request", "unknown field \"kernel\""},
         40},
    };
    for (const Bad& bad : cases) {
        const DecodedRequest decoded = decode_request(bad.line);
        EXPECT_FALSE(decoded.request.has_value()) << bad.line;
        EXPECT_EQ(decoded.id, bad.id) << bad.line;
        EXPECT_FALSE(decoded.error.empty()) << bad.line;
        EXPECT_EQ(decoded.error.find('\n'), std::string::npos) << decoded.error;
        for (const std::string& name : bad.named) {
            EXPECT_NE(decoded.error.find(name), std::string::npos)
                << bad.line << "\n  error: " << decoded.error << "\n  missing: " << name;
        }
    }
}

TEST(WorkerRequests, ALineLongerThanTheLimitIsRefusedUnparsed) {
    const std::string line(kMaxRequestBytes + 1, ' ');
    const DecodedRequest decoded = decode_request(line);
    EXPECT_FALSE(decoded.request);
    EXPECT_NE(decoded.error.find("longer than"), std::string::npos) << decoded.error;
}

TEST(WorkerRequests, ValuesShownInErrorsStayOneLineAndShort) {
    const std::string value(500, 'x');
    const DecodedRequest decoded =
        decode_request(R"({"id":1,"type":"hello","protocol":")" + value + "\\n" + value + "\"}");
    ASSERT_FALSE(decoded.request);
    EXPECT_EQ(decoded.error.find('\n'), std::string::npos);
    EXPECT_LT(decoded.error.size(), 200u) << decoded.error;
}

}  // namespace
}  // namespace tclens::worker
