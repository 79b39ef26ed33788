// The operator cache and the buffer pool of a device (device_cache.hpp).
#include "device_cache.hpp"

#include <algorithm>

namespace vkdml_python {

vkdml::Status Pending::wait() {
    std::lock_guard lock(mutex_);
    if (!status_) {
        status_ = submission_->wait();
        submission_.reset();  // its buffers and operator go now
        finished_ = true;
    }
    return *status_;
}

bool Pending::done() {
    if (finished_) return true;
    std::unique_lock lock(mutex_, std::try_to_lock);
    return lock.owns_lock() && (status_ || submission_->done());
}

vkdml::Status Slot::wait_users() {
    std::vector<std::shared_ptr<Pending>> waiting;
    {
        std::lock_guard lock(users_mutex);
        waiting = users;
    }
    vkdml::Status first;
    for (const auto& p : waiting)  // outside the lock: done() and add_user go on meanwhile
        if (auto st = p->wait(); !st && first) first = st;
    std::lock_guard lock(users_mutex);
    std::erase_if(users, [&](const std::shared_ptr<Pending>& u) {
        return std::find(waiting.begin(), waiting.end(), u) != waiting.end();
    });
    return first;
}

bool Slot::idle() {
    std::lock_guard lock(users_mutex);
    return std::all_of(users.begin(), users.end(),
                       [](const std::shared_ptr<Pending>& u) { return u->done(); });
}

void Slot::add_user(std::shared_ptr<Pending> p) {
    std::lock_guard lock(users_mutex);
    std::erase_if(users, [](const std::shared_ptr<Pending>& u) { return u->done(); });
    users.push_back(std::move(p));
}

Lease::~Lease() {
    owner_->give_back(std::move(slot_));
}

uint64_t size_class(uint64_t bytes) {
    if (bytes <= 256) return 256;
    uint64_t power = 1;
    while (power <= bytes / 2) power *= 2;  // the largest power of two <= bytes
    const uint64_t step = power / 8;
    return (bytes + step - 1) / step * step;
}

DeviceHandle::DeviceHandle(std::shared_ptr<vkdml::Device> device) : device_(std::move(device)) {
    set_limits(max_entries_, std::nullopt);
}

vkdml::Result<vkdml::CompiledOperator> DeviceHandle::compiled(
    const std::string& key, const std::function<vkdml::Result<vkdml::CompiledOperator>()>& make) {
    std::shared_ptr<Entry> entry;
    {
        std::lock_guard lock(mutex_);
        auto& slot = entries_[key];
        if (!slot) slot = std::make_shared<Entry>();
        slot->last_used = ++clock_;
        entry = slot;
    }
    std::lock_guard compiling(entry->compiling);
    std::unique_lock lock(mutex_);
    if (entry->op) {
        ++counters_.hits;
        return *entry->op;
    }
    lock.unlock();  // compiling takes long: other keys go on meanwhile
    vkdml::Result<vkdml::CompiledOperator> made = make();
    lock.lock();
    if (!made) {
        auto it = entries_.find(key);
        if (it != entries_.end() && it->second == entry) entries_.erase(it);  // nothing cached for a refusal
        return made.error();
    }
    entry->op = *made;
    ++counters_.compiles;
    trim_operators();
    return made;
}

void DeviceHandle::trim_operators() {
    while (entries_.size() > max_entries_) {
        auto victim = std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
            return a.second->last_used < b.second->last_used;
        });
        entries_.erase(victim);  // a call still using it holds its own copy
        ++counters_.evictions;
    }
}

