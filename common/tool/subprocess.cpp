// subprocess.cpp - see subprocess.h. fork + execvp; the parent polls the
// captured pipes until both close and the time limit has not passed, then
// reaps the child. On a timeout the whole process group gets SIGKILL.
#include "tool/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace pl {

namespace {

// In the child, before stderr is the capture pipe: a failure is told on
// err_fd with exec_child's "cannot run" prefix (ProcessResult::exec_failed).
int open_or_die(const char* path, int flags, int err_fd) {
  int fd = ::open(path, flags, 0644);
  if (fd < 0) {
    std::string msg = std::string("cannot run: cannot open ") + path + ": " + std::strerror(errno) + "\n";
    (void)!::write(err_fd, msg.data(), msg.size());
    _exit(127);
  }
  return fd;
}

[[noreturn]] void exec_child(const ProcessSpec& spec, int out_pipe, int err_pipe, pid_t parent) {
  ::setpgid(0, 0);
  // The child is in a process group of its own (so a timeout kills all it
  // started), which a signal to the parent's group does not reach: it dies
  // with the parent instead, or a tool killed mid-run (a test timeout, ^C)
  // would leave a looping program running.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) {  // the parent died before prctl
    std::string msg = "cannot run " + spec.argv[0] + ": the parent exited\n";
    (void)!::write(err_pipe, msg.data(), msg.size());
    _exit(127);
  }
  int in = open_or_die(spec.stdin_path.empty() ? "/dev/null" : spec.stdin_path.c_str(), O_RDONLY, err_pipe);
  ::dup2(in, 0);
  int out = spec.stdout_path.empty() ? out_pipe : open_or_die(spec.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, err_pipe);
  ::dup2(out, 1);
  ::dup2(err_pipe, 2);
  std::vector<char*> args;
  for (const std::string& a : spec.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  ::execvp(args[0], args.data());
  std::string msg = "cannot run " + spec.argv[0] + ": " + std::strerror(errno) + "\n";
  (void)!::write(2, msg.data(), msg.size());
  _exit(127);
}

void append_limited(std::string& to, const char* data, size_t n, size_t limit) {
  if (to.size() < limit) to.append(data, std::min(n, limit - to.size()));
}

}  // namespace

std::string ProcessResult::describe() const {
  if (timed_out) return "timed out after " + std::to_string(static_cast<long>(seconds + 0.5)) + " s";
  if (exec_failed) return "could not be run";
  if (status > 128) return "killed by signal " + std::to_string(status - 128) + " (" + strsignal(status - 128) + ")";
  return "exit " + std::to_string(status);
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) throw std::invalid_argument("run_process: empty argv");
  int out_fds[2], err_fds[2];
  if (::pipe2(out_fds, O_CLOEXEC) != 0 || ::pipe2(err_fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  auto begin = std::chrono::steady_clock::now();
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) exec_child(spec, out_fds[1], err_fds[1], parent);
  ::setpgid(pid, pid);  // also here, so a kill right away reaches the group
  ::close(out_fds[1]);
  ::close(err_fds[1]);
  ProcessResult r;
  std::vector<pollfd> fds{{out_fds[0], POLLIN, 0}, {err_fds[0], POLLIN, 0}};
  auto deadline = begin + std::chrono::duration<double>(spec.timeout_seconds);
  char buf[65536];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    int wait_ms = -1;
    if (spec.timeout_seconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        r.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count(), INT_MAX));
    }
    int n = ::poll(fds.data(), fds.size(), wait_ms);
    if (n < 0 && errno == EINTR) continue;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        append_limited(i == 0 ? r.out : r.err, buf, static_cast<size_t>(got), spec.capture_limit);
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
      }
    }
  }
  // Both pipes closed (or timed out): wait for the exit, within the limit.
  int wstatus = 0;
  for (;;) {
    pid_t done = ::waitpid(pid, &wstatus, r.timed_out ? 0 : WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (!r.timed_out && spec.timeout_seconds > 0 && std::chrono::steady_clock::now() >= deadline) r.timed_out = true;
    if (r.timed_out) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      continue;
    }
    ::usleep(1000);
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  if (r.timed_out) ::kill(-pid, SIGKILL);  // anything the program left behind
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (WIFEXITED(wstatus)) r.status = WEXITSTATUS(wstatus);
  else if (WIFSIGNALED(wstatus)) r.status = 128 + WTERMSIG(wstatus);
  // 127 with exec_child's message: a program may exit 127 itself.
  r.exec_failed = !r.timed_out && r.status == 127 && r.err.starts_with("cannot run");
  return r;
}

std::string own_directory() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string s(path, static_cast<size_t>(n));
  size_t slash = s.rfind('/');
  return slash == std::string::npos ? "." : s.substr(0, slash);
}

std::string sibling_tool(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  std::string beside = own_directory() + "/" + name;
  struct stat st;
  if (::stat(beside.c_str(), &st) == 0 && (st.st_mode & S_IXUSR)) return beside;
  return name;
}

std::string find_program(const std::string& name) {
  auto executable = [](const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
  };
  if (name.find('/') != std::string::npos) return executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t begin = 0; begin <= dirs.size();) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
    begin = end + 1;
  }
  return "";
}

}  // namespace pl
