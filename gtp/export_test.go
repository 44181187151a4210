package gtp

// SetNoHistory makes p set the engine's board up from the known stones in
// every variant, as if the game had no history: a test compares what the
// engine answers with and without the moves that led there.
func SetNoHistory(p *EnginePlayer) { p.noHistory = true }
