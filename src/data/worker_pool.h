// OrderedWorkerPool: N threads run submitted jobs; results come back in submission order.
//
// The owner submits jobs while in_flight() < window (the prefetch depth) and take()s the oldest
// result, blocking until it is done. A job that throws stores its exception, which take() rethrows
// at that job's position. shutdown() wakes every waiter (take() then throws Cancelled), lets the
// threads exit and joins them; it may be called from any thread but a worker, and the destructor
// calls it. Threads start on the first submit, so building a pipeline to ask its size costs none.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "data/errors.h"
#include "data/node.h"

namespace sprout::data {

template <class Result>
class OrderedWorkerPool {
 public:
  using Job = std::function<Result()>;

  OrderedWorkerPool(int num_workers, size_t window)
      : num_workers_(num_workers < 1 ? 1 : num_workers), window_(window < 1 ? 1 : window) {}
  ~OrderedWorkerPool() { shutdown(); }
  OrderedWorkerPool(const OrderedWorkerPool&) = delete;
  OrderedWorkerPool& operator=(const OrderedWorkerPool&) = delete;

  size_t in_flight() const { return slots_.size(); }
  bool has_room() const { return slots_.size() < window_; }

  void submit(Job job) {
    std::lock_guard lock(mu_);
    if (cancelled_) throw Cancelled();
    if (threads_.empty()) start();  // they wait for mu_ until this submit returns
    slots_.emplace_back();
    jobs_.push_back({next_submit_++, std::move(job)});
    jobs_cv_.notify_one();
  }

  // The result of the oldest submitted job; requires in_flight() > 0.
  Result take() {
    std::unique_lock lock(mu_);
    done_cv_.wait(lock, [&] { return cancelled_ || slots_.front().done; });
    if (cancelled_) throw Cancelled();
    Slot slot = std::move(slots_.front());
    slots_.pop_front();
    ++first_seq_;
    lock.unlock();
    if (slot.error) std::rethrow_exception(slot.error);
    return std::move(*slot.result);
  }

  // Discards the results still in flight (an epoch cut short by take()); their errors too.
  void drain() {
    while (in_flight() > 0) {
      try {
        take();
      } catch (const Cancelled&) {
        throw;
      } catch (...) {
      }
    }
  }

  void shutdown() {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      cancelled_ = true;
      jobs_.clear();
      jobs_cv_.notify_all();
      done_cv_.notify_all();
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
  }

 private:
  struct Slot {
    std::optional<Result> result;
    std::exception_ptr error;
    bool done = false;
  };
  struct PendingJob {
    int64_t seq;
    Job job;
  };

  void start() {
    threads_.reserve(num_workers_);
    for (int i = 0; i < num_workers_; ++i) threads_.emplace_back([this] { work(); });
  }

  void work() {
    mark_engine_thread();
    std::unique_lock lock(mu_);
    for (;;) {
      jobs_cv_.wait(lock, [&] { return cancelled_ || !jobs_.empty(); });
      if (cancelled_) return;
      PendingJob pending = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      std::optional<Result> result;
      std::exception_ptr error;
      try {
        result.emplace(pending.job());
      } catch (...) {
        error = std::current_exception();
      }
      pending.job = nullptr;  // release what the job captured outside the lock
      lock.lock();
      if (cancelled_) continue;  // the slots are gone; the result goes nowhere
      Slot& slot = slots_[static_cast<size_t>(pending.seq - first_seq_)];
      slot.result = std::move(result);
      slot.error = error;
      slot.done = true;
      if (pending.seq == first_seq_) done_cv_.notify_all();
    }
  }

  const int num_workers_;
  const size_t window_;
  std::mutex mu_;
  std::condition_variable jobs_cv_, done_cv_;
  std::deque<PendingJob> jobs_;
  std::deque<Slot> slots_;  // slots_[i] holds job first_seq_ + i
  int64_t first_seq_ = 0, next_submit_ = 0;
  bool cancelled_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sprout::data
