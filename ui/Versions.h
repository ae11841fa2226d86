#pragma once
// Versions and paths the studio reports (About box, --version) and the bundled example project.

#include <QString>

namespace cnready::ui {

/// "Qt 6.4.2 (built with 6.4.2)".
QString qtVersionText();
/// "5.116.0" — the KSyntaxHighlighting the studio was built with.
QString syntaxHighlightingVersion();
/// "0.20.7 (language ABI 13–14)" — the tree-sitter runtime, and "0.23.6" for the grammar.
QString treeSitterVersion();
QString treeSitterPythonVersion();

/// The bundled example project (assets/examples): next to the installed binary
/// (../share/cnready/examples), or in the source tree the binary was built from.
/// Empty when neither exists. CNREADY_EXAMPLES_DIR in the environment overrides both.
QString bundledExamplesDir();

} // namespace cnready::ui
