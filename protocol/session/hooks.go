package session

import (
	"github.com/kakure/kakure/protocol"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// testHooks are the points where tests change or break a game's own code.
// Only the export_*_test.go files set them; in every other Config they
// are nil and the game runs as if they did not exist. They are unexported
// fields of an unexported type, so no program outside this package can
// set them, and each belongs to one service's Config: a test's cheater
// carries them, its honest peer does not. Config embeds them, so that it
// carries one field for them while the game's code reads them as before
// (g.svc.cfg.tamper). They stay in the production code because each sits
// in its path (a message built, sent, applied; a goroutine's step), where
// Go has no way to reach from a _test.go file.
//
// The other test-only points of the package are the same kind: the
// queue's and the storage's hooks (set from hook), Game.apply's cheat
// (from rewrite), and phantomCheat, an interface that only the actions of
// export_phantom_test.go implement. A variant's player takes no hook of
// its own: a cheating gomoku program goes through rewrite, which gets the
// game and so the player's role and view (export_gomoku_test.go's
// GomokuCheats, ARCH-D5). ARCH-D5 says why each of the rest stays.
type testHooks struct {
	// hook, for tests only, is called at the points of a game's code
	// named by where, with the kind of the message at hand where there is
	// one: where tests inject a panic (SetPanicHook), and the steps of
	// this peer's messages as they happen (made, applied, saved, written;
	// read, applied, taken), for the breakdown of a try's time (issue 38;
	// SetStampHook). Nil, it costs one comparison a point.
	hook func(g *Game, where string, kind protocol.Kind)
	// tamper, for tests only, changes outgoing messages (see export_test).
	tamper func(m *protocol.Message, key crypto.PrivKey) [][]byte
	// rewrite, for tests only, changes this peer's own messages before
	// they are signed and recorded (see export_test); when it says cheat,
	// the message goes out even if this peer's own machine refuses it.
	rewrite func(g *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool)
	// ack, for tests only, changes the acknowledgement this peer's own
	// message of kind carries (a stale one, never beyond what it has);
	// the message is signed and recorded with it.
	ack func(g *Game, kind protocol.Kind, ack int64) int64
	// handshakePools, for tests only, are the sizes of the pools of
	// handshake slots for every peer and for known peers (LIM-D11); zero
	// means maxHandshakes and maxKnownHandshakes.
	handshakePools [2]int
}

// announcingPlayer is a variant's player told announcements that no
// message carries (Phantom Go's referee): it passes each on to announce,
// for spectators (SPEC-2).
type announcingPlayer interface {
	announceTo(announce func(try uint64, a phantom.Announcement))
}

// newPlayer returns the local player, of role me, of the game g with
// options o: the variant's, with its announcements published when g
// publishes.
func (s *Service) newPlayer(g *Game, o engine.Options, me protocol.Role) variantPlayer {
	p := newVariantPlayer[o.Variant](g.id, o, me)
	if a, ok := p.(announcingPlayer); ok && g.pub != nil {
		a.announceTo(g.publishAnnouncement)
	}
	return p
}
