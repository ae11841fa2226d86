#include "rules/RuleRegistry.h"

// BLOCKS (R101–R111)
#include "rules/R101_element_loop.h"
#include "rules/R102_vectorize.h"
#include "rules/R103_iterate_array.h"
#include "rules/R104_host_sync.h"
#include "rules/R105_array_branch.h"
#include "rules/R106_strided_slice.h"
#include "rules/R107_object_dtype.h"
#include "rules/R108_mpi4py.h"
#include "rules/R109_order_keyword.h"
#include "rules/R110_builtins_on_arrays.h"
#include "rules/R111_cupy_in_loop.h"

#include <algorithm>

namespace cnready {

RuleRegistry::RuleRegistry() {
    // BLOCKS (R101–R111)
    m_rules.push_back(std::make_unique<R101ElementLoop>());
    m_rules.push_back(std::make_unique<R102Vectorize>());
    m_rules.push_back(std::make_unique<R103IterateArray>());
    m_rules.push_back(std::make_unique<R104HostSync>());
    m_rules.push_back(std::make_unique<R105ArrayBranch>());
    m_rules.push_back(std::make_unique<R106StridedSlice>());
    m_rules.push_back(std::make_unique<R107ObjectDtype>());
    m_rules.push_back(std::make_unique<R108Mpi4py>());
    m_rules.push_back(std::make_unique<R109OrderKeyword>());
    m_rules.push_back(std::make_unique<R110BuiltinsOnArrays>());
    m_rules.push_back(std::make_unique<R111CupyInLoop>());
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
