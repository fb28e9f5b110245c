#include "app/worker/gpu_turns.h"

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

namespace tclens::worker {
namespace {

using Clock = std::chrono::steady_clock;

// The first waiter polls the lock this often (the hand-over's delay); the others rescan tickets.
constexpr auto kFirstTick = std::chrono::milliseconds(20);
constexpr auto kWaiterTick = std::chrono::milliseconds(100);

std::string errno_line(const std::string& what) { return what + ": " + std::strerror(errno); }

// "0000:06:00.0" -> "0000_06_00.0": characters outside [A-Za-z0-9._-] become '_'.
std::string file_key(const std::string& key) {
    std::string name = key.empty() ? "gpu" : key;
    for (char& c : name) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        if (!plain) c = '_';
    }
    return name;
}

// Makes `folder` mode 1777 when it is missing; refuses a symlink or a file in its place.
std::string ensure_folder(const std::string& folder) {
    if (mkdir(folder.c_str(), 01777) == 0) {
        if (chmod(folder.c_str(), 01777) != 0) return errno_line("cannot make " + folder + " 1777");
        return "";
    }
    if (errno != EEXIST) return errno_line("cannot make " + folder);
    struct stat st {};
    if (lstat(folder.c_str(), &st) != 0) return errno_line("cannot use " + folder);
    if (S_ISLNK(st.st_mode)) return folder + " is a symlink: refused, remove it";
    if (!S_ISDIR(st.st_mode)) return folder + " is not a folder: remove it";
    return "";
}

// Opens (making it, mode 0666 whatever the umask) a regular file, never through a symlink; -1
// and `error` when it cannot.
int open_shared(const std::string& path, int flags, std::string& error) {
    const int fd = open(path.c_str(), flags | O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        error = errno_line("cannot open " + path);
        return -1;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        error = path + " is not a plain file: remove it";
        return -1;
    }
    if (st.st_uid == geteuid() && (st.st_mode & 0777) != 0666) fchmod(fd, 0666);
    return fd;
}

double epoch_s() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string user_name(uid_t uid) {
    if (const passwd* pw = getpwuid(uid); pw != nullptr) return pw->pw_name;
    return std::to_string(uid);
}

bool alive(int pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

// Counts the live tickets of `prefix` ("<key>.t.") in `folder` whose names sort before `mine`;
// removes the stale ones it may.
int waiters_ahead(const std::string& folder, const std::string& prefix, const std::string& mine) {
    DIR* dir = opendir(folder.c_str());
    if (dir == nullptr) return 0;
    int ahead = 0;
    while (const dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0 || name >= mine) continue;
        const std::string path = folder + "/" + name;
        const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;  // its waiter got the turn or gave up
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            unlink(path.c_str());  // stale: its waiter died (fails in another's sticky folder)
        } else {
            ++ahead;
        }
        close(fd);
    }
    closedir(dir);
    return ahead;
}

// Says who holds the turn ("pid user since", "" when it is given back) in its lock file. A failure
// costs only the "held by" of others' waiting lines: readers check that the pid is alive.
void write_holder(int lock_fd, const std::string& line) {
    const bool written =
        ftruncate(lock_fd, 0) == 0 &&
        pwrite(lock_fd, line.data(), line.size(), 0) == static_cast<ssize_t>(line.size());
    static_cast<void>(written);
}

// The holder, as it wrote itself into the lock file ("pid user since"), when it is alive.
void read_holder(int lock_fd, TurnPlace& place) {
    char text[256] = {};
    const ssize_t n = pread(lock_fd, text, sizeof text - 1, 0);
    int pid = 0;
    char user[128] = {};
    double since = 0;
    if (n <= 0 || std::sscanf(text, "%d %127s %lf", &pid, user, &since) != 3 || !alive(pid)) {
        place.holder_pid = 0;
        return;
    }
    place.holder_pid = pid;
    place.holder_user = user;
    place.held_s = std::max(0.0, epoch_s() - since);
}

std::string ordinal(int n) {
    const int tens = n % 100;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                         : n % 10 == 1              ? "st"
                         : n % 10 == 2              ? "nd"
                         : n % 10 == 3              ? "rd"
                                                    : "th";
    return std::to_string(n) + suffix;
}

}  // namespace

