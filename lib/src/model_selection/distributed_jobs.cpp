#include "distributed_jobs.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include "byte_buffer.hpp"
#include "fold_runner.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"

namespace kestrel::detail {

namespace {

// Rank 0 hands out job indices; the others ask for them, sending back the result of
// their last job with each request.
constexpr int kTagRequest = 7101;
constexpr int kTagAssign = 7102;
constexpr std::uint64_t kNoMoreJobs = std::numeric_limits<std::uint64_t>::max();

enum class RequestKind : std::uint8_t { first, result, failure, rank_done };

// A failed job's error, carried to every rank and thrown there as the same kind, with the
// options its message names (the commands spell them as flags on rank 0).
struct JobError {
    enum Kind : std::uint8_t { param, usage, data, output, internal, other_error, out_of_memory, unknown };
    Kind kind = unknown;
    std::int32_t code = 3;
    ErrorText message;

    static JobError capture(const std::exception_ptr& e) {
        JobError r;
        try {
            std::rethrow_exception(e);
        } catch (const ParamError& x) {
            r = {param, 1, x.text()};
        } catch (const UsageError& x) {
            r = {usage, 1, x.text()};
        } catch (const OutputError& x) {
            r = {output, 2, x.text()};
        } catch (const DataError& x) {
            r = {data, 2, x.text()};
        } catch (const InternalError& x) {
            r = {internal, 3, x.text()};
        } catch (const Error& x) {
            r = {other_error, static_cast<std::int32_t>(x.code()), x.text()};
        } catch (const std::bad_alloc&) {
            r = {out_of_memory, 3, ErrorText("out of memory")};
        } catch (const std::exception& x) {
            r = {unknown, 3, ErrorText(x.what())};
        } catch (...) {
            r = {unknown, 3, ErrorText("unknown error")};
        }
        return r;
    }
    [[noreturn]] void raise() const {
        switch (kind) {
            case param: throw ParamError(message);
            case usage: throw UsageError(message);
            case output: throw OutputError(message.text());
            case data: throw DataError(message);
            case internal: throw InternalError(message);
            case other_error: throw Error(static_cast<ExitCode>(code), message);
            case out_of_memory: throw std::bad_alloc();
            case unknown: break;
        }
        // Not an Error on its rank: an internal error, said as the commands say one of their own.
        throw InternalError("internal error: " + message.text());
    }
    // Not inlined: inlined into encode_request, GCC 12 sees a buffer overflow that is
    // not there (-Wstringop-overflow on the vector's insert).
    [[gnu::noinline]] void write(ByteWriter& w) const {
        w.put<std::uint8_t>(kind);
        w.put<std::int32_t>(code);
        w.put_string(message.text());
        w.put<std::uint32_t>(static_cast<std::uint32_t>(message.mentions().size()));
        for (const auto& m : message.mentions()) {
            w.put<std::uint64_t>(m.at);
            w.put<std::uint64_t>(m.length);
            w.put_string(m.key);
        }
    }
    static JobError read(ByteReader& r) {
        JobError e;
        e.kind = static_cast<Kind>(r.get<std::uint8_t>());
        e.code = r.get<std::int32_t>();
        std::string text = r.get_string();
        std::vector<ErrorText::OptionMention> mentions(r.get<std::uint32_t>());
        for (auto& m : mentions) {
            m.at = r.get<std::uint64_t>();
            m.length = r.get<std::uint64_t>();
            m.key = r.get_string();
        }
        e.message = ErrorText(std::move(text), std::move(mentions));
        return e;
    }
};

// One job's outcome on the rank that ran it.
struct SharedJobOutcome {
    std::uint64_t index = 0;
    std::optional<JobBytes> bytes;  // absent: failed
    JobError error;
};

SharedJobOutcome run_shared_job(std::uint64_t index, const std::function<JobBytes(std::size_t)>& job) {
    SharedJobOutcome o;
    o.index = index;
    const OneRankScope scope;
    try {
        o.bytes = job(static_cast<std::size_t>(index));
    } catch (...) {
        o.error = JobError::capture(std::current_exception());
    }
    return o;
}

// Every job's result (or error), in job order: what rank 0 broadcasts at the end.
struct SharedJobResults {
    std::vector<std::optional<JobBytes>> bytes;
    std::vector<std::optional<JobError>> errors;
    explicit SharedJobResults(std::size_t n) : bytes(n), errors(n) {}

