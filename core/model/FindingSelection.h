#pragma once
// A read-mostly list of findings that shares another list's entries instead of copying them:
// the assessment's counted findings are the project's findings less a few (R304 notes for a
// one-GPU target), and a large project holds ~240k findings of ~216 bytes each. Holding a
// second copy of them cost ~50 MB at the peak; the selection costs 4 bytes per kept entry, or
// nothing when every entry is kept.

#include "model/Finding.h"

#include <QList>

#include <algorithm>
#include <compare>
#include <initializer_list>
#include <iterator>

namespace cnready {

/// Findings in a fixed order: either every entry of a shared list, or the entries at given
/// positions of it. Copying is cheap (implicitly shared lists). Reading looks like a
/// `QList<Finding>` (size, indexing, range-for); appending first makes the list its own.
class FindingSelection {
public:
    FindingSelection() = default;
    /// Every entry of `all`, in its order (shares the list, copies no finding).
    FindingSelection(QList<Finding> all) : m_all(std::move(all)) {} // NOLINT: implicit on purpose
    FindingSelection(std::initializer_list<Finding> list) : m_all(list) {}
    /// The entries of `all` at `positions` (ascending or not; each at most once), in that order.
    FindingSelection(QList<Finding> all, QList<qint32> positions)
        : m_all(std::move(all)), m_positions(std::move(positions)), m_selected(true) {}

    qsizetype size() const { return m_selected ? m_positions.size() : m_all.size(); }
    qsizetype count() const { return size(); }
    bool isEmpty() const { return size() == 0; }
    const Finding& at(qsizetype i) const {
        return m_selected ? m_all.at(m_positions.at(i)) : m_all.at(i);
    }
    const Finding& operator[](qsizetype i) const { return at(i); }
    const Finding& first() const { return at(0); }
    const Finding& last() const { return at(size() - 1); }

    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Finding;
        using difference_type = qsizetype;
        using pointer = const Finding*;
        using reference = const Finding&;
        const_iterator() = default;
        const_iterator(const FindingSelection* s, qsizetype i) : m_s(s), m_i(i) {}
        reference operator*() const { return m_s->at(m_i); }
        pointer operator->() const { return &m_s->at(m_i); }
        reference operator[](difference_type n) const { return m_s->at(m_i + n); }
        const_iterator& operator++() { return ++m_i, *this; }
        const_iterator operator++(int) { return {m_s, m_i++}; }
        const_iterator& operator--() { return --m_i, *this; }
        const_iterator operator--(int) { return {m_s, m_i--}; }
        const_iterator& operator+=(difference_type n) { return m_i += n, *this; }
        const_iterator& operator-=(difference_type n) { return m_i -= n, *this; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
            return a.m_i - b.m_i;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) {
            return a.m_i == b.m_i;
        }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
            return a.m_i <=> b.m_i;
        }

    private:
        const FindingSelection* m_s = nullptr;
        qsizetype m_i = 0;
    };
    using iterator = const_iterator;
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    /// The selected entries as a list of their own: the shared list itself when every entry is
    /// selected (no copy), else a copy of the selected ones.
    QList<Finding> toList() const {
        if (!m_selected)
            return m_all;
        QList<Finding> out;
        out.reserve(m_positions.size());
        for (qint32 p : m_positions)
            out.append(m_all.at(p));
        return out;
    }

    void append(const Finding& f) {
        own();
        m_all.append(f);
    }
    FindingSelection& operator<<(const Finding& f) {
        append(f);
        return *this;
    }
    FindingSelection& operator<<(const QList<Finding>& list) {
        own();
        m_all.append(list);
        return *this;
    }
    void reserve(qsizetype n) {
        own();
        m_all.reserve(n);
    }
    void clear() { *this = FindingSelection(); }

    friend bool operator==(const FindingSelection& a, const FindingSelection& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator==(const FindingSelection& a, const QList<Finding>& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }

private:
    /// From a selection to a list of its own (before any change).
    void own() {
        if (!m_selected)
            return;
        m_all = toList();
        m_positions = {};
        m_selected = false;
    }

    QList<Finding> m_all;
    QList<qint32> m_positions; ///< with m_selected: positions in m_all
    bool m_selected = false;
};

} // namespace cnready
