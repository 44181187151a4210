package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// GameConn is a running game as the game screen uses it: the screen reads
// its events and views and asks it to act. *session.Game implements it;
// tests give a fake.
type GameConn interface {
	ID() protocol.GameID
	Peer() peer.ID
	View() protocol.View
	Do(a protocol.Action) error
	Events() <-chan protocol.Event
	Transcript() *protocol.Transcript
	// Close stops the game; one not over stays saved to be resumed.
	Close()
}

// ResumedConn is a GameConn resumed from its saved record: its events
// tell only what came after the Loaded first messages of the record, which
// the game screen writes into its log itself (GameScreen.Prefill). Without
// it the screen would write again the messages that arrived while it
// opened: their events come too (UI-D42).
type ResumedConn interface {
	GameConn
	// Loaded is how many messages the record held when it was loaded.
	Loaded() int
}

// GameModel is the state of one game screen, kept out of the widgets: the
// latest view of the game, the log of what happened, and what the player
// prepared but has not sent (LocalState). Game events (Apply) and the
// player's commands change it; the screen only draws it. It is used from
// the application's goroutine only.
type GameModel struct {
	// View is the latest view of the game.
	View protocol.View
	// Opponent is the opponent's peer ID.
	Opponent string
	// petnames is the player's petname book (UI-D33) the labels of peers
	// take; nil outside an App.
	petnames *petnameBook
	// Log holds what happened, oldest first, in the variant's words.
	Log []string
	// Local is what the player prepared and has not sent.
	Local LocalState
	// Last is the last stone placed as the events told it (NoPoint for
	// none), for variants whose view does not keep it.
	Last engine.Point
	// Effect lists points the last event changed (captured stones,
	// stones that came back), highlighted until the next move.
	Effect []engine.Point
	// Message is an error or notice for the player, shown until the next
	// key.
	Message string
	// Adjourned is true while the connection to the opponent is down.
	Adjourned bool
	// proposal is the last marking of dead stones proposed in the count,
	// until play resumes: the game ending by score then means the other
	// player accepted it.
	proposal *protocol.EventScoring
	// Conn is the connection to the opponent last measured; nil when not
	// shown (a game against the built-in bot).
	Conn *ConnState
	// played are the moves of the game as the events told them, oldest
	// first, for the words of an undo (plain Go, Bridge Go): an undo
	// takes them back. movedLast is the colour whose move the last event
	// was (Empty after any other event): a request lapsing right after
	// it lapsed under that move.
	played    []playedMove
	movedLast engine.Color
}

// playedMove is one move of the game as the events told it.
type playedMove struct {
	color engine.Color
	point engine.Point
}

// LocalState is what the player prepared on the board and has not sent:
// a marking of dead stones, an F-Go choice, Hidden Move Go cards. It is
// forgotten once sent, and when the game moves on without it.
type LocalState struct {
	// Marking is true while the player edits a marking of dead stones;
	// Dead holds it (every stone of each chain).
	Marking bool
	Dead    []engine.Point
	// Resuming is true once the player chose to resume play during the
	// scoring: the next point is played rather than marked.
	Resuming bool
	// HasChoice is true once the player chose Choice (F-Go, a point or
	// Pass); Confirmed once the player confirmed it: it goes as soon as
	// the protocol lets it.
	HasChoice bool
	Choice    engine.Point
	Confirmed bool
	// Cards are the hidden-move points chosen so far (Hidden Move Go).
	Cards []engine.Point
	// Reveal are the hidden pieces chosen to reveal in answer to an
	// announced line (gomoku).
	Reveal []engine.Point
	// Sending is true while an action the model asked for is on its way.
	Sending bool
}

// NewGameModel returns the model of a game against opponent, with its
// first view.
func NewGameModel(v protocol.View, opponent string) *GameModel {
	return &GameModel{View: v, Opponent: opponent, Last: engine.NoPoint, Adjourned: v.Adjourned}
}

// Me returns the local player's colour (Empty before the coin toss).
func (m *GameModel) Me() engine.Color { return m.View.Color }

