#pragma once
// A slot holding the latest immutable snapshot of T. The job runner publishes a new snapshot;
// panels take a shared_ptr to the current one and draw from it without further locking.

#include <memory>
#include <mutex>

namespace tclens::gui {

template <typename T>
class Published {
  public:
    void publish(std::shared_ptr<const T> snapshot) {
        std::lock_guard lock(mutex_);
        latest_ = std::move(snapshot);
    }
    // nullptr until the first publish.
    std::shared_ptr<const T> latest() const {
        std::lock_guard lock(mutex_);
        return latest_;
    }

  private:
    mutable std::mutex mutex_;
    std::shared_ptr<const T> latest_;
};

}  // namespace tclens::gui
