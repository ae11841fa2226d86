#pragma once
// The process-wide KSyntaxHighlighting repository (one per process, as Kate does).

namespace KSyntaxHighlighting {
class Repository;
}

namespace cnready::ui {

/// The shared repository of syntax definitions and themes. Created on first use; GUI thread only.
KSyntaxHighlighting::Repository& syntaxRepository();

} // namespace cnready::ui
