// The Python module's per-device state: compiled operators cached by description (a count limit) and
// device buffers pooled by size (a byte limit on the idle ones), with the submissions that use them.
#pragma once

#include <vkdml/submission.hpp>
#include <vkdml/vkdml.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace vkdml_python {

/// Work on the device that the host may have to wait for: one submit's Submission. Thread-safe.
class Pending {
public:
    explicit Pending(vkdml::Submission s) : submission_(std::move(s)) {}
    /// Waits (the first call; later calls return its status).
    vkdml::Status wait();
    /// Whether the work is done; never blocks (false while another thread waits for it).
    bool done();

private:
    std::mutex mutex_;
    std::atomic<bool> finished_{false};
    std::optional<vkdml::Submission> submission_;
    std::optional<vkdml::Status> status_;
};

/// One pooled buffer and the submissions that may still use it: the host touches it (and the pool lends
/// it again) only after waiting for them.
struct Slot {
    vkdml::MappedBuffer buffer;
    uint64_t size_class = 0;
    std::mutex users_mutex;  // guards users
    std::vector<std::shared_ptr<Pending>> users;
    /// Waits for every user; the first failure is returned (the users are dropped either way).
    vkdml::Status wait_users();
    /// Whether every user is done.
    bool idle();
    /// Drops the users that are done, then adds `p`.
    void add_user(std::shared_ptr<Pending> p);
};

class DeviceHandle;

/// A buffer lent by the pool; back to the pool when the last holder lets it go.
class Lease {
public:
    Lease(std::shared_ptr<DeviceHandle> owner, std::unique_ptr<Slot> slot)
        : owner_(std::move(owner)), slot_(std::move(slot)) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    Slot& slot() const noexcept { return *slot_; }
    const vkdml::MappedBuffer& buffer() const noexcept { return slot_->buffer; }

private:
    std::shared_ptr<DeviceHandle> owner_;
    std::unique_ptr<Slot> slot_;
};

/// Counters for cache_info().
struct CacheCounters {
    uint64_t compiles = 0, hits = 0, evictions = 0;   ///< operators
    uint64_t allocations = 0, reuses = 0, frees = 0;  ///< buffers
};

/// A device, its operator cache and its buffer pool. Held by shared_ptr (leases point back at it).
class DeviceHandle : public std::enable_shared_from_this<DeviceHandle> {
public:
    explicit DeviceHandle(std::shared_ptr<vkdml::Device> device);
    const std::shared_ptr<vkdml::Device>& device() const noexcept { return device_; }

    /// The compiled operator for `key`, compiled by `make` (once per key, outside the lock) on a miss.
    vkdml::Result<vkdml::CompiledOperator> compiled(
        const std::string& key, const std::function<vkdml::Result<vkdml::CompiledOperator>()>& make);
    /// A buffer of at least `bytes` bytes (an idle one of its size class, after its users are done, else
    /// a new one; on out_of_memory the idle buffers, if any, are freed and the allocation tried again).
    vkdml::Result<std::shared_ptr<Lease>> lend(uint64_t bytes);
    /// Takes a buffer back (Lease's destructor), freeing idle ones past the byte limit.
    void give_back(std::unique_ptr<Slot> slot);

    struct Info {
        CacheCounters counters;
        uint64_t entries, idle_bytes, idle_buffers, lent_bytes, max_entries, max_bytes;
    };
    Info info();
    /// max_bytes: the idle buffers' limit; nullopt: the default (half the host-visible heap, at least
    /// 256 MiB).
    void set_limits(uint64_t max_entries, std::optional<uint64_t> max_bytes);
    /// Frees the cached operators and the idle buffers (their users waited for first).
    void clear();

private:
    void trim_operators();                                            // under mutex_
    std::vector<std::unique_ptr<Slot>> trim_buffers(uint64_t limit);  // under mutex_: the slots to free

    std::shared_ptr<vkdml::Device> device_;
    std::mutex mutex_;
    struct Entry {
        std::mutex compiling;  // one compile per key at a time, outside mutex_
        std::optional<vkdml::CompiledOperator> op;
        uint64_t last_used = 0;
    };
    std::map<std::string, std::shared_ptr<Entry>> entries_;
    std::list<std::unique_ptr<Slot>> idle_;  // most recently returned first
    uint64_t idle_bytes_ = 0, lent_bytes_ = 0, clock_ = 0;
    uint64_t max_entries_ = 64, max_bytes_ = 0;
    CacheCounters counters_;
};

/// The size class of a request: 256 bytes at least, then steps of an eighth of the power of two below
/// it (at most 12.5 % more than asked).
uint64_t size_class(uint64_t bytes);

}  // namespace vkdml_python