// Size returns the board side.
func (m *GameModel) Size() int { return m.View.Options.Size }

// Over reports whether the game is decided.
func (m *GameModel) Over() bool { return m.View.Outcome != nil }

// May reports whether the local player may send a message of kind k now.
func (m *GameModel) May(k protocol.Kind) bool {
	return m.View.MyTurn && slices.Contains(m.View.Kinds, k)
}

// Vertex writes p for the game's board ("pass" for Pass).
func (m *GameModel) Vertex(p engine.Point) string { return p.Vertex(m.Size()) }

// Vertices writes points separated by spaces.
func (m *GameModel) Vertices(ps []engine.Point) string {
	vs := make([]string, len(ps))
	for i, p := range ps {
		vs[i] = m.Vertex(p)
	}
	return strings.Join(vs, " ")
}

// Name returns the name of the player of colour c: "Black" or "White".
func Name(c engine.Color) string {
	switch c {
	case engine.Black:
		return "Black"
	case engine.White:
		return "White"
	}
	return "nobody"
}

// ColorName returns the name of the player of colour c in variant v: X
// and O in gomoku (X is gomoku.X, Black), else Black and White.
func ColorName(v engine.Variant, c engine.Color) string {
	d, err := engine.LookupDescriptor(v)
	if err != nil {
		return Name(c) + " (" + err.Error() + ")"
	}
	return d.ColorName(c)
}

// Name returns the name of the player of colour c in the model's game.
func (m *GameModel) Name(c engine.Color) string { return ColorName(m.View.Options.Variant, c) }

// Glyph returns how the board draws a piece of colour c in the model's
// game.
func (m *GameModel) Glyph(c engine.Color) string {
	if !m.View.Options.Variant.Descriptor().Stones {
		return m.Name(c)
	}
	return stoneGlyph(c)
}

// RoleColor returns the colour of role r (Empty before the coin toss).
func (m *GameModel) RoleColor(r protocol.Role) engine.Color {
	if r == m.View.Role {
		return m.View.Color
	}
	return m.View.Color.Opponent()
}

// RoleName returns the name of role r's colour, or "you" and "the
// opponent" before the coin toss.
func (m *GameModel) RoleName(r protocol.Role) string {
	if c := m.RoleColor(r); c != engine.Empty {
		return m.Name(c)
	}
	if r == m.View.Role {
		return "you"
	}
	return "the opponent"
}

// ShortPeer shortens a peer ID for the screen: its first 6 and last 4
// characters.
func ShortPeer(id string) string {
	if len(id) <= 12 {
		return id
	}
	return id[:6] + "…" + id[len(id)-4:]
}

// MaxNameRunes is how much of a display name the screens show.
const MaxNameRunes = 20

// PeerLabel writes a peer as the screens show it (UI-D30): its display
// name, made safe, then its short peer ID in brackets, or only the short
// peer ID when it gave no name. A name is untrusted text from the other
// peer: control and format characters (bidirectional overrides among
// them) are dropped, tview's markup brackets become parentheses, white
// space is folded, and it is cut to MaxNameRunes; the peer ID always
// stands beside it, so a name cannot pass for another peer.
//
// A peer the player gave a petname (UI-D33) shows as that name, marked
// with PetnameMark, instead of its short peer ID: "@Bob", or with the
// peer's own name, when it differs, beside it: "@Bob (Robert)".
func (b Petnames) PeerLabel(name, id string) string {
	name = SafeName(name)
	if pet := b.Petname(id); pet != "" {
		if name == "" || name == pet {
			return PetnameMark + pet
		}
		return PetnameMark + pet + " (" + name + ")"
	}
	if name == "" {
		return ShortPeer(id)
	}
	return name + " (" + ShortPeer(id) + ")"
}