bool gpu_turns_enabled() {
    const char* value = std::getenv("TCLENS_GPU_TURNS");
    return value == nullptr || std::string(value) != "off";
}

std::string gpu_turn_lock_file(const std::string& gpu_key, const std::string& folder) {
    return folder + "/" + file_key(gpu_key) + ".lock";
}

GpuTurn::GpuTurn(GpuTurn&& other) noexcept : lock_fd_(other.lock_fd_) { other.lock_fd_ = -1; }

GpuTurn& GpuTurn::operator=(GpuTurn&& other) noexcept {
    if (this != &other) {
        release();
        lock_fd_ = other.lock_fd_;
        other.lock_fd_ = -1;
    }
    return *this;
}

GpuTurn::~GpuTurn() { release(); }

void GpuTurn::release() {
    if (lock_fd_ < 0) return;
    write_holder(lock_fd_, "");
    close(lock_fd_);  // drops the flock
    lock_fd_ = -1;
}

std::string GpuTurn::take(const std::string& gpu_key, const TurnWaiting& waiting,
                          const TurnOptions& options) {
    release();
    if (!gpu_turns_enabled()) return "";
    if (std::string error = ensure_folder(options.folder); !error.empty()) return error;
    const std::string key = file_key(gpu_key);
    const std::string base = options.folder + "/" + key;
    std::string error;
    const int lock_fd = open_shared(gpu_turn_lock_file(gpu_key, options.folder), 0, error);
    if (lock_fd < 0) return error;

    // The ticket is locked under a name scanners ignore, then renamed: a scanner never sees it
    // unlocked (and never takes it for stale).
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "%020lld.%010d", static_cast<long long>(ns),
                  static_cast<int>(getpid()));
    const std::string mine = key + ".t." + stamp;
    const std::string ticket = options.folder + "/" + mine;
    const std::string pending = base + ".n." + std::to_string(getpid());
    const int ticket_fd = open_shared(pending, O_TRUNC, error);
    if (ticket_fd < 0) {
        close(lock_fd);
        return error;
    }
    if (flock(ticket_fd, LOCK_EX) != 0 || rename(pending.c_str(), ticket.c_str()) != 0) {
        error = errno_line("cannot queue in " + options.folder);
        unlink(pending.c_str());
        close(ticket_fd);
        close(lock_fd);
        return error;
    }
    const auto leave_queue = [&] {
        unlink(ticket.c_str());
        close(ticket_fd);
    };

    const Clock::time_point start = Clock::now();
    Clock::time_point next_report = start;
    const auto report_every = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.report_s));
    for (;;) {
        const int ahead = waiters_ahead(options.folder, key + ".t.", mine);
        if (ahead == 0 && flock(lock_fd, LOCK_EX | LOCK_NB) == 0) {
            const std::string holder = std::to_string(getpid()) + " " + user_name(geteuid()) + " " +
                                       std::to_string(epoch_s()) + "\n";
            write_holder(lock_fd, holder);
            leave_queue();
            lock_fd_ = lock_fd;
            return "";
        }
        const Clock::time_point now = Clock::now();
        if (now >= next_report) {
            TurnPlace place;
            place.place = ahead + 1;
            place.waited_s = std::chrono::duration<double>(now - start).count();
            read_holder(lock_fd, place);
            if (!waiting(place)) {
                leave_queue();
                close(lock_fd);
                return "cancelled";
            }
            next_report = now + report_every;
        }
        std::this_thread::sleep_for(ahead == 0 ? kFirstTick : kWaiterTick);
    }
}

std::string turn_wait_text(const std::string& gpu, const TurnPlace& place) {
    std::string text = "waiting for the GPU (" + gpu +
                       "): " + (place.place <= 1 ? std::string("next") : ordinal(place.place)) +
                       " in line";
    if (place.holder_pid > 0) {
        text += ", held by pid " + std::to_string(place.holder_pid);
        if (!place.holder_user.empty()) text += " (" + place.holder_user + ")";
        text += " for " + std::to_string(static_cast<long long>(place.held_s)) + " s";
    }
    return text;
}

}  // namespace tclens::worker
