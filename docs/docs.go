// Package docs holds kakure's documents: the specification in docs/spec
// (rules.md, trust.md, architecture.md, phantom-2pc.md), the manuals and
// the decisions beside it. Its one job in code is to give the programs the
// texts they show to players, so that the rules the program shows are the
// rules of the specification; its tests keep the documents honest (every
// rule id tested, no pointer outside the repository, the imports that
// docs/spec/architecture.md draws the ones `go list` sees).
package docs

import _ "embed"

// RulesMarkdown is docs/spec/rules.md, the rules contract, as written.
//
//go:embed spec/rules.md
var RulesMarkdown string
