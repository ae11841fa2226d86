#pragma once
// Keeps concurrent file analyses from needing more memory together than the machine can give:
// a huge generated module needs ~86 bytes of memory per source byte while it is analyzed.

#include <QtGlobal>

#include <condition_variable>
#include <mutex>

namespace cnready {

/// A counting budget of bytes shared by the analysis workers. A worker reserves its file's
/// expected peak before parsing and gives it back when done; a reservation that would take
/// the total over the budget waits until enough is given back. A reservation made while
/// nothing else is reserved is always granted, even above the budget, so one file larger than
/// the budget is analyzed alone instead of never. Thread-safe; waits without polling.
class MemoryBudget {
public:
    /// `bytes`: the most that concurrent reservations may add up to (0 or less: no limit).
    explicit MemoryBudget(qint64 bytes) : m_budget(bytes) {}
    MemoryBudget(const MemoryBudget&) = delete;
    MemoryBudget& operator=(const MemoryBudget&) = delete;

    /// A granted reservation; gives its bytes back when destroyed. Movable, not copyable.
    class Ticket {
    public:
        Ticket() = default;
        Ticket(Ticket&& o) noexcept : m_owner(o.m_owner), m_bytes(o.m_bytes) {
            o.m_owner = nullptr;
        }
        Ticket& operator=(Ticket&& o) noexcept;
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        ~Ticket() { release(); }
        /// Bytes this ticket holds (0 for an empty ticket).
        qint64 bytes() const { return m_owner ? m_bytes : 0; }

    private:
        friend class MemoryBudget;
        Ticket(MemoryBudget* owner, qint64 bytes) : m_owner(owner), m_bytes(bytes) {}
        void release();
        MemoryBudget* m_owner = nullptr;
        qint64 m_bytes = 0;
    };

    /// Blocks until `bytes` fit beside what is reserved (or nothing is reserved), then
    /// reserves them. Negative `bytes` count as 0.
    Ticket reserve(qint64 bytes);
    /// Bytes reserved right now (for tests and diagnostics).
    qint64 reserved() const;
    /// The largest total that was ever reserved at one time.
    qint64 peakReserved() const;

    /// Expected peak memory of analyzing a file of `sourceBytes` bytes: 90 bytes per source
    /// byte. Measured (2026-12-03, docs/benchmarks.md) on generated NumPy modules of 0.7 MB
    /// (massif heap peak 60 MB: ~85 B/byte) and 3.7 MB (peak RSS 312 MiB less the program's
    /// ~11 MiB and the results kept: ~86 B/byte), of which ~38 are tree-sitter's tree and the
    /// rest the semantic model, evidence and findings. The earlier 200 B/byte dated from before
    /// the shape memo and the walk's field table were made smaller, and let two 3.5 MB
    /// modules run side by side under the 1.5 GiB budget that was meant to keep them apart.
    static qint64 estimateForSource(qint64 sourceBytes) {
        return 90 * qMax<qint64>(0, sourceBytes);
    }

private:
    void giveBack(qint64 bytes);

    const qint64 m_budget;
    mutable std::mutex m_mutex;
    std::condition_variable m_freed;
    qint64 m_reserved = 0;
    qint64 m_peak = 0;
    int m_holders = 0;
};

} // namespace cnready
