#include "SyntaxRepository.h"

#include <KSyntaxHighlighting/Repository>

namespace cnready::ui {

KSyntaxHighlighting::Repository& syntaxRepository() {
    static KSyntaxHighlighting::Repository repository;
    return repository;
}

} // namespace cnready::ui
