package watch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// BacklogProtocol is the libp2p protocol on which a publishing node
// answers a spectator that joined late with the publications it already
// made of one game (docs/spectators.md SPEC-D8).
const BacklogProtocol = "/kakure/watch-backlog/1.0.0"

// The bounds of the backlog (SPEC-D8, SPEC-D9, docs/limits.md LIM-D12).
const (
	// historyGameBytes caps the publications a hub keeps of one game;
	// the later ones are not kept (the backlog says so).
	historyGameBytes = 16 << 20
	// historyBytes caps the publications a hub keeps of all its games;
	// beyond, the game whose history grew least recently is forgotten.
	historyBytes = 64 << 20
	// backlogReplyCount and backlogReplyBytes cap one reply: a spectator
	// asks again for the rest.
	backlogReplyCount = 256
	backlogReplyBytes = 1 << 20
	// backlogFrame caps one frame of the protocol (a publication of a
	// record part is the largest: 256 KiB in base64, in JSON).
	backlogFrame = 512 << 10
	// BacklogPerPeer and BacklogStreams cap the backlog streams a hub
	// serves at once, of one peer and in total; a stream beyond is
	// answered with the reason and closed.
	BacklogPerPeer = 2
	BacklogStreams = 16
	// BacklogTimeout is how long a backlog stream may take, request and
	// reply.
	BacklogTimeout = 10 * time.Second
	// backlogPages caps the replies a spectator asks for one backlog.
	backlogPages = 64
	// backlogHead caps a request and a reply's head.
	backlogHead = 4 << 10
)

// backlogRequest asks a publisher for the publications of Game it
// already made: every message or header at position From or after, and
// every announcement and record part, in the order they were published,
// after the first Skip of these (those of earlier replies).
type backlogRequest struct {
	Game protocol.GameID `json:"game"`
	From uint64          `json:"from"`
	Skip int             `json:"skip"`
}