vkdml::Result<std::shared_ptr<Lease>> DeviceHandle::lend(uint64_t bytes) {
    const vkdml::DeviceInfo& info = device_->info();
    const uint64_t limit = std::min(info.max_buffer_size, info.max_memory_allocation_size);
    uint64_t wanted = size_class(bytes);
    if (wanted > limit) wanted = (bytes + 15) / 16 * 16;  // a class past the device's limits: the exact size
    std::unique_ptr<Slot> slot;
    {
        std::lock_guard lock(mutex_);
        // An idle slot of the class whose work is done; else a busy one only where there is no room to
        // keep a new buffer beside it (waiting for the device is the last resort).
        auto busy = idle_.end();
        auto pick = idle_.end();
        for (auto it = idle_.begin(); it != idle_.end() && pick == idle_.end(); ++it)
            if ((*it)->size_class == wanted) {
                if ((*it)->idle())
                    pick = it;
                else if (busy == idle_.end())
                    busy = it;
            }
        if (pick == idle_.end() && busy != idle_.end() && idle_bytes_ + wanted > max_bytes_) pick = busy;
        if (pick != idle_.end()) {
            slot = std::move(*pick);
            idle_.erase(pick);
            idle_bytes_ -= wanted;
            lent_bytes_ += wanted;
            ++counters_.reuses;
        }
    }
    const auto lease = [&](std::unique_ptr<Slot> s) {
        return std::make_shared<Lease>(shared_from_this(), std::move(s));
    };
    if (slot) {
        if (auto st = slot->wait_users(); !st) {
            auto failed = lease(std::move(slot));  // back to the pool
            return st.error();
        }
        return lease(std::move(slot));
    }
    auto buffer = vkdml::MappedBuffer::create(*device_, wanted);
    if (!buffer && buffer.error().code == vkdml::ErrorCode::out_of_memory && wanted <= limit) {
        std::vector<std::unique_ptr<Slot>> freed;  // the device is out of memory: free the idle buffers
        {
            std::lock_guard lock(mutex_);
            freed = trim_buffers(0);
        }
        if (!freed.empty()) {  // memory to try again with
            for (auto& s : freed) (void)s->wait_users();
            freed.clear();
            buffer = vkdml::MappedBuffer::create(*device_, wanted);
        }
    }
    if (!buffer) return buffer.error();
    auto s = std::make_unique<Slot>();
    s->buffer = std::move(*buffer);
    s->size_class = wanted;
    {
        std::lock_guard lock(mutex_);
        ++counters_.allocations;
        lent_bytes_ += wanted;
    }
    return lease(std::move(s));
}

void DeviceHandle::give_back(std::unique_ptr<Slot> slot) {
    std::vector<std::unique_ptr<Slot>> freed;
    {
        std::lock_guard lock(mutex_);
        lent_bytes_ -= slot->size_class;
        idle_bytes_ += slot->size_class;
        idle_.push_front(std::move(slot));
        freed = trim_buffers(max_bytes_);
    }
    // Freed outside the lock; a buffer a submission still uses lives on in that submission.
}

std::vector<std::unique_ptr<Slot>> DeviceHandle::trim_buffers(uint64_t limit) {
    std::vector<std::unique_ptr<Slot>> freed;
    while (idle_bytes_ > limit && !idle_.empty()) {
        idle_bytes_ -= idle_.back()->size_class;
        freed.push_back(std::move(idle_.back()));
        idle_.pop_back();
        ++counters_.frees;
    }
    return freed;
}

DeviceHandle::Info DeviceHandle::info() {
    std::lock_guard lock(mutex_);
    return Info{counters_, entries_.size(), idle_bytes_, idle_.size(), lent_bytes_, max_entries_, max_bytes_};
}

void DeviceHandle::set_limits(uint64_t max_entries, std::optional<uint64_t> max_bytes) {
    const uint64_t heap = device_->info().host_visible_heap;
    std::vector<std::unique_ptr<Slot>> freed;
    std::lock_guard lock(mutex_);
    max_entries_ = max_entries;
    max_bytes_ =
        max_bytes ? *max_bytes : std::clamp<uint64_t>(heap / 2, uint64_t(256) << 20, uint64_t(1) << 30);
    trim_operators();
    freed = trim_buffers(max_bytes_);
}

void DeviceHandle::clear() {
    std::vector<std::unique_ptr<Slot>> freed;
    {
        std::lock_guard lock(mutex_);
        entries_.clear();
        freed = trim_buffers(0);
    }
    for (auto& s : freed) (void)s->wait_users();
}

}  // namespace vkdml_python
