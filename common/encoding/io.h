// io.h - byte input and atomic output shared by every tool.
//
// ByteSource reads a file or stdin incrementally: regular files are mapped
// whole (zero-copy), pipes are read in chunks as the readers ask, so a
// streaming reader holds only what it has not consumed yet.
//
// OutputFile writes to a temporary file next to the target and renames it
// into place on commit(); if the tool fails (exception, error exit) the
// destructor removes the temporary, so a failed run never leaves a partial
// output file. "-" is stdout (written through directly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pl {

class ByteSource {
 public:
  // "-" is stdin. Throws FormatError if the file cannot be opened.
  static ByteSource open(const std::string& path);
  // For tests: a source over an in-memory buffer (copied).
  static ByteSource from_string(std::string name, std::string bytes);
  ByteSource(ByteSource&&) noexcept;
  ByteSource& operator=(ByteSource&&) noexcept;
  ByteSource(const ByteSource&) = delete;
  ~ByteSource();

  const std::string& name() const { return name_; }
  // Unconsumed bytes already available.
  std::string_view window() const { return {data_ + pos_, end_ - pos_}; }
  // Read more input; false at end of input. Grows window() by at least 1 byte.
  // Invalidates views previously returned by window(), whether it returns
  // true or false (it may compact the buffer before finding the end).
  bool fill();
  // Make at least n bytes available; false if the input ends first.
  bool ensure(size_t n);
  // Drop n bytes from the front of window().
  void consume(size_t n);
  // Offset of window().data() from the start of the input.
  uint64_t offset() const { return consumed_ + pos_; }
  // True once fill() has seen the end of input.
  bool exhausted() const { return eof_; }

 private:
  ByteSource() = default;
  void compact();
  std::string name_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool eof_ = false;
  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::string buf_;        // for streamed input
  const char* data_ = nullptr;
  size_t pos_ = 0;         // consumed position inside data_
  size_t end_ = 0;         // valid bytes inside data_
  uint64_t consumed_ = 0;  // input offset of data_[0]
};

// Where writers put bytes.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(std::string_view bytes) = 0;
  virtual void flush() {}
};

class OutputFile : public ByteSink {
 public:
  // "-" is stdout. Throws std::runtime_error if the file cannot be created.
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  ~OutputFile() override;  // removes the temporary unless committed

  const std::string& path() const { return path_; }
  bool is_terminal() const;
  void write(std::string_view bytes) override;
  void flush() override;   // hand buffered bytes to the OS (pipes see them now)
  void commit();  // flush, fsync-free close, rename into place

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
  std::string buf_;
};

}  // namespace pl
