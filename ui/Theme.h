#pragma once
// Colours the studio uses for categories, gate states and verdicts, in a light and a dark
// variant chosen from the palette (a dark window colour means a dark theme, as Kate does).

#include "assess/Assessment.h"
#include "model/Finding.h"

#include <QColor>
#include <QIcon>
#include <QPalette>

namespace cnready::ui {

/// True when the palette's window colour is dark (lightness below half).
bool isDarkPalette(const QPalette& palette);

/// Text/marker colour of a finding category, readable on the palette's base colour.
QColor categoryColor(Category c, const QPalette& palette);
/// Translucent line background for a finding category (drawn under the source text).
QColor categoryBackground(Category c, const QPalette& palette);
/// A small filled circle in the category colour (tree, table, gutter legend).
QIcon categoryIcon(Category c, const QPalette& palette);
/// The "confirmed at run time" mark (a check in the SCALES green) beside a finding's code.
QIcon confirmedIcon(const QPalette& palette);

/// Severity order for "worst category": BLOCKS > REFACTOR > INFO > SCALES.
int categorySeverity(Category c);

QColor gateStatusColor(GateStatus s, const QPalette& palette);
QColor verdictColor(Verdict v, const QPalette& palette);
/// A colour that is readable on top of `background` (black or white).
QColor textColorOn(const QColor& background);

} // namespace cnready::ui
