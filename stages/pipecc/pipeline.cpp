// pipeline.cpp - fork/exec of a pipeline with per-process stderr capture
// (pipeline.h). Each child's stderr goes to its own anonymous memory file
// (memfd), read after the child exits, so that no pipe can fill up and no
// output of two stages interleaves.
#include "pipeline.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "tool/tool.h"

namespace pl::pipecc {

namespace {

struct Child {
  pid_t pid = -1;
  int err_fd = -1;  // memfd holding the child's stderr
  int wait_status = 0;
};

[[noreturn]] void system_error(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

std::string read_all(int fd) {
  std::string out;
  if (lseek(fd, 0, SEEK_SET) < 0) return out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

// In the child: wire stdin/stdout/stderr and exec. Never returns.
[[noreturn]] void exec_child(const Command& c, int in_fd, int out_fd, int err_fd, const std::vector<int>& close_fds) {
  if (in_fd != 0) dup2(in_fd, 0);
  if (out_fd != 1) dup2(out_fd, 1);
  dup2(err_fd, 2);
  for (int fd : close_fds)
    if (fd > 2) close(fd);
  std::signal(SIGPIPE, SIG_DFL);
  std::vector<char*> argv;
  for (const std::string& a : c.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  std::string msg = "pipecc: cannot run " + c.argv[0] + ": " + std::strerror(errno) + "\n";
  (void)!::write(2, msg.data(), msg.size());
  _exit(127);
}

bool failed(const Child& c) { return !(WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 0); }
// Killed by SIGPIPE, or a shell reporting that its command was (128 + 13).
bool killed_by_sigpipe(const Child& c) {
  return (WIFSIGNALED(c.wait_status) && WTERMSIG(c.wait_status) == SIGPIPE) ||
         (WIFEXITED(c.wait_status) && WEXITSTATUS(c.wait_status) == 128 + SIGPIPE);
}

// The read end of `fd` is gone: a pipe (or socket) whose reader closed it.
// A closed pipe polls as POLLERR for its writer.
bool reader_gone(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
  pollfd pfd{fd, POLLOUT, 0};
  return ::poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLHUP)) != 0;
}

std::string describe_failure(const Child& c) {
  if (WIFSIGNALED(c.wait_status)) return std::string("killed by signal ") + strsignal(WTERMSIG(c.wait_status));
  return "exit status " + std::to_string(WEXITSTATUS(c.wait_status));
}

// A descriptor that reads nothing: /dev/null, or where there is no /dev
// (the chroot of an icecream remote compile) a pipe whose write end is
// closed.
int empty_input() {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) return fd;
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) system_error("/dev/null");
  close(ends[1]);
  return ends[0];
}

}  // namespace

std::string shell_line(const Pipeline& p) {
  std::string line;
  for (const Command& c : p.commands) {
    if (!line.empty()) line += " | ";
    for (size_t i = 0; i < c.argv.size(); ++i) line += (i ? " " : "") + shell_quote(c.argv[i]);
  }
  if (!p.out_redirect.empty()) line += " >> " + shell_quote(p.out_redirect);
  return line;
}

RunResult run(const Pipeline& p) {
  size_t n = p.commands.size();
  std::vector<Child> children(n);
  std::vector<int> pipe_fds;  // every pipe end, closed in each child
  std::vector<std::array<int, 2>> pipes(n > 0 ? n - 1 : 0);
  for (auto& pp : pipes) {
    if (pipe2(pp.data(), O_CLOEXEC) != 0) system_error("pipe");
    pipe_fds.push_back(pp[0]);
    pipe_fds.push_back(pp[1]);
  }
  int null_fd = empty_input();
  for (size_t i = 0; i < n; ++i) {
    children[i].err_fd = memfd_create(p.commands[i].name.c_str(), MFD_CLOEXEC);
    if (children[i].err_fd < 0) system_error("memfd_create");
    int in_fd = i > 0 ? pipes[i - 1][0] : p.in_fd >= 0 ? p.in_fd : null_fd;
    int out_fd = i + 1 == n ? p.out_fd : pipes[i][1];
    pid_t pid = fork();
    if (pid < 0) system_error("fork");
    if (pid == 0) exec_child(p.commands[i], in_fd, out_fd, children[i].err_fd, pipe_fds);
    children[i].pid = pid;
  }
  for (int fd : pipe_fds) close(fd);
  close(null_fd);
  for (Child& c : children)
    while (waitpid(c.pid, &c.wait_status, 0) < 0)
      if (errno != EINTR) system_error("waitpid");

  RunResult result;
  // The last command failed because whoever reads pipecc's output stopped
  // reading (`pipecc -E f.c | head -1`): not an error of the command, and
  // nothing to say about it (its complaint about the write is dropped).
  if (n > 0 && failed(children[n - 1]) && (killed_by_sigpipe(children[n - 1]) || reader_gone(p.out_fd))) {
    for (Child& c : children) close(c.err_fd);
    result.status = kOutputClosed;
    return result;
  }
  size_t culprit = n;
  for (size_t i = 0; i < n && culprit == n; ++i)
    if (failed(children[i]) && !killed_by_sigpipe(children[i])) culprit = i;
  for (size_t i = 0; i < n; ++i) {
    if (i > culprit && culprit < n) break;
    std::cerr << read_all(children[i].err_fd);
  }
  for (Child& c : children) close(c.err_fd);
  if (culprit == n) {
    // Only SIGPIPE deaths: nothing read the output. Not expected.
    for (size_t i = 0; i < n; ++i)
      if (failed(children[i])) culprit = i;
    if (culprit == n) return result;
  }
  const Child& bad = children[culprit];
  if (WIFEXITED(bad.wait_status) && WEXITSTATUS(bad.wait_status) == 1) {
    result.status = 1;
    return result;
  }
  std::cerr << "pipecc: internal error: stage '" << p.commands[culprit].name << "' failed (" << describe_failure(bad)
            << "); the pipeline that reproduces it:\n  " << shell_line(p) << "\n";
  result.status = 3;
  return result;
}

}  // namespace pl::pipecc