    void store(SharedJobOutcome&& o) {
        if (o.bytes) bytes[o.index] = std::move(o.bytes);
        else errors[o.index] = std::move(o.error);
    }
};

JobBytes encode_request(RequestKind kind, const SharedJobOutcome* last) {
    ByteWriter w;
    w.put<std::uint8_t>(static_cast<std::uint8_t>(kind));
    if (last != nullptr) {
        w.put<std::uint64_t>(last->index);
        if (last->bytes) w.put_bytes(last->bytes->data(), last->bytes->size());
        else last->error.write(w);
    }
    return std::move(w.bytes());
}

// Rank 0's side: answers requests from one thread (MPI_THREAD_SERIALIZED) while its own
// threads take jobs from the same counter. Polling with a short sleep keeps the thread
// off the cores the fits need; a request waits at most that long.
void coordinate_jobs(ProcessGroup& group, std::atomic<std::uint64_t>& next, std::uint64_t n, SharedJobResults& results,
                std::mutex& results_mutex, const std::function<void()>& on_done) {
    int ranks_done = 0;
    while (ranks_done < group.size() - 1) {
        if (!group.message_waiting(kTagRequest)) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            continue;
        }
        int from = 0;
        const JobBytes message = group.receive(ProcessGroup::kAnySource, kTagRequest, &from);
        ByteReader r(message);
        const auto kind = static_cast<RequestKind>(r.get<std::uint8_t>());
        if (kind == RequestKind::rank_done) {
            ++ranks_done;
            continue;
        }
        if (kind == RequestKind::result || kind == RequestKind::failure) {
            SharedJobOutcome o;
            o.index = r.get<std::uint64_t>();
            if (o.index >= n) throw InternalError("rank " + std::to_string(from) + " sent a result for no job");
            if (kind == RequestKind::result) {
                const auto b = r.get_bytes();
                o.bytes = JobBytes(b.begin(), b.end());
            } else {
                o.error = JobError::read(r);
            }
            {
                const std::lock_guard<std::mutex> lock(results_mutex);
                results.store(std::move(o));
            }
            on_done();
        }
        const std::uint64_t j = next.fetch_add(1);
        ByteWriter w;
        w.put<std::uint64_t>(j < n ? j : kNoMoreJobs);
        group.send(from, kTagAssign, w.bytes());
    }
}

JobBytes encode_results(const SharedJobResults& results) {
    ByteWriter w;
    for (std::size_t j = 0; j < results.bytes.size(); ++j) {
        if (results.bytes[j]) {
            w.put<std::uint8_t>(1);
            w.put_bytes(results.bytes[j]->data(), results.bytes[j]->size());
        } else if (results.errors[j]) {
            w.put<std::uint8_t>(0);
            results.errors[j]->write(w);
        } else {
            throw InternalError("job " + std::to_string(j) + " of a shared loop has no result");
        }
    }
    return std::move(w.bytes());
}

// The broadcast results on every rank; throws the first failed job's error.
std::vector<JobBytes> decode_results(const JobBytes& message, std::size_t n) {
    ByteReader r(message);
    std::vector<JobBytes> out(n);
    std::optional<JobError> first_error;
    for (std::size_t j = 0; j < n; ++j) {
        if (r.get<std::uint8_t>() == 1) {
            const auto b = r.get_bytes();
            out[j] = JobBytes(b.begin(), b.end());
        } else {
            JobError e = JobError::read(r);
            if (!first_error) first_error = std::move(e);
        }
    }
    if (first_error) first_error->raise();
    return out;
}

// Every rank must be at the same loop: a driver that went another way on some rank
// (a bug) would otherwise hang the group.
void check_same_loop(ProcessGroup& group, std::uint64_t n, const std::string& label) {
    ByteWriter w;
    w.put<std::uint64_t>(n);
    JobBytes root = std::move(w.bytes());
    group.broadcast(root, 0);
    ByteReader r(root);
    const auto root_n = r.get<std::uint64_t>();
    if (root_n != n)
        throw InternalError("rank " + std::to_string(group.rank()) + " reached '" + label + "' with " +
                            std::to_string(n) + " jobs where rank 0 has " + std::to_string(root_n));
}

}  // namespace

