package watch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// GamesProtocol is the libp2p protocol on which a publishing node tells
// which of its games are live, for a lobby to list them and a spectator
// to pick one (docs/spectators.md SPEC-D14). A node that refuses
// spectators has no hub and so does not answer it.
const GamesProtocol = "/kakure/watch-games/1.0.0"

// The bounds of the listing of live games (SPEC-D14).
const (
	// MaxLiveGames caps the games a hub lists: the ones published most
	// recently.
	MaxLiveGames = 32
	// gamesFrame caps a listing on the wire.
	gamesFrame = 64 << 10
	// GamesTimeout bounds one listing stream.
	GamesTimeout = 5 * time.Second
	// GamesStreams caps the listing streams a hub serves at once; a
	// stream beyond is reset.
	GamesStreams = 8
)

// LiveGame is what a hub tells of one of its live games: only facts its
// topic already carried (SPEC-D14): the game, the variant and size of
// its signed invitation, the players by role (peer IDs and display
// names of the invitation and acceptance), how far it went, and the
// watch code its program hosts for it, if any.
type LiveGame struct {
	Game    protocol.GameID `json:"game"`
	Variant string          `json:"variant"`
	Size    int             `json:"size"`
	// Peers and Names are the players by role (inviter, invitee);
	// names are untrusted text, "" for none yet.
	Peers [2]string `json:"peers"`
	Names [2]string `json:"names"`
	// Moves counts the turns the published headers tell (SPEC-D14,
	// SPEC-D40): the moves of the broadcast delay
	// (protocol.BroadcastTurn): stones and passes, Hidden Move Go's
	// reveals, gomoku's opening piece, commitments and passes, F-Go's
	// turns (the inviter's commitment or accepted bargain), Phantom Go's
	// tries (legal or not, by their announcements); take-backs are not
	// subtracted.
	Moves int `json:"moves"`
	// Code is the watch code the publishing program hosts for the game
	// (SPEC-D13), "" for none.
	Code string `json:"code,omitempty"`

	// touched orders the games for the listing's cap.
	touched uint64
}

// liveGames is a hub's table of its live games (SPEC-D14).
type liveGames struct {
	games   map[protocol.GameID]*LiveGame
	codes   map[protocol.GameID]string
	touch   uint64
	serving int
}

// track updates the live games with a publication the hub put on its
// topic: a game becomes live with its invitation, and leaves the list
// once its record was published. The lock is the hub's liveMu.
func (l *liveGames) track(p session.Publication) {
	if p.Record != nil {
		delete(l.games, p.Game)
		delete(l.codes, p.Game)
		return
	}
	g := l.games[p.Game]
	if g == nil {
		if p.Message == nil || p.Pos != 0 || p.Message.Kind != protocol.KindInvite {
			return
		}
		var body protocol.InviteBody
		if err := json.Unmarshal(p.Message.Body, &body); err != nil {
			return
		}
		g = &LiveGame{Game: p.Game, Variant: body.Options.Variant, Size: body.Options.Size,
			Peers: [2]string{body.Inviter, body.Invitee}, Names: [2]string{cutName(body.InviterName), ""}}
		l.games[p.Game] = g
	}
	l.touch++
	g.touched = l.touch
	if p.Announcement != nil {
		g.Moves++
		return
	}
	from, kind, ok := headerOf(p)
	if !ok {
		return
	}
	if kind == protocol.KindAccept && from == protocol.Invitee && p.Message != nil {
		var body protocol.AcceptBody
		if json.Unmarshal(p.Message.Body, &body) == nil {
			g.Names[protocol.Invitee] = cutName(body.Name)
		}
	}
	if protocol.BroadcastTurn(engine.Variant(g.Variant), from, kind) {
		g.Moves++
	}
}

// headerOf returns who sent a message or header publication, and its
// kind.
func headerOf(p session.Publication) (protocol.Role, protocol.Kind, bool) {
	switch {
	case p.Message != nil:
		return p.Message.From, p.Message.Kind, true
	case p.Withheld != nil:
		return p.Withheld.From, p.Withheld.Kind, true
	}
	return 0, "", false
}

// cutName keeps a display name within protocol.MaxNameLength bytes of
// UTF-8.
func cutName(s string) string {
	if !utf8.ValidString(s) {
		return ""
	}
	for len(s) > protocol.MaxNameLength {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return s
}

// list returns the live games, the most recently published first, at
// most MaxLiveGames.
func (l *liveGames) list() []LiveGame {
	out := make([]LiveGame, 0, len(l.games))
	for _, g := range l.games {
		c := *g
		c.Code = l.codes[g.Game]
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].touched > out[j].touched })
	if len(out) > MaxLiveGames {
		out = out[:MaxLiveGames]
	}
	return out
}

// LiveGames returns this hub's own live games (SPEC-D14), the most
// recently published first.
func (hub *Hub) LiveGames() []LiveGame {
	hub.liveMu.Lock()
	defer hub.liveMu.Unlock()
	return hub.live.list()
}

// SetCode records the watch code this program hosts for its game
// (SPEC-D13), which the listing tells; "" withdraws it.
func (hub *Hub) SetCode(game protocol.GameID, code string) {
	hub.liveMu.Lock()
	defer hub.liveMu.Unlock()
	if code == "" {
		delete(hub.live.codes, game)
		return
	}
	hub.live.codes[game] = code
}

// serveGames answers one listing stream with this hub's live games.
func (hub *Hub) serveGames(st network.Stream) {
	defer st.Close()
	hub.liveMu.Lock()
	if hub.live.serving >= GamesStreams {
		hub.liveMu.Unlock()
		_ = st.Reset()
		return
	}
	hub.live.serving++
	games := hub.live.list()
	hub.liveMu.Unlock()
	defer func() {
		hub.liveMu.Lock()
		hub.live.serving--
		hub.liveMu.Unlock()
	}()
	_ = st.SetDeadline(time.Now().Add(GamesTimeout))
	w := bufio.NewWriter(st)
	if err := writeFrameJSON(w, games, gamesFrame); err != nil {
		_ = st.Reset()
		return
	}
	if err := w.Flush(); err != nil {
		_ = st.Reset()
	}
}

// AskLiveGames asks publisher which of its games are live (SPEC-D14).
// The answer is the publisher's word: a spectator checks the game it
// then watches as any other (SPEC-3). A peer that refuses spectators
// does not answer (an error).
func (hub *Hub) AskLiveGames(ctx context.Context, publisher peer.ID) ([]LiveGame, error) {
	ctx, cancel := context.WithTimeout(ctx, GamesTimeout)
	defer cancel()
	st, err := hub.host.NewStream(ctx, publisher, GamesProtocol)
	if err != nil {
		return nil, fmt.Errorf("watch: the live games of %s: %w", publisher, err)
	}
	defer st.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(d)
	}
	_ = st.CloseWrite()
	data, err := protocol.ReadFrame(bufio.NewReader(st), gamesFrame)
	if err != nil {
		return nil, fmt.Errorf("watch: the live games of %s: %w", publisher, err)
	}
	var games []LiveGame
	if err := json.Unmarshal(data, &games); err != nil {
		return nil, fmt.Errorf("watch: the live games of %s: %w", publisher, err)
	}
	if len(games) > MaxLiveGames {
		return nil, fmt.Errorf("watch: the live games of %s: %d listed (at most %d)", publisher, len(games), MaxLiveGames)
	}
	for i := range games {
		games[i].Names[0], games[i].Names[1] = cutName(games[i].Names[0]), cutName(games[i].Names[1])
	}
	return games, nil
}
