// Plain and decompressed input behind one read(): the first bytes say which.
#include "byte_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

// One read(2), retried on EINTR.
std::size_t read_fd(int fd, char* buffer, std::size_t size, const std::string& source) {
    for (;;) {
        const ssize_t n = ::read(fd, buffer, size);
        if (n >= 0) return static_cast<std::size_t>(n);
        if (errno != EINTR) throw DataError(source + ": cannot read: " + std::strerror(errno));
    }
}

// The descriptor's own bytes, after the few already read to look for magic bytes.
class PlainSource final : public ByteSource {
public:
    PlainSource(int fd, bool own_fd, std::string source, std::string head)
        : fd_(fd), own_(own_fd), source_(std::move(source)), head_(std::move(head)) {}
    ~PlainSource() override {
        if (own_) ::close(fd_);
    }
    PlainSource(const PlainSource&) = delete;
    PlainSource& operator=(const PlainSource&) = delete;

    std::size_t read(char* buffer, std::size_t size) override {
        if (head_used_ < head_.size()) {
            const std::size_t n = std::min(size, head_.size() - head_used_);
            std::memcpy(buffer, head_.data() + head_used_, n);
            head_used_ += n;
            return n;
        }
        return read_fd(fd_, buffer, size, source_);
    }
    Compression compression() const override { return Compression::none; }

private:
    int fd_;
    bool own_;
    std::string source_;
    std::string head_;
    std::size_t head_used_ = 0;
};

// Blocks of text decompressed ahead by a thread of its own. The thread waits while
// kMaxAheadBlocks are ready, so memory holds at most that many blocks; an error is
// passed on after the text that came before it.
class DecompressingSource final : public ByteSource {
public:
    DecompressingSource(int fd, bool own_fd, const std::string& source, std::string head, Compression c)
        : fd_(fd), own_(own_fd), format_(c), decompressor_(c, source), source_(source),
          compressed_(kCompressedReadBytes, '\0') {
        // Every block is made here, on the reading thread: made by the worker they would
        // live in a malloc arena of its own, resident beside the reader's.
        spare_.resize(kMaxAheadBlocks + 2);
        for (auto& b : spare_) b.reserve(kBlockBytes);
        worker_ = std::thread([this, head = std::move(head)] { decompress_all(head); });
    }
    ~DecompressingSource() override {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        worker_.join();
        if (own_) ::close(fd_);
    }
    DecompressingSource(const DecompressingSource&) = delete;
    DecompressingSource& operator=(const DecompressingSource&) = delete;

    std::size_t read(char* buffer, std::size_t size) override;
    Compression compression() const override { return format_; }

private:
    // Blocks of 128 KB cost the .zst stream 5-10% of its wall on a quiet machine
    // (bench/loading/results_compressed.md): the 768 KB they save is not worth it.
    static constexpr std::size_t kBlockBytes = std::size_t{256} << 10;
    static constexpr std::size_t kMaxAheadBlocks = 4;
    static constexpr std::size_t kCompressedReadBytes = std::size_t{256} << 10;

    void decompress_all(const std::string& head) noexcept;
    bool wait_readable();      // false when the reader is gone
    void push(std::string& block);

    int fd_;
    bool own_;
    Compression format_;
    Decompressor decompressor_;
    std::string source_;
    std::thread worker_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> ready_;  // decompressed blocks not yet read
    // Blocks the reader is done with, for the worker to fill again: one thread frees and
    // the other allocates, so fresh blocks each time would spread over both threads'
    // malloc arenas and grow the resident set over a long input.
    std::vector<std::string> spare_;
    std::string compressed_;         // the worker's read of the input
    std::exception_ptr error_;       // after the blocks in ready_
    bool done_ = false;              // the worker has nothing more to add
    bool stop_ = false;              // the reader is gone
    std::string current_;            // the block being read
    std::size_t current_used_ = 0;
};

