package bot

import (
	"fmt"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// variantBot is how the players play one variant from its view: level
// with the built-in bot of the [Bots]' level, random with the [Random]
// player. Each reports false for a view that is not the variant's.
type variantBot struct {
	level  func(b *Bots, v protocol.View) (protocol.Action, bool)
	random func(r *Random, v protocol.View) (protocol.Action, bool)
}

// viewBot makes the variantBot of a variant whose protocol view is a V.
func viewBot[V any](level func(b *Bots, v protocol.View, vv V) protocol.Action, random func(r *Random, v protocol.View, vv V) protocol.Action) variantBot {
	return variantBot{
		level: func(b *Bots, v protocol.View) (protocol.Action, bool) {
			vv, ok := v.Variant.(V)
			if !ok {
				return nil, false
			}
			return level(b, v, vv), true
		},
		random: func(r *Random, v protocol.View) (protocol.Action, bool) {
			vv, ok := v.Variant.(V)
			if !ok {
				return nil, false
			}
			return random(r, v, vv), true
		},
	}
}

// variantBots holds every variant's bot (TestEveryVariantHasABot checks
// that none is missing).
var variantBots = map[engine.Variant]variantBot{
	engine.VariantGo:     viewBot((*Bots).chooseGo, (*Random).chooseGo),
	engine.VariantFGo:    viewBot((*Bots).chooseFGo, (*Random).chooseFGo),
	engine.VariantBridge: viewBot((*Bots).chooseBridge, (*Random).chooseBridge),
	engine.VariantHMG:    viewBot((*Bots).chooseHMG, (*Random).chooseHMG),
	engine.VariantGomoku: viewBot(
		func(b *Bots, _ protocol.View, vv gomokurules.View) protocol.Action { return b.chooseGomoku(vv) },
		func(r *Random, _ protocol.View, vv gomokurules.View) protocol.Action { return r.gomoku(vv.Game) }),
	engine.VariantPhantom: viewBot((*Bots).choosePhantom, (*Random).choosePhantom),
}

// Plays reports whether the bots play variant v (variantBots): kakure
// match asks before it starts a game, which a bot would otherwise stop
// with a panic at its first move (VAR-D3, VAR-D8).
func Plays(v engine.Variant) bool {
	_, ok := variantBots[v]
	return ok
}

// botFor returns the bot of v's variant; ok is false while v shows no
// variant view yet (before the colours are known). It panics, naming the
// variant, for a variant that has no bot: a new variant must add one.
func botFor(v protocol.View) (vb variantBot, ok bool) {
	if v.Variant == nil {
		return variantBot{}, false
	}
	vb, ok = variantBots[v.Options.Variant]
	if !ok {
		panic(fmt.Sprintf("bot: variant %q has no bot", v.Options.Variant))
	}
	return vb, true
}