bool share_jobs_across_ranks() { return group_shares_here(); }

std::vector<JobBytes> run_across_ranks(std::size_t n, const Context& ctx, const std::string& label,
                                       const std::function<JobBytes(std::size_t)>& job) {
    ProcessGroup& group = *process_group();
    check_same_loop(group, n, label);
    const int threads = ctx.resolved_threads();
    // One task per thread, each taking jobs until none is left; progress is counted by job.
    Context quiet = ctx;
    quiet.progress = nullptr;
    JobBytes message;

    if (group.rank() == 0) {
        SharedJobResults results(n);
        std::mutex results_mutex;
        std::atomic<std::uint64_t> next{0};
        std::uint64_t done = 0;
        std::mutex progress_mutex;
        std::exception_ptr progress_error;
        const auto on_done = [&] {
            const std::lock_guard<std::mutex> lock(progress_mutex);
            ++done;
            try {
                ctx.report(label, done, n);
            } catch (...) {
                if (!progress_error) progress_error = std::current_exception();
            }
        };
        ctx.report(label, 0, n);
        std::exception_ptr coordinator_error;
        std::thread coordinator([&] {
            try {
                coordinate_jobs(group, next, n, results, results_mutex, on_done);
            } catch (...) {
                coordinator_error = std::current_exception();
            }
        });
        try {
            run_parallel(static_cast<std::size_t>(threads), quiet, label, [&](std::size_t) {
                for (std::uint64_t j = next.fetch_add(1); j < n; j = next.fetch_add(1)) {
                    SharedJobOutcome o = run_shared_job(j, job);
                    {
                        const std::lock_guard<std::mutex> lock(results_mutex);
                        results.store(std::move(o));
                    }
                    on_done();
                }
            });
        } catch (...) {
            coordinator.join();
            throw;
        }
        coordinator.join();
        if (coordinator_error) std::rethrow_exception(coordinator_error);
        if (progress_error) std::rethrow_exception(progress_error);
        message = encode_results(results);
    } else {
        std::mutex mpi_mutex;  // one request in flight per rank: its answer is this thread's
        run_parallel(static_cast<std::size_t>(threads), quiet, label, [&](std::size_t) {
            std::optional<SharedJobOutcome> last;
            for (;;) {
                std::uint64_t j = kNoMoreJobs;
                {
                    const std::lock_guard<std::mutex> lock(mpi_mutex);
                    const RequestKind kind = !last ? RequestKind::first
                                             : last->bytes ? RequestKind::result
                                                           : RequestKind::failure;
                    group.send(0, kTagRequest, encode_request(kind, last ? &*last : nullptr));
                    const JobBytes answer = group.receive(0, kTagAssign, nullptr);
                    ByteReader r(answer);
                    j = r.get<std::uint64_t>();
                }
                if (j == kNoMoreJobs) return;
                last = run_shared_job(j, job);
            }
        });
        group.send(0, kTagRequest, encode_request(RequestKind::rank_done, nullptr));
    }
    group.broadcast(message, 0);
    return decode_results(message, n);
}

}  // namespace kestrel::detail