std::size_t DecompressingSource::read(char* buffer, std::size_t size) {
    if (current_used_ == current_.size()) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return !ready_.empty() || done_; });
        if (ready_.empty()) {
            if (error_) std::rethrow_exception(error_);
            return 0;
        }
        if (current_.capacity() > 0) {
            current_.clear();
            spare_.push_back(std::move(current_));
        }
        current_ = std::move(ready_.front());
        ready_.pop_front();
        current_used_ = 0;
        lock.unlock();
        changed_.notify_all();
    }
    const std::size_t n = std::min(size, current_.size() - current_used_);
    std::memcpy(buffer, current_.data() + current_used_, n);
    current_used_ += n;
    return n;
}

void DecompressingSource::push(std::string& block) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return ready_.size() < kMaxAheadBlocks || stop_; });
    if (stop_) throw InternalError("stopped");  // caught in decompress_all: the reader is gone
    ready_.push_back(std::move(block));
    // kMaxAheadBlocks ready, one read and this one: a spare is always left.
    block = std::move(spare_.back());
    spare_.pop_back();
    lock.unlock();
    changed_.notify_all();
}

// A pipe may stay silent for ever: wait for it in slices, so that a reader that stops
// early (an error in its rows) is not held up by a writer that never ends.
bool DecompressingSource::wait_readable() {
    pollfd p{fd_, POLLIN, 0};
    for (;;) {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (stop_) return false;
        }
        const int r = ::poll(&p, 1, 100);
        if (r != 0) return true;  // readable, closed, or an error read() reports
    }
}

void DecompressingSource::decompress_all(const std::string& head) noexcept {
    std::string block;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        block = std::move(spare_.back());
        spare_.pop_back();
    }
    std::exception_ptr error;
    try {
        // Blocks are filled to kBlockBytes exactly, so that one never outgrows what the
        // reading thread reserved.
        const auto emit = [&](std::string_view text) {
            while (!text.empty()) {
                const std::size_t n = std::min(text.size(), kBlockBytes - block.size());
                block.append(text.substr(0, n));
                text.remove_prefix(n);
                if (block.size() == kBlockBytes) push(block);
            }
        };
        decompressor_.feed(head, emit);
        for (;;) {
            if (!wait_readable()) return;
            const std::size_t n = read_fd(fd_, compressed_.data(), compressed_.size(), source_);
            if (n == 0) break;
            decompressor_.feed(std::string_view(compressed_.data(), n), emit);
        }
        decompressor_.finish(emit);
        if (!block.empty()) push(block);
    } catch (...) {
        error = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    // The text decompressed before a corrupt byte is handed out before the error.
    if (error && !stop_ && !block.empty()) ready_.push_back(std::move(block));
    error_ = stop_ ? nullptr : error;
    done_ = true;
    changed_.notify_all();
}

}  // namespace

std::unique_ptr<ByteSource> open_byte_source(int fd, bool own_fd, const std::string& source) {
    std::string head(kCompressionMagicBytes, '\0');
    std::size_t have = 0;
    try {
        while (have < head.size()) {
            const std::size_t n = read_fd(fd, head.data() + have, head.size() - have, source);
            if (n == 0) break;
            have += n;
        }
    } catch (...) {
        if (own_fd) ::close(fd);
        throw;
    }
    head.resize(have);
    const Compression c = compression_of(head);
    if (c == Compression::none) return std::make_unique<PlainSource>(fd, own_fd, source, std::move(head));
    return std::make_unique<DecompressingSource>(fd, own_fd, source, std::move(head), c);
}

std::unique_ptr<ByteSource> open_byte_source(const std::string& path, const std::string& source,
                                             const std::string& directory_is_not) {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DataError(source + ": cannot read: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin) ::close(fd);
        throw DataError(source + ": is a directory, not " + directory_is_not);
    }
    return open_byte_source(fd, !is_stdin, source);
}

}  // namespace kestrel::detail
