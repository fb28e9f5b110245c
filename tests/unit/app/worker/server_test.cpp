// Tests for app/worker/server.*: serve() over real pipes with a handler of the test's own, so
// the protocol rules hold whatever a handler does: one terminal message per request (a handler
// that throws, runs out of memory or forgets to answer still gets one), a protocol error naming
// the field for a bad line, the loop ending at shutdown, at the end of the input and after an
// error that exits.

#include "app/worker/server.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <future>
#include <new>
#include <stdexcept>
#include <thread>

#include "app/worker/line_io.h"

namespace tclens::worker {
namespace {

using namespace std::chrono_literals;

// Answers by the request's type: hello -> result, load -> progress then result, bench -> throws,
// profile -> bad_alloc, exercise -> no answer at all, shutdown -> result, live_profile -> an
// update every 2 ms until Replier::stop_asked (at most 5000), then a result counting them.
class ScriptedHandler : public RequestHandler {
  public:
    void handle(const Request& request, Replier& reply) override {
        ++handled;
        if (std::holds_alternative<HelloRequest>(request.body)) {
            reply.result({{"hi", true}});
        } else if (std::holds_alternative<LoadRequest>(request.body)) {
            reply.progress({"load", "compiling", -1, -1, 30});
            reply.result({{"loaded", std::get<LoadRequest>(request.body).ref}});
            reply.result({{"twice", true}});  // ignored: one terminal message only
        } else if (std::holds_alternative<BenchRequest>(request.body)) {
            throw std::runtime_error("the bench broke");
        } else if (std::holds_alternative<WorkerProfileRequest>(request.body)) {
            throw std::bad_alloc();
        } else if (std::holds_alternative<ShutdownRequest>(request.body)) {
            reply.result({});
        } else if (std::holds_alternative<LiveProfileRequest>(request.body)) {
            int updates = 0;
            while (!reply.stop_asked() && updates < 5000) {
                reply.update({{"n", updates++}});
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
            reply.result({{"updates", updates}});
        }
    }
    int handled = 0;
};

class ServerTest : public ::testing::Test {
  protected:
    void SetUp() override {
        int to_server[2], from_server[2];
        ASSERT_EQ(pipe2(to_server, O_CLOEXEC), 0);
        ASSERT_EQ(pipe2(from_server, O_CLOEXEC), 0);
        in_ = to_server[1];
        out_ = from_server[0];
        server_in_ = to_server[0];
        server_out_ = from_server[1];
        exit_ = std::async(std::launch::async, [this] {
            const int code = serve(server_in_, server_out_, handler_);
            close(server_out_);
            return code;
        });
        reader_ = std::make_unique<LineReader>(out_, 1 << 20);
    }
    void TearDown() override {
        if (in_ >= 0) close(in_);
        if (exit_.valid()) exit_.wait();
        close(out_);
        close(server_in_);
    }
    void send(const std::string& line) { ASSERT_TRUE(write_line(in_, line)); }
    Message next() {
        std::string line;
        EXPECT_EQ(reader_->read_line(line, Clock::now() + 10s), LineReader::Status::kLine);
        std::string error;
        auto message = decode_message(line, error);
        EXPECT_TRUE(message) << line << "\n" << error;
        return message.value_or(Message{});
    }
    int exit_code() {
        close(in_);
        in_ = -1;
        return exit_.get();
    }

