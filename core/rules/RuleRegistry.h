#pragma once
// Every rule, registered in one place (RuleRegistry.cpp). Adding a rule = one class, one line
// there, one fixture file under tests/fixtures/rules/.

#include "rules/Rule.h"

#include <QHash>
#include <memory>
#include <vector>

namespace cnready {

class RuleRegistry {
public:
    /// The process-wide registry (built on first use, immutable afterwards, thread-safe to read).
    static const RuleRegistry& instance();
    /// Rules sorted by code.
    const std::vector<std::unique_ptr<Rule>>& rules() const { return m_rules; }
    /// The rule with this code ("R104", case-insensitive), or nullptr.
    const Rule* find(const QString& code) const;

private:
    RuleRegistry();
    std::vector<std::unique_ptr<Rule>> m_rules;
    /// Codes as registered ("R104") → rule: the report looks a rule up once per finding.
    QHash<QString, const Rule*> m_byCode;
};

} // namespace cnready
