#pragma once
// The application icon, drawn in code (no SVG image plugin needed): a rounded square with a
// 2×2 grid of GPU tiles, three green and one amber, standing for "mostly ready".

#include <QIcon>

namespace cnready::ui {

/// The icon at the usual sizes (16–256 px).
QIcon appIcon();

} // namespace cnready::ui
