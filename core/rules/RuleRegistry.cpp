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
// rules2: SCALES, REFACTOR, INFO
#include "rules/R001_elementwise.h"
#include "rules/R002_reduction.h"
#include "rules/R003_matmul.h"
#include "rules/R004_where.h"
#include "rules/R005_stencil.h"
#include "rules/R006_out_param.h"
#include "rules/R007_bool_mask.h"
#include "rules/R201_alloc_in_loop.h"
#include "rules/R202_rebind_in_loop.h"
#include "rules/R203_stack_in_loop.h"
#include "rules/R204_nonzero_index.h"
#include "rules/R205_view_write.h"
#include "rules/R206_reshape_in_loop.h"
#include "rules/R301_scipy.h"
#include "rules/R302_qr_svd.h"
#include "rules/R303_fft.h"
#include "rules/R304_random.h"
#include "rules/R305_solve_threshold.h"
// end rules2

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
    // rules2: SCALES, REFACTOR, INFO
    m_rules.push_back(std::make_unique<R001Elementwise>());
    m_rules.push_back(std::make_unique<R002Reduction>());
    m_rules.push_back(std::make_unique<R003MatrixProduct>());
    m_rules.push_back(std::make_unique<R004VectorizedConditional>());
    m_rules.push_back(std::make_unique<R005Stencil>());
    m_rules.push_back(std::make_unique<R006PreallocatedOutput>());
    m_rules.push_back(std::make_unique<R007BooleanMask>());
    m_rules.push_back(std::make_unique<R201AllocationInLoop>());
    m_rules.push_back(std::make_unique<R202RebindInLoop>());
    m_rules.push_back(std::make_unique<R203StackInLoop>());
    m_rules.push_back(std::make_unique<R204NonzeroIndex>());
    m_rules.push_back(std::make_unique<R205ViewWrite>());
    m_rules.push_back(std::make_unique<R206ReshapeInLoop>());
    m_rules.push_back(std::make_unique<R301Scipy>());
    m_rules.push_back(std::make_unique<R302QrSvd>());
    m_rules.push_back(std::make_unique<R303Fft>());
    m_rules.push_back(std::make_unique<R304Random>());
    m_rules.push_back(std::make_unique<R305SolveThreshold>());
    // end rules2
    std::sort(m_rules.begin(), m_rules.end(),
              [](const auto& a, const auto& b) { return a->info().code < b->info().code; });
    for (const auto& r : m_rules)
        m_byCode.insert(r->info().code, r.get());
}

const RuleRegistry& RuleRegistry::instance() {
    static const RuleRegistry registry;
    return registry;
}

const Rule* RuleRegistry::find(const QString& code) const {
    if (const Rule* r = m_byCode.value(code))
        return r;
    for (const auto& r : m_rules) // "r104" and other spellings users type
        if (r->info().code.compare(code, Qt::CaseInsensitive) == 0)
            return r.get();
    return nullptr;
}

} // namespace cnready
