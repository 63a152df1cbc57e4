// io.cpp - ByteSource (mapped or streamed input) and OutputFile (atomic).
#include "encoding/io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ir/error.h"

namespace pl {

namespace {
constexpr size_t kChunk = 1 << 16;

std::string errno_text() { return std::strerror(errno); }
}  // namespace

ByteSource ByteSource::open(const std::string& path) {
  ByteSource s;
  s.name_ = path == "-" ? "<stdin>" : path;
  if (path == "-") {
    s.fd_ = 0;
  } else {
    s.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (s.fd_ < 0) throw FormatError(Where{}, "cannot open: " + errno_text());
    s.own_fd_ = true;
  }
  struct stat st {};
  if (::fstat(s.fd_, &st) == 0 && S_ISDIR(st.st_mode)) throw FormatError(Where{}, "is a directory");
  if (::fstat(s.fd_, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void* m = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, s.fd_, 0);
    if (m != MAP_FAILED) {
      s.map_ = m;
      s.map_size_ = static_cast<size_t>(st.st_size);
      s.data_ = static_cast<const char*>(m);
      s.end_ = s.map_size_;
      s.eof_ = true;
      return s;
    }
  }
  s.data_ = s.buf_.data();
  return s;
}

ByteSource ByteSource::from_string(std::string name, std::string bytes) {
  ByteSource s;
  s.name_ = std::move(name);
  s.buf_ = std::move(bytes);
  s.data_ = s.buf_.data();
  s.end_ = s.buf_.size();
  s.eof_ = true;
  return s;
}

ByteSource::ByteSource(ByteSource&& o) noexcept { *this = std::move(o); }

ByteSource& ByteSource::operator=(ByteSource&& o) noexcept {
  if (this == &o) return *this;
  name_ = std::move(o.name_);
  fd_ = o.fd_;
  own_fd_ = o.own_fd_;
  eof_ = o.eof_;
  map_ = o.map_;
  map_size_ = o.map_size_;
  buf_ = std::move(o.buf_);
  data_ = map_ ? static_cast<const char*>(map_) : buf_.data();
  pos_ = o.pos_;
  end_ = o.end_;
  consumed_ = o.consumed_;
  o.fd_ = -1;
  o.own_fd_ = false;
  o.map_ = nullptr;
  return *this;
}

ByteSource::~ByteSource() {
  if (map_) ::munmap(map_, map_size_);
  if (own_fd_ && fd_ >= 0) ::close(fd_);
}

void ByteSource::compact() {
  if (pos_ == 0) return;
  std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  consumed_ += pos_;
  pos_ = 0;
}

bool ByteSource::fill() {
  if (eof_ || map_) return false;
  compact();
  size_t want = std::max(kChunk, end_);  // grow geometrically for big frames
  if (buf_.size() < end_ + want) buf_.resize(end_ + want);
  data_ = buf_.data();
  for (;;) {
    ssize_t got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw FormatError(Where::at_byte(offset()), "read failed: " + errno_text());
    if (got == 0) {
      eof_ = true;
      return false;
    }
    end_ += static_cast<size_t>(got);
    return true;
  }
}

bool ByteSource::ensure(size_t n) {
  while (end_ - pos_ < n)
    if (!fill()) return false;
  return true;
}

void ByteSource::consume(size_t n) { pos_ += std::min(n, end_ - pos_); }

// ---- OutputFile -------------------------------------------------------------

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    fd_ = 1;
    return;
  }
  // An existing output that is not a regular file (/dev/null, a FIFO, a
  // terminal) is written in place: renaming a temporary over it would
  // replace the device with a file (`-o /dev/null` as root once replaced
  // the machine's /dev/null).
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("cannot write '" + path_ + "': " + errno_text());
    return;
  }
  auto slash = path_.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path_.substr(0, slash);
  temp_path_ = dir + "/.tmp-XXXXXX";
  std::vector<char> tmpl(temp_path_.begin(), temp_path_.end());
  tmpl.push_back('\0');
  fd_ = ::mkstemp(tmpl.data());
  if (fd_ < 0) throw std::runtime_error("cannot create output in '" + dir + "': " + errno_text());
  temp_path_ = tmpl.data();
}

OutputFile::~OutputFile() {
  if (path_ != "-" && fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

bool OutputFile::is_terminal() const { return path_ == "-" && ::isatty(1); }

void OutputFile::write(std::string_view bytes) {
  buf_.append(bytes);
  if (buf_.size() >= (1u << 20)) flush();
}

void OutputFile::flush() {
  size_t done = 0;
  while (done < buf_.size()) {
    ssize_t n = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error("cannot write '" + path_ + "': " + errno_text());
    done += static_cast<size_t>(n);
  }
  buf_.clear();
}

void OutputFile::commit() {
  flush();
  if (path_ == "-") {
    committed_ = true;
    return;
  }
  if (temp_path_.empty()) {  // written in place (not a regular file)
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw std::runtime_error("cannot write '" + path_ + "': " + errno_text());
    committed_ = true;
    return;
  }
  ::fchmod(fd_, 0644 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw std::runtime_error("cannot write '" + path_ + "': " + errno_text());
  }
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rename output to '" + path_ + "': " + errno_text());
  committed_ = true;
}

}  // namespace pl