    ScriptedHandler handler_;
    int in_ = -1, out_ = -1, server_in_ = -1, server_out_ = -1;
    std::future<int> exit_;
    std::unique_ptr<LineReader> reader_;
};

TEST_F(ServerTest, EachRequestGetsProgressThenExactlyOneTerminalMessage) {
    send(encode_request({1, HelloRequest{}}));
    Message m = next();
    EXPECT_EQ(m.id, 1);
    EXPECT_EQ(m.type, Message::Type::kResult);
    EXPECT_EQ(m.result, (nlohmann::json{{"hi", true}}));
    send(encode_request({2, LoadRequest{"k.cu", false, {}}}));
    m = next();
    EXPECT_EQ(m.type, Message::Type::kProgress);
    EXPECT_DOUBLE_EQ(m.progress.allow_s, 30);
    m = next();
    EXPECT_EQ(m.type, Message::Type::kResult);
    EXPECT_EQ(m.result["loaded"], "k.cu");
    // The handler's second result was dropped: the next message answers the next request.
    send(encode_request({3, HelloRequest{}}));
    EXPECT_EQ(next().id, 3);
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, ABadLineGetsAProtocolErrorAndTheWorkerGoesOn) {
    send("{\"id\": 9, \"type\": \"bench\", \"kernels\": []}");
    Message m = next();
    EXPECT_EQ(m.id, 9);
    EXPECT_EQ(m.type, Message::Type::kError);
    EXPECT_EQ(m.error.kind, ErrorKind::kProtocol);
    EXPECT_NE(m.error.message.find("'kernels'"), std::string::npos) << m.error.message;
    EXPECT_FALSE(m.error.exits);
    send("garbage");
    m = next();
    EXPECT_EQ(m.id, 0);
    EXPECT_EQ(m.error.kind, ErrorKind::kProtocol);
    send("");  // blank lines are no requests
    send(encode_request({10, HelloRequest{}}));
    EXPECT_EQ(next().id, 10);
    EXPECT_EQ(handler_.handled, 1);
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, AThrowingHandlerIsACleanErrorAndAHandlerThatForgetsStillAnswers) {
    send(encode_request({4, BenchRequest{{"a"}, {{1, 1, 1}}}}));
    Message m = next();
    EXPECT_EQ(m.type, Message::Type::kError);
    EXPECT_EQ(m.error.kind, ErrorKind::kFailed);
    EXPECT_NE(m.error.message.find("the bench broke"), std::string::npos);
    EXPECT_FALSE(m.error.exits);
    send(encode_request({5, ExerciseRequest{"e.cu"}}));
    m = next();
    EXPECT_EQ(m.id, 5);
    EXPECT_EQ(m.type, Message::Type::kError);
    EXPECT_NE(m.error.message.find("no answer"), std::string::npos) << m.error.message;
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, OutOfHostMemoryExitsAfterSayingSo) {
    WorkerProfileRequest profile;
    profile.kernel = "a";
    profile.problem = {1, 1, 1};
    profile.metrics = {"m"};
    send(encode_request({6, profile}));
    const Message m = next();
    EXPECT_EQ(m.type, Message::Type::kError);
    EXPECT_NE(m.error.message.find("out of host memory"), std::string::npos);
    EXPECT_TRUE(m.error.exits);
    EXPECT_EQ(exit_.get(), kWorkerExitLost);  // without its input closing
}

TEST_F(ServerTest, ShutdownAnswersThenEndsTheLoop) {
    send(encode_request({7, ShutdownRequest{}}));
    EXPECT_EQ(next().type, Message::Type::kResult);
    EXPECT_EQ(exit_.get(), kWorkerExitOk);
    std::string line;
    EXPECT_EQ(reader_->read_line(line, Clock::now() + 5s), LineReader::Status::kEnd);
}

LiveProfileRequest streaming_request() {
    LiveProfileRequest request;
    request.kernels = {"a"};
    request.problem = {1, 1, 1};
    request.metrics = {"m"};
    return request;
}

TEST_F(ServerTest, AStopEndsAStreamWithItsResultAndTheWorkerGoesOn) {
    send(encode_request({11, streaming_request()}));
    Message m = next();
    EXPECT_EQ(m.type, Message::Type::kUpdate);
    EXPECT_EQ(m.update["n"], 0);
    EXPECT_EQ(next().update["n"], 1);
    send(encode_request({11, StopRequest{}}));
    int updates = 2;
    for (m = next(); m.type == Message::Type::kUpdate; m = next()) ++updates;
    EXPECT_EQ(m.id, 11);
    ASSERT_EQ(m.type, Message::Type::kResult);
    EXPECT_EQ(m.result["updates"], updates);
    EXPECT_LT(updates, 5000);  // the stop ended it, not the handler's own limit
    send(encode_request({12, HelloRequest{}}));
    EXPECT_EQ(next().id, 12);
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, AStopThatCrossedTheResultIsIgnored) {
    send(encode_request({13, StopRequest{}}));
    send(encode_request({14, HelloRequest{}}));
    const Message m = next();  // nothing answers the stop
    EXPECT_EQ(m.id, 14);
    EXPECT_EQ(m.type, Message::Type::kResult);
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, AnotherRequestDuringAStreamEndsItWithAProtocolError) {
    send(encode_request({15, streaming_request()}));
    EXPECT_EQ(next().type, Message::Type::kUpdate);
    send(encode_request({16, HelloRequest{}}));
    Message m = next();
    while (m.type == Message::Type::kUpdate) m = next();
    EXPECT_EQ(m.id, 15);
    ASSERT_EQ(m.type, Message::Type::kError);
    EXPECT_EQ(m.error.kind, ErrorKind::kProtocol);
    EXPECT_NE(m.error.message.find("only {\"id\":15,\"type\":\"stop\"} may be sent"),
              std::string::npos)
        << m.error.message;
    EXPECT_NE(m.error.message.find("a hello request with id 16"), std::string::npos)
        << m.error.message;
    send(encode_request({17, HelloRequest{}}));
    EXPECT_EQ(next().id, 17);
    EXPECT_EQ(exit_code(), kWorkerExitOk);
}

TEST_F(ServerTest, AStreamWhoseClientWentAwayEnds) {
    send(encode_request({18, streaming_request()}));
    EXPECT_EQ(next().type, Message::Type::kUpdate);
    EXPECT_EQ(exit_code(), kWorkerExitOk);  // its input ended: the stream and the loop end
}

TEST_F(ServerTest, AnInjectedWorkerFaultAnswersAFaultAndExits) {
    setenv("TCLENS_INJECT_FAULT", "worker-fault", 1);
    send(encode_request({8, HelloRequest{}}));  // runs no kernel: answered as usual
    EXPECT_EQ(next().type, Message::Type::kResult);
    send(encode_request({9, BenchRequest{{"a"}, {{1, 1, 1}}}}));
    const Message m = next();
    unsetenv("TCLENS_INJECT_FAULT");
    EXPECT_EQ(m.type, Message::Type::kError);
    EXPECT_EQ(m.error.kind, ErrorKind::kFault);
    EXPECT_TRUE(m.error.exits);
    EXPECT_NE(m.error.message.find("TCLENS_INJECT_FAULT=worker-fault"), std::string::npos);
    EXPECT_EQ(exit_.get(), kWorkerExitLost);
    EXPECT_EQ(handler_.handled, 1);  // the fault struck before the handler
}

}  // namespace
}  // namespace tclens::worker
