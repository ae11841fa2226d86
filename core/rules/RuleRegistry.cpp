#include "rules/RuleRegistry.h"

#include "rules/R102_vectorize.h"

#include <algorithm>

namespace cnready {

RuleRegistry::RuleRegistry() {
    m_rules.push_back(std::make_unique<R102Vectorize>());
    std::sort(m_rules.begin(), m_rules.end(),
              [](const auto& a, const auto& b) { return a->info().code < b->info().code; });
}

const RuleRegistry& RuleRegistry::instance() {
    static const RuleRegistry registry;
    return registry;
}

const Rule* RuleRegistry::find(const QString& code) const {
    for (const auto& r : m_rules)
        if (r->info().code.compare(code, Qt::CaseInsensitive) == 0)
            return r.get();
    return nullptr;
}

} // namespace cnready
