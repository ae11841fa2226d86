#pragma once
// The ordered verdict list (PRODUCT.md, "Gates and verdict") as text a reader can check:
// `cnready explain verdict` prints it, the report's "Decided by rule N" points to it, and the
// studio's verdict panel shows it with what would change the outcome of the deciding rule.

#include "assess/Assessment.h"

#include <QList>
#include <QString>

namespace cnready {

/// One rule of the verdict list.
struct VerdictRule {
    int number = 0; ///< 1..9, the order in which the rules are tried
    QString when;   ///< the condition, e.g. "Gate 1 (hardware) fails"
    QString then;   ///< the outcome, e.g. "NOT RECOMMENDED" or "demote one tier"
    QString why;    ///< one sentence on what an expert weighs here, in our words
};

/// The nine rules in order: rules 1–8 are tried top down and the first that matches decides;
/// rule 9 then adjusts the outcome.
const QList<VerdictRule>& verdictRules();

/// The list as `cnready explain verdict` prints it: a heading line, then "1. …" to "9. …",
/// each with its reason on the next line.
QString verdictListText();

/// What would change the outcome for the deciding rule of `a` (one or two sentences in plain
/// text, inline code in backticks): the condition to meet or remove and the verdict it would
/// give, e.g. "With at most two BLOCKS sites on hot paths and fewer than three kinds, rule 6
/// would decide: LIGHT REFACTOR."
QString whatWouldChange(const Assessment& a);

} // namespace cnready