// SafeName returns the part of an untrusted display name the screens
// show (see PeerLabel).
func SafeName(name string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			continue
		}
		if b.Len() == 0 && (string(r) == PetnameMark || r == '＠' || r == '﹫') {
			// No display name may look like a petname (UI-D33).
			continue
		}
		if n == MaxNameRunes {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		switch r {
		case '[':
			r = '('
		case ']':
			r = ')'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// nameLine is the panel's line naming the opponent when it gave a name
// (the panels whose columns hold only the short peer ID).
func (m *GameModel) nameLine() []string {
	if SafeName(m.View.Names[m.View.Role.Other()]) == "" {
		return nil
	}
	return []string{"vs " + m.OpponentLabel()}
}

// OpponentLabel writes the opponent as PeerLabel does, with the name the
// game's invitation or acceptance gave.
func (m *GameModel) OpponentLabel() string {
	return m.petnames.get().PeerLabel(m.View.Names[m.View.Role.Other()], m.Opponent)
}

// eventNote is what a variant says of an event: the log lines, whether it
// starts a new position of the replay (frame), and the last stone and
// points to highlight it leaves.
type eventNote struct {
	lines   []string
	frame   bool
	hasLast bool
	last    engine.Point
	effect  []engine.Point
	// index goes into the replay's Frame.
	index int
	// try marks a position that is no move of the game: an illegal try
	// of Phantom Go, after which the same player tries again. The replay
	// steps over such positions move by move.
	try bool
	// undone is how many moves the position took back (an undo).
	undone int
	// opened goes into the replay's Frame.Opened.
	opened [3]bool
}

// upperFirst writes s with its first letter a capital.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Apply takes an event of the game and the view that follows it.
func (m *GameModel) Apply(vs variantScreen, e protocol.Event, v protocol.View) {
	m.View = v
	note := m.note(vs, e)
	m.Log = append(m.Log, note.lines...)
	if _, ok := e.(protocol.EventAdjourned); !ok {
		m.Adjourned = v.Adjourned
	}
	if note.frame {
		m.Effect = note.effect
		if note.hasLast {
			m.Last = note.last
		}
	}
	m.forgetStale(e)
}

// note returns what event e says (the events every variant shares, then
// vs's), and keeps the moves played for the words of an undo.
func (m *GameModel) note(vs variantScreen, e protocol.Event) eventNote {
	note, ok := m.describeCommon(e)
	if !ok && vs != nil {
		note = vs.describe(m, e)
	}
	if len(note.lines) > 0 || note.frame {
		m.movedLast = engine.Empty // the clock's ticks leave it
	}
	switch e := e.(type) {
	case protocol.EventMoved:
		m.played = append(m.played, playedMove{color: e.Color, point: e.Point})
		m.movedLast = e.Color
	case bridgerules.EventMoved:
		m.played = append(m.played, playedMove{color: e.Color, point: e.Point})
		m.movedLast = e.Color
	case protocol.EventUndone:
		m.played = m.played[:max(len(m.played)-max(e.Moves, 1), 0)]
	}
	return note
}

// movesWords writes moves of the game from number move on (count of
// them) with the points the events told: "move 15 (E3)", "moves 15 and 16
// (Black E3, White F6)".
func (m *GameModel) movesWords(move, count int) string {
	at := func(i int) (playedMove, bool) {
		if i < 1 || i > len(m.played) {
			return playedMove{}, false
		}
		return m.played[i-1], true
	}
	if count < 2 {
		if mv, ok := at(move); ok {
			return fmt.Sprintf("move %d (%s %s)", move, m.Name(mv.color), m.Vertex(mv.point))
		}
		return fmt.Sprintf("move %d", move)
	}
	first, ok1 := at(move)
	second, ok2 := at(move + 1)
	if ok1 && ok2 {
		return fmt.Sprintf("moves %d and %d (%s %s, %s %s)", move, move+1,
			m.Name(first.color), m.Vertex(first.point), m.Name(second.color), m.Vertex(second.point))
	}
	return fmt.Sprintf("moves %d and %d", move, move+1)
}

// forgetStale forgets local preparations the event made pointless.
func (m *GameModel) forgetStale(e protocol.Event) {
	switch e.(type) {
	case protocol.EventScoring, protocol.EventResumed:
		m.Local.Marking, m.Local.Dead, m.Local.Resuming = false, nil, false
	case protocol.EventPhase:
		m.Local.Marking, m.Local.Dead, m.Local.Resuming = false, nil, false
	case fgorules.EventTurn:
		m.Local = LocalState{}
	case protocol.EventEnded:
		m.Local = LocalState{}
	}
}

// ActionDone takes the answer to an action the screen sent and the view
// that follows it.
func (m *GameModel) ActionDone(a protocol.Action, err error, v protocol.View) {
	m.View = v
	m.Local.Sending = false
	if err != nil {
		m.Message = friendlyError(err)
		return
	}
	if _, chat := a.(protocol.Chat); !chat {
		m.Local = LocalState{}
	}
}

// friendlyError writes an error of the protocol or the engine for the
// player: without the package prefixes.
func friendlyError(err error) string {
	s := err.Error()
	for _, prefix := range []string{"protocol: ", "engine: ", "node: ", "rendezvous: "} {
		s = strings.ReplaceAll(s, prefix, "")
	}
	return s
}

// describeCommon describes the events every variant shares.
func (m *GameModel) describeCommon(e protocol.Event) (eventNote, bool) {
	switch e := e.(type) {
	case protocol.EventInvited:
		return eventNote{lines: []string{"Invitation: " + DescribeOptions(e.Options)}}, true
	case protocol.EventDeclined:
		return eventNote{lines: []string{"The invitation was declined: " + e.Reason}}, true
	case protocol.EventPhase:
		if m.Adjourned && !m.View.Adjourned && m.View.Outcome == nil {
			// The connection is back (the game's resumption is told as
			// a phase event): say so, as its loss was said (UI-D42).
			m.Adjourned = false
			return eventNote{lines: []string{"The opponent is back: the game goes on."}}, true
		}
		switch e.Phase {
		case protocol.PhaseToss:
			if m.View.Options.Variant.Descriptor().Colors == engine.ColorsByPie {
				return eventNote{}, true // the invited player chooses the side (GM-2)
			}
			return eventNote{lines: []string{tossLine(m.View.Options)}}, true
		case protocol.PhasePlay:
			m.Adjourned = false
			return eventNote{}, true
		}
		m.Adjourned = false
		return eventNote{}, true
	case protocol.EventColors:
		c := e.Colors[m.View.Role]
		if m.View.Options.InviterColor != engine.Empty {
			return eventNote{lines: []string{fmt.Sprintf("You play %s %s, as the invitation chose.", Name(c), stoneGlyph(c))}, frame: true}, true
		}
		if !m.View.Options.Variant.Descriptor().Stones {
			return eventNote{lines: []string{fmt.Sprintf("You play %s.", m.Name(c))}}, true
		}
		return eventNote{lines: []string{fmt.Sprintf("You play %s %s.", Name(c), stoneGlyph(c))}, frame: true}, true
	case protocol.EventResigned:
		return eventNote{lines: []string{m.RoleName(e.Role) + " resigns."}}, true
	case protocol.EventChat:
		return eventNote{}, true // the chat panel shows it
	case protocol.EventEnded:
		lines := []string{"Result: " + DescribeOutcome(e.Outcome, m.View.Color, m.View.Options.Variant)}
		if p := m.proposal; p != nil && e.Outcome.Result.By == engine.ByScore && e.Outcome.Violation == nil {
			lines = append([]string{m.RoleName(p.Proposer.Other()) + " accepts the marking."}, lines...)
		}
		return eventNote{lines: lines}, true
	case protocol.EventAdjourned:
		m.Adjourned = true
		return eventNote{lines: []string{"The connection is lost; the game is saved and goes on when the opponent is back."}}, true
	case protocol.EventAnnouncement:
		return eventNote{lines: []string{e.Text}}, true
	case protocol.EventResumed:
		m.proposal = nil
		return eventNote{lines: []string{m.RoleName(e.By) + " resumes play."}}, true
	case protocol.EventScoring:
		m.proposal = &e
		return eventNote{lines: []string{m.describeMarking(e)}}, true
	}
	if note, ok := m.describeRequest(e); ok {
		return note, true
	}
	return m.describeDispute(e)
}

// describeRequest describes the requests between the players: to take
// back moves (UNDO-D3) and to adjourn.
func (m *GameModel) describeRequest(e protocol.Event) (eventNote, bool) {
	switch e := e.(type) {
	case protocol.EventUndoRequested:
		what := m.movesWords(e.Move, e.Moves)
		if e.Moves >= 2 {
			// The move and the opponent's answer (UNDO-D3).
			what += ", the move and the answer"
		}
		return eventNote{lines: []string{fmt.Sprintf("%s asks to take back %s.", m.RoleName(e.By), what)}}, true
	case protocol.EventUndone:
		what := m.movesWords(e.Move, e.Moves)
		line := fmt.Sprintf("%s is taken back", upperFirst(what))
		if e.Moves >= 2 {
			line = fmt.Sprintf("%s are taken back", upperFirst(what))
		}
		return eventNote{lines: []string{fmt.Sprintf("%s: %s to play.", line, m.RoleName(e.By))}, frame: true, undone: max(e.Moves, 1)}, true
	case protocol.EventUndoDeclined:
		switch {
		case m.movedLast == m.RoleColor(e.By) && e.By == m.View.Role:
			return eventNote{lines: []string{"Your request to take back a move lapsed: you moved."}}, true
		case m.movedLast == m.RoleColor(e.By):
			return eventNote{lines: []string{fmt.Sprintf("%s's request to take back a move lapsed: %s moved.", m.RoleName(e.By), m.RoleName(e.By))}}, true
		case m.movedLast != engine.Empty && e.By == m.View.Role:
			return eventNote{lines: []string{fmt.Sprintf("%s moved before answering: your request lapsed. ^K asks to take back your move and the answer.",
				m.RoleName(e.By.Other()))}}, true
		case m.movedLast != engine.Empty:
			return eventNote{lines: []string{fmt.Sprintf("%s's request to take back a move lapsed: you moved.", m.RoleName(e.By))}}, true
		}
		return eventNote{lines: []string{fmt.Sprintf("%s's request to take back a move is refused.", m.RoleName(e.By))}}, true
	case protocol.EventAdjournRequested:
		if e.By == m.View.Role {
			return eventNote{lines: []string{"You ask to adjourn; both clocks stop if the opponent agrees."}}, true
		}
		return eventNote{lines: []string{m.RoleName(e.By) + " asks to adjourn: ^O agrees and both clocks stop."}}, true
	case protocol.EventAdjournAgreed:
		return eventNote{lines: []string{"The game is adjourned by agreement: both clocks stopped until the next move. You may leave (^Q) and come back."}}, true
	}
	return eventNote{}, false
}

// describeDispute describes the disputes: a broken rule, time-out claims,
// challenges, dropped input and reports.
func (m *GameModel) describeDispute(e protocol.Event) (eventNote, bool) {
	switch e := e.(type) {
	case protocol.EventViolation:
		return eventNote{lines: []string{fmt.Sprintf("The opponent broke rule %s: %s", e.Violation.Rule, e.Violation.Detail)}}, true
	case protocol.EventTimeoutClaimed:
		if e.By == m.View.Role {
			return eventNote{lines: []string{"Your program claims the opponent's flag fell; it waits for the opponent's answer."}}, true
		}
		return eventNote{lines: []string{"The opponent claims your flag fell; your program answers by your clock."}}, true
	case protocol.EventTimeoutRefused:
		if e.By == m.View.Role {
			return eventNote{lines: []string{fmt.Sprintf("Your program refused the time-out claim (your clock: %s of think time); play goes on.", e.Think.Round(100*time.Millisecond))}}, true
		}
		return eventNote{lines: []string{fmt.Sprintf("The opponent refused your time-out claim (its clock: %s); play goes on, nobody wins by it.", e.Think.Round(100*time.Millisecond))}}, true
	case protocol.EventTimeoutClaimVoid:
		if e.By == m.View.Role {
			return eventNote{lines: []string{"Your program's time-out claim crossed an opponent's message that stopped its clock: the claim changes nothing."}}, true
		}
		return eventNote{lines: []string{"The opponent's time-out claim crossed your message that stopped your clock: it changes nothing."}}, true
	case protocol.EventChallenged:
		switch {
		case e.Answered:
			return eventNote{}, true // the record already answered it: nothing to tell
		case e.Reporter == m.View.Role:
			return eventNote{lines: []string{"The opponent's program has not sent what it owes: it is asked again, and the game is abandoned by it if it still does not."}}, true
		}
		return eventNote{lines: []string{"The opponent says your program owes a message: it sends it again."}}, true
	case protocol.EventAbandonVoid:
		return eventNote{lines: []string{"An abandonment crossed the answer to its challenge: it changes nothing, play goes on."}}, true
	case session.EventDropped:
		return eventNote{lines: []string{"Input of the opponent's that is no valid message of the game was dropped: " + friendlyError(errors.New(e.Reason))}}, true
	case protocol.EventReport:
		if e.Judgement.Verdict == protocol.VerdictUnproven {
			return eventNote{lines: []string{fmt.Sprintf("%s reports %s against %s, which proves nothing (%s): it changes nothing.",
				m.RoleName(e.Judgement.Reporter), e.Judgement.Reported.Rule, m.RoleName(e.Judgement.Reported.Accused), e.Judgement.Why)}}, true
		}
		return eventNote{}, true // EventEnded tells the outcome
	}
	return eventNote{}, false
}

// describeMarking describes a proposed marking of dead stones.
func (m *GameModel) describeMarking(e protocol.EventScoring) string {
	who := m.RoleName(e.Proposer)
	if len(e.Dead) == 0 {
		return who + " proposes: no dead stones."
	}
	return fmt.Sprintf("%s proposes dead: %s.", who, m.Vertices(e.Dead))
}

// stoneGlyph returns the stone drawn for colour c.
func stoneGlyph(c engine.Color) string {
	switch c {
	case engine.Black:
		return string(UnicodeGlyphs.Black)
	case engine.White:
		return string(UnicodeGlyphs.White)
	}
	return ""
}

// tossLine is what the log says while the colours are settled: a coin
// toss (nigiri), or the invitation's choice, for which the toss's
// messages still run (HC-D2).
func tossLine(o engine.Options) string {
	if o.InviterColor != engine.Empty {
		return "The invitation chose the colours…"
	}
	return "Tossing a coin for the colours…"
}

// DescribeOptions writes a game's options for people: "Hidden Move Go
// 9×9, komi 7.5, 3 hidden moves".
func DescribeOptions(o engine.Options) string {
	parts := []string{fmt.Sprintf("%s %d×%d", VariantName(o.Variant), o.Size, o.Size)}
	d, err := engine.LookupDescriptor(o.Variant)
	if err != nil {
		return parts[0]
	}
	if d.Komi {
		parts = append(parts, fmt.Sprintf("komi %v", o.Komi))
	}
	if o.Handicap > 0 {
		parts = append(parts, fmt.Sprintf("handicap %d", o.Handicap))
	}
	for _, opt := range d.Options {
		if s := opt.Describe(o); s != "" {
			parts = append(parts, s)
		}
	}
	if !o.Time.IsNone() {
		parts = append(parts, "clock "+o.Time.Describe())
	}
	return strings.Join(parts, ", ")
}

// CheckingWarning returns the warning an invitation to Phantom Go whose
// tries are not checked during play (λ = 1: one garbling a try, T-8(b))
// deserves, and "" for any other: a program that cheats as the garbler
// is then caught only by the end audit, which it can escape by
// forfeiting (issue 31).
func CheckingWarning(o engine.Options) string {
	if o.Variant != engine.VariantPhantom || o.Lambda > 1 {
		return ""
	}
	return "Warning: λ = 1, the tries are not checked during play (T-8(b)): a program that cheats as the garbler is caught only by the end audit, which it can escape by forfeiting."
}

// VariantName returns a variant's name for people (its descriptor's
// title); a variant kakure does not have is named as such, not passed off
// as one.
func VariantName(v engine.Variant) string {
	d, err := engine.LookupDescriptor(v)
	if err != nil {
		return fmt.Sprintf("unknown variant %q", string(v))
	}
	return d.Title
}

// DescribeOutcome writes how a game of variant v ended, for the player of
// colour me: "White wins by 3.5 points (W+3.5) — you win".
func DescribeOutcome(o protocol.Outcome, me engine.Color, v engine.Variant) string {
	r := o.Result
	Name := func(c engine.Color) string { return ColorName(v, c) }
	var s string
	switch {
	case r.By == "declined":
		return "the invitation was declined"
	case r.By == engine.ByDispute:
		s = "disputed, no winner"
		if o.Violation != nil {
			s += fmt.Sprintf(" (an unproven report of %s: %s)", o.Violation.Rule, o.Violation.Detail)
		}
	case r.Winner == engine.Empty:
		s = "a draw"
	case r.By == engine.ByScore:
		s = fmt.Sprintf("%s wins by %v points", Name(r.Winner), r.Margin)
	case r.By == engine.ByResignation:
		s = fmt.Sprintf("%s wins by resignation", Name(r.Winner))
	case o.Abandoned && r.By == engine.ByTime:
		s = fmt.Sprintf("%s wins on time: %s never answered the claim, as reported", Name(r.Winner), Name(r.Winner.Opponent()))
	case o.Abandoned:
		s = fmt.Sprintf("%s wins: %s abandoned the game (stopped answering with the connection up), as reported", Name(r.Winner), Name(r.Winner.Opponent()))
	case r.By == engine.ByTime:
		s = fmt.Sprintf("%s wins on time", Name(r.Winner))
	case r.By == engine.ByForfeit:
		s = fmt.Sprintf("%s wins by forfeit", Name(r.Winner))
		if o.Violation != nil {
			s += fmt.Sprintf(" (%s broke %s: %s)", Name(r.Winner.Opponent()), o.Violation.Rule, o.Violation.Detail)
		}
	default:
		s = fmt.Sprintf("%s wins", Name(r.Winner))
	}
	s += " (" + ResultString(r, v) + ")"
	switch {
	case me == engine.Empty || r.Winner == engine.Empty:
	case r.Winner == me:
		s += " — you win"
	default:
		s += " — you lose"
	}
	return s
}

// ResultString writes a result in its short form (W+7.5, B+R) with the
// variant's names of the sides: gomoku's X and O, not B and W.
func ResultString(r engine.Result, v engine.Variant) string {
	s := r.String()
	d, err := engine.LookupDescriptor(v)
	if err != nil {
		return s + " (" + err.Error() + ")"
	}
	switch {
	case strings.HasPrefix(s, "B+"):
		return d.ResultLetters[0] + "+" + s[2:]
	case strings.HasPrefix(s, "W+"):
		return d.ResultLetters[1] + "+" + s[2:]
	}
	return s
}

// moveError writes why the engine refused a stone at p.
func moveError(err error, p engine.Point, size int) error {
	v := p.Vertex(size)
	switch {
	case errors.Is(err, engine.ErrOccupied):
		return fmt.Errorf("%s is occupied", v)
	case errors.Is(err, engine.ErrSuicide):
		return fmt.Errorf("%s would be suicide", v)
	case errors.Is(err, engine.ErrSuperko), errors.Is(err, engine.ErrKo):
		return fmt.Errorf("%s would repeat an earlier position (ko)", v)
	case errors.Is(err, engine.ErrNotYourTurn):
		return errors.New("it is not your turn")
	}
	return errors.New(friendlyError(err))
}
