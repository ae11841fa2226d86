#pragma once
// A QString that costs one pointer while empty.

#include <QString>

#include <memory>

namespace cnready {

/// A string member that is empty in most records (facts slots, bindings, a finding's site
/// texts): one pointer (null when empty) instead of QString's 24 bytes. Reads as a
/// const QString& (an empty one when unset); an empty string assigned leaves it unset, so
/// null and empty strings are not told apart.
class CompactString {
public:
    CompactString() = default;
    CompactString(const CompactString& o)
        : m_s(o.m_s ? std::make_unique<QString>(*o.m_s) : nullptr) {}
    CompactString(CompactString&&) noexcept = default;
    CompactString& operator=(const CompactString& o) {
        if (this != &o)
            *this = o.str();
        return *this;
    }
    CompactString& operator=(CompactString&&) noexcept = default;
    CompactString& operator=(const QString& s) {
        if (s.isEmpty())
            m_s.reset();
        else if (m_s)
            *m_s = s;
        else
            m_s = std::make_unique<QString>(s);
        return *this;
    }
    const QString& str() const {
        static const QString empty;
        return m_s ? *m_s : empty;
    }
    operator const QString&() const { return str(); }
    bool isEmpty() const { return !m_s; }
    void clear() { m_s.reset(); }
    friend bool operator==(const CompactString& a, const CompactString& b) {
        return a.str() == b.str();
    }
    friend bool operator==(const CompactString& a, const QString& b) { return a.str() == b; }

private:
    std::unique_ptr<QString> m_s;
};

} // namespace cnready