// backlogReply heads a reply: Count publications follow, each in a
// frame of its own; More says that further ones are kept; Truncated that
// the publisher kept no more of the game (its history was full);
// Refused, when set, is why the request is not answered (no publication
// follows).
type backlogReply struct {
	Count     int    `json:"count"`
	More      bool   `json:"more,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	Refused   string `json:"refused,omitempty"`
}

// errBacklogRefused is wrapped by the error of a backlog request the
// publisher refused, with its reason.
var errBacklogRefused = errors.New("watch: backlog refused")

// history is what a hub published of one game, in order (SPEC-D8).
type history struct {
	game  protocol.GameID
	items []historyItem
	bytes int
	// truncated: a publication was not kept, the game's history being
	// full.
	truncated bool
	// touched orders the games for forgetting.
	touched uint64
}

// historyItem is one publication as it went on the topic.
type historyItem struct {
	positioned bool
	pos        uint64
	data       []byte
}

// keep adds a publication the hub published on its topic to its game's
// history (SPEC-D8).
func (hub *Hub) keep(p session.Publication, data []byte) {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	h := hub.history[p.Game]
	if h == nil {
		h = &history{game: p.Game}
		hub.history[p.Game] = h
	}
	if h.truncated || h.bytes+len(data) > historyGameBytes {
		h.truncated = true
		return
	}
	hub.touch++
	h.touched = hub.touch
	h.items = append(h.items, historyItem{positioned: p.Message != nil || p.Withheld != nil, pos: p.Pos, data: data})
	h.bytes += len(data)
	hub.histBytes += len(data)
	for hub.histBytes > historyBytes {
		var oldest *history
		for _, o := range hub.history {
			if o != h && (oldest == nil || o.touched < oldest.touched) {
				oldest = o
			}
		}
		if oldest == nil {
			break
		}
		hub.histBytes -= oldest.bytes
		delete(hub.history, oldest.game)
	}
}

// backlog returns the reply to r from the history.
func (hub *Hub) backlog(r backlogRequest) (backlogReply, [][]byte) {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	h := hub.history[r.Game]
	if h == nil {
		return backlogReply{Refused: fmt.Sprintf("no publication of game %s is kept", r.Game)}, nil
	}
	var out [][]byte
	reply := backlogReply{Truncated: h.truncated}
	skip, size := r.Skip, 0
	for _, it := range h.items {
		if it.positioned && it.pos < r.From {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		if len(out) == backlogReplyCount || (len(out) > 0 && size+len(it.data) > backlogReplyBytes) {
			reply.More = true
			break
		}
		out = append(out, it.data)
		size += len(it.data)
	}
	reply.Count = len(out)
	return reply, out
}

// admitBacklog takes a place for a backlog stream of p, or returns why
// there is none (SPEC-D9, LIM-D12).
func (hub *Hub) admitBacklog(p peer.ID) string {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	switch {
	case hub.serving[p] >= BacklogPerPeer:
		hub.refusedBacklog++
		return fmt.Sprintf("busy: %d backlog requests of this peer are being answered (at most %d at once)", hub.serving[p], BacklogPerPeer)
	case hub.servingAll >= BacklogStreams:
		hub.refusedBacklog++
		return fmt.Sprintf("busy: %d backlog requests are being answered (at most %d at once)", hub.servingAll, BacklogStreams)
	}
	hub.serving[p]++
	hub.servingAll++
	return ""
}

// releaseBacklog gives back p's place.
func (hub *Hub) releaseBacklog(p peer.ID) {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	hub.servingAll--
	if hub.serving[p]--; hub.serving[p] == 0 {
		delete(hub.serving, p)
	}
}

// RefusedBacklogs returns how many backlog streams the hub refused for
// being beyond its caps.
func (hub *Hub) RefusedBacklogs() int64 {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	return hub.refusedBacklog
}

// serveBacklog answers one backlog stream (SPEC-D8).
func (hub *Hub) serveBacklog(st network.Stream) {
	hub.answerBacklog(st, func(r backlogRequest) (backlogReply, [][]byte, int) {
		reply, items := hub.backlog(r)
		return reply, items, backlogFrame
	})
}

// answerBacklog answers one backlog stream with what reply gives for its
// request: the reply's head, its publications and the frame cap they are
// written within. A stream beyond the hub's caps (SPEC-D9) is refused
// before its request is read.
func (hub *Hub) answerBacklog(st network.Stream, reply func(backlogRequest) (backlogReply, [][]byte, int)) {
	defer st.Close()
	_ = st.SetDeadline(time.Now().Add(BacklogTimeout))
	from := st.Conn().RemotePeer()
	w := bufio.NewWriter(st)
	if why := hub.admitBacklog(from); why != "" {
		if writeFrameJSON(w, backlogReply{Refused: why}, backlogHead) == nil {
			_ = w.Flush()
		}
		return
	}
	defer hub.releaseBacklog(from)
	var r backlogRequest
	if err := readFrameJSON(bufio.NewReader(st), &r); err != nil {
		_ = st.Reset()
		return
	}
	head, items, limit := reply(r)
	if err := writeFrameJSON(w, head, backlogHead); err != nil {
		_ = st.Reset()
		return
	}
	for _, data := range items {
		if err := protocol.WriteFrameWithin(w, data, limit); err != nil {
			_ = st.Reset()
			return
		}
	}
	if err := w.Flush(); err != nil {
		_ = st.Reset()
	}
}

// Backlog asks publisher for the publications of game from position from
// that it already made (SPEC-D8), up to the end of what it kept: each as
// it went on the topic, to be taken by a Spectator like a live one. It
// returns what came before an error, and the error; truncated tells that
// the publisher kept no more of the game.
func (hub *Hub) Backlog(ctx context.Context, publisher peer.ID, game protocol.GameID, from uint64) (pubs [][]byte, truncated bool, err error) {
	for range backlogPages {
		reply, items, err := hub.backlogPage(ctx, publisher, backlogRequest{Game: game, From: from, Skip: len(pubs)})
		pubs = append(pubs, items...)
		if err != nil {
			return pubs, false, err
		}
		if !reply.More {
			return pubs, reply.Truncated, nil
		}
	}
	return pubs, false, fmt.Errorf("watch: backlog of %s: more than %d replies", publisher, backlogPages)
}

// backlogPage asks for one reply.
func (hub *Hub) backlogPage(ctx context.Context, publisher peer.ID, r backlogRequest) (backlogReply, [][]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, BacklogTimeout)
	defer cancel()
	st, err := hub.host.NewStream(ctx, publisher, BacklogProtocol)
	if err != nil {
		return backlogReply{}, nil, fmt.Errorf("watch: backlog of %s: %w", publisher, err)
	}
	defer st.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(d)
	}
	w := bufio.NewWriter(st)
	// A refusal comes before the request is read: the reply is read
	// even when the request could not be written.
	if err := writeFrameJSON(w, r, backlogHead); err == nil {
		_ = w.Flush()
	}
	_ = st.CloseWrite()
	rd := bufio.NewReader(st)
	var reply backlogReply
	if err := readFrameJSON(rd, &reply); err != nil {
		return reply, nil, fmt.Errorf("watch: backlog of %s: the reply: %w", publisher, err)
	}
	if reply.Refused != "" {
		return reply, nil, fmt.Errorf("%w by %s: %s", errBacklogRefused, publisher, reply.Refused)
	}
	if reply.Count < 0 || reply.Count > backlogReplyCount {
		return reply, nil, fmt.Errorf("watch: backlog of %s: a reply of %d publications (at most %d)", publisher, reply.Count, backlogReplyCount)
	}
	var items [][]byte
	size := 0
	for range reply.Count {
		data, err := protocol.ReadFrame(rd, backlogFrame)
		if err != nil {
			return reply, items, fmt.Errorf("watch: backlog of %s: publication %d: %w", publisher, r.Skip+len(items), err)
		}
		if size += len(data); size > backlogReplyBytes && len(items) > 0 {
			return reply, items, fmt.Errorf("watch: backlog of %s: a reply over %d bytes", publisher, backlogReplyBytes)
		}
		items = append(items, data)
	}
	return reply, items, nil
}

// writeFrameJSON writes v in JSON in a frame of at most limit bytes.
func writeFrameJSON(w *bufio.Writer, v any, limit int) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return protocol.WriteFrameWithin(w, data, limit)
}

// readFrameJSON reads a request or a reply's head, of at most
// backlogHead bytes.
func readFrameJSON(r *bufio.Reader, v any) error {
	data, err := protocol.ReadFrame(r, backlogHead)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
