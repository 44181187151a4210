package engine

// Resignation returns the result of a game that loser resigned (GO-6): the
// opponent wins by resignation, written "W+R" or "B+R". Resignation is
// possible at any moment, so it needs no game state. loser must be Black
// or White.
func Resignation(loser Color) Result {
	return Result{Winner: loser.Opponent(), By: ByResignation}
}
