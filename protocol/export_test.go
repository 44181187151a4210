package protocol

// What the external tests of this package (package protocol_test, which
// import protocol/variants so that every variant is registered) read of
// its unexported registries.
var (
	KindTable          = kindTable
	TurnCounts         = turnCounts
	NewVariantRules    = newVariantRules
	BroadcastMoveKinds = broadcastMoveKinds
	ReadRecordFile     = readRecordFile
	ParsedSources      = parsedSources
)

// Undoer is undoer, for the external tests.
type Undoer = undoer
