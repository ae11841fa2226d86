#include "analysis/MemoryBudget.h"

namespace cnready {

MemoryBudget::Ticket& MemoryBudget::Ticket::operator=(Ticket&& o) noexcept {
    if (this != &o) {
        release();
        m_owner = o.m_owner;
        m_bytes = o.m_bytes;
        o.m_owner = nullptr;
    }
    return *this;
}

void MemoryBudget::Ticket::release() {
    if (m_owner)
        m_owner->giveBack(m_bytes);
    m_owner = nullptr;
}

MemoryBudget::Ticket MemoryBudget::reserve(qint64 bytes) {
    bytes = qMax<qint64>(0, bytes);
    std::unique_lock lock(m_mutex);
    if (m_budget > 0)
        m_freed.wait(lock, [&] { return m_holders == 0 || m_reserved + bytes <= m_budget; });
    m_reserved += bytes;
    m_peak = qMax(m_peak, m_reserved);
    ++m_holders;
    return Ticket(this, bytes);
}

void MemoryBudget::giveBack(qint64 bytes) {
    {
        const std::lock_guard lock(m_mutex);
        m_reserved -= bytes;
        --m_holders;
    }
    m_freed.notify_all();
}

qint64 MemoryBudget::reserved() const {
    const std::lock_guard lock(m_mutex);
    return m_reserved;
}

qint64 MemoryBudget::peakReserved() const {
    const std::lock_guard lock(m_mutex);
    return m_peak;
}

} // namespace cnready
