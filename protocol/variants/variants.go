// Package variants registers every variant's rules over messages with
// the core (protocol.Register, ARCH-D3). The core names no variant: a
// program that replays, verifies or plays games of any variant imports
// this package for its effect, and a new variant's rules package is one
// more line here.
package variants

import (
	// Each variant's rules package registers itself in its init.
	_ "github.com/kakure/kakure/protocol/bridgerules"
	_ "github.com/kakure/kakure/protocol/fgorules"
	_ "github.com/kakure/kakure/protocol/gomokurules"
	_ "github.com/kakure/kakure/protocol/gorules"
	_ "github.com/kakure/kakure/protocol/hmgrules"
	_ "github.com/kakure/kakure/protocol/phantomrules"
)
