// Package ui is kakure's terminal user interface, built on tview: the
// lobby, the board and the panels of each variant.
package ui
