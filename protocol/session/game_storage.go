package session

// Storage of a game: its record and secrets files, and loading saved
// games to resume or open them. Moved from game.go unchanged (issue 19).
//
// Locking (see Game): saveSecrets, save and closeFiles run in the loop
// (save and closeFiles hold mu, as they read the transcript and machine
// that View reads). loadGame, Resume, Open, Unfinished, Finished and saved
// run on the caller's goroutine before the loaded game's loop starts.
// RecordPath and secretsPath read fields that never change.

import (
	"github.com/kakure/kakure/protocol"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/commit"
)

// RecordPath returns where the transcript is saved ("" when not saved).
func (g *Game) RecordPath() string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, g.id.String()+".record.json")
}

func (g *Game) secretsPath() string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, g.id.String()+".secrets.json")
}

// secretsFile is what a peer keeps to itself about a game, to resume it.
type secretsFile struct {
	Role    protocol.Role   `json:"role"`
	Toss    *commit.Opening `json:"toss,omitempty"`
	Variant json.RawMessage `json:"variant"`
	Addrs   []string        `json:"peer_addrs,omitempty"`
}

// secretsFileDoc is json.Marshal(f) as a docObject, the variant's
// secrets as variant (a docObject of PN-D24, or their encoding in
// f.Variant): they are put in as they are, where json.Marshal would scan
// and copy them again to compact them, and they are the bulk of the
// document (a Phantom Go garbler's secrets hold the OT request of the
// try under way, 73 KiB of base64 on 9×9 at λ = 4), encoded before every
// message this peer sends.
func secretsFileDoc(f secretsFile, variant docValue) (*docObject, error) {
	if variant.obj == nil && len(variant.raw) == 0 {
		variant.raw = []byte("null")
	}
	d := &docObject{}
	member := func(k string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		d.addRaw(k, b)
		return nil
	}
	if err := member("role", f.Role); err != nil {
		return nil, err
	}
	if f.Toss != nil {
		if err := member("toss", f.Toss); err != nil {
			return nil, err
		}
	}
	d.add("variant", variant)
	if len(f.Addrs) > 0 {
		if err := member("peer_addrs", f.Addrs); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// docSecretsPlayer is a player that gives its secrets as a docObject
// (PN-D24), nil when it has them only as bytes.
type docSecretsPlayer interface {
	secretsDoc() (*docObject, error)
}

// checkSecretsFileDoc panics unless d encodes as json.Marshal of f with
// the variant's secrets vd, byte for byte (tests, secretsMemoCheck).
func checkSecretsFileDoc(f secretsFile, vd, d *docObject) {
	f.Variant = vd.json()
	want, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	if got := d.json(); !bytes.Equal(got, want) {
		panic(fmt.Sprintf("secrets file by members:\n%.300s\njson.Marshal:\n%.300s", got, want))
	}
}

// saveSecrets appends the change of this peer's secrets to its secrets
// file (mode 0600) and syncs it.
func (g *Game) saveSecrets() error {
	path := g.secretsPath()
	if path == "" {
		return nil
	}
	var vd *docObject
	var vs json.RawMessage
	var err error
	if dp, ok := g.player.(docSecretsPlayer); ok {
		vd, err = dp.secretsDoc()
	}
	if err == nil && vd == nil {
		vs, err = g.player.secrets()
	}
	if err != nil {
		return err
	}
	g.secretsSaves.Add(1)
	var addrs []string
	for _, a := range g.svc.cfg.Host.Peerstore().Addrs(g.peer) {
		addrs = append(addrs, a.String())
	}
	f := secretsFile{Role: g.role, Toss: g.toss, Variant: vs, Addrs: addrs}
	variant := docValue{obj: vd, raw: vs}
	d, err := secretsFileDoc(f, variant)
	if err != nil {
		return fmt.Errorf("protocol: encode secrets: %w", err)
	}
	if g.secrets == nil {
		g.secrets = &secretsLog{file: appendFile{path: path}}
	}
	g.secrets.hook = g.storageHook()
	if vd == nil {
		return g.secrets.save(d.json())
	}
	if secretsMemoCheck {
		checkSecretsFileDoc(f, vd, d)
	}
	return g.secrets.saveDoc(d)
}

// compactSecrets rewrites the secrets file as its document alone if it
// holds more (REC-D16); a failure is logged and leaves the log, which
// folds to the same document.
func (g *Game) compactSecrets() {
	if g.secrets == nil {
		return
	}
	g.secrets.hook = g.storageHook()
	if err := g.secrets.compact(); err != nil {
		g.svc.cfg.Logger.Error("rewriting the secrets", "game", g.id, "err", err)
	}
}

// save appends the transcript's new messages to the record file. Before
// one of this peer's own messages leaves, the save is durable (synced): a
// message sent must survive a crash, or the peer could sign a different
// one with the same number after a restart. A received message needs no
// sync of its own: if it is lost in a crash, the other peer sends it
// again on resume, and the next durable save (before any message that
// acknowledges it) keeps it. A finished game's record gets its closing
// line: the file is then the JSON document of docs/record.md.
func (g *Game) save(durable bool) error {
	path := g.RecordPath()
	if path == "" {
		if g.pub != nil {
			// Nothing is kept: nothing waits for the disk to be
			// published.
			g.mu.Lock()
			g.publishSaved()
			g.mu.Unlock()
		}
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.record == nil {
		g.record = newRecordLog(path, 0, 0, false)
	}
	g.record.hook = g.storageHook()
	if err := g.record.append(g.tr, durable, g.m.Phase == protocol.PhaseDone); err != nil {
		return err
	}
	if durable {
		// This peer's messages are on the disk: published now (SPEC-D32).
		g.publishSaved()
	}
	return nil
}

// storageHook is the test hook called between an append and its sync.
func (g *Game) storageHook() func(string) {
	if g.svc.cfg.hook == nil {
		return nil
	}
	return g.hook
}

// closeFiles closes the record and secrets files.
func (g *Game) closeFiles() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.record != nil {
		g.record.file.close()
	}
	if g.secrets != nil {
		g.secrets.file.close()
	}
}

// loadGame reads a saved game to resume it.
func (s *Service) loadGame(id protocol.GameID) (g *Game, err error) {
	defer recoverError(&err, "loading game "+id.String())
	if s.cfg.Dir == "" {
		return nil, errors.New("protocol: no games directory")
	}
	base := filepath.Join(s.cfg.Dir, id.String())
	tr, rs, err := loadRecord(base + ".record.json")
	if err != nil {
		return nil, err
	}
	var sf secretsFile
	doc, secretsValid, err := loadSecrets(base + ".secrets.json")
	switch {
	case errors.Is(err, errNoSecrets):
		// The first secrets never reached the disk whole, so no message
		// that needs them was sent: the game goes on as if this peer had
		// no secrets yet (its role is its place in the record).
		sf.Role = protocol.Invitee
		if tr.Peers[protocol.Inviter] == protocol.PeerID(s.cfg.Host.ID()) {
			sf.Role = protocol.Inviter
		}
	case err != nil:
		return nil, fmt.Errorf("protocol: secrets of game %s: %w", id, err)
	default:
		if err := protocol.UnmarshalStrict(doc, &sf); err != nil {
			return nil, fmt.Errorf("protocol: secrets of game %s: %w", id, err)
		}
	}
	if tr.Peers[sf.Role] != protocol.PeerID(s.cfg.Host.ID()) {
		return nil, fmt.Errorf("protocol: game %s was played by another identity", id)
	}
	g = s.newGame(id, sf.Role, protocol.NewTranscript(id, tr.Peers[0], tr.Peers[1]))
	for i := range tr.Messages {
		msg := tr.Messages[i]
		if _, err := g.m.Apply(&msg); err != nil {
			return nil, fmt.Errorf("protocol: replaying game %s: message %d: %w", id, i, err)
		}
		if err := g.tr.Append(msg); err != nil {
			return nil, err
		}
		if g.player == nil && g.m.Options.Variant != "" {
			if err := Playable(g.m.Options.Variant); err != nil {
				return nil, fmt.Errorf("protocol: replaying game %s: %w", id, err)
			}
			g.player = s.newPlayer(g, g.m.Options, sf.Role)
		}
	}
	if g.player == nil {
		return nil, fmt.Errorf("protocol: game %s has no invitation", id)
	}
	// The resumed program publishes the record so far again, from its
	// first message: spectators drop the copies of what they took, get
	// what the stop lost, and the publisher's backlog, empty after a
	// restart, holds the whole game again (SPEC-D32).
	g.publishSaved()
	if doc != nil {
		if err := g.player.restore(sf.Variant); err != nil {
			return nil, err
		}
	}
	if r, ok := g.player.(resumer); ok {
		if err := r.resumed(g.m); err != nil {
			return nil, fmt.Errorf("protocol: resuming game %s: %w", id, err)
		}
	}
	g.toss = sf.Toss
	// Later lines go where the valid parts end: a torn last line (never
	// synced, so nothing in it was sent) is cut before the first.
	g.record = newRecordLog(base+".record.json", rs.Valid, len(tr.Messages), rs.Closed)
	g.secrets = &secretsLog{file: appendFile{path: base + ".secrets.json", size: int64(secretsValid)}, raw: doc}
	// A rewrite of the secrets that a crash stopped before its rename
	// left its new file, never read (REC-D16).
	os.Remove(g.secrets.newPath())
	// Remember where the other peer was, to dial it again.
	for _, a := range sf.Addrs {
		if addr, err := ma.NewMultiaddr(a); err == nil {
			s.cfg.Host.Peerstore().AddAddr(g.peer, addr, peerstore.RecentlyConnectedAddrTTL)
		}
	}
	return g, nil
}

// resumer is a player that rebuilds its state from its restored secrets
// and the record once both are loaded, before the game takes any new
// message.
type resumer interface {
	resumed(m *protocol.Machine) error
}

// Resume loads a saved game and reconnects to the other peer.
func (s *Service) Resume(ctx context.Context, id protocol.GameID) (*Game, error) {
	g, loaded, err := s.loadRegistered(id)
	if err != nil {
		return nil, err
	}
	if !loaded {
		return g, nil
	}
	// The dial is bounded (NET-D21): a program that restarts must not hang
	// on a peer that does not answer; the inviter redials a waiting game.
	dctx, cancel := context.WithTimeout(ctx, resumeDialTimeout)
	st, err := s.openStream(dctx, g.peer)
	cancel()
	if err != nil {
		go g.run(nil)
		return g, fmt.Errorf("protocol: resume game %s: %w", id, err)
	}
	if err := g.writeHello(st); err != nil {
		st.Reset()
		go g.run(nil)
		return g, err
	}
	go g.run(st)
	return g, nil
}

// ErrCorruptRecord reports a record file that is torn, damaged or forged:
// it is never used, only reported.
var ErrCorruptRecord = errors.New("protocol: corrupt record")

// Unfinished lists the games in the games directory that are not over.
// Records that cannot be read or replayed are left out and reported in the
// error (wrapping ErrCorruptRecord, one per file), alongside the games
// that can be resumed.
func (s *Service) Unfinished() ([]protocol.GameID, error) { return s.saved(false) }

// Finished lists the games in the games directory that are over, to be
// opened (Open) and replayed. Unreadable records are reported as by
// Unfinished.
func (s *Service) Finished() ([]protocol.GameID, error) { return s.saved(true) }

// Open loads a finished game of the games directory to be read: its
// view, its record and its replay. It connects to nobody; Close the game
// when done. An unfinished game is refused (Resume it).
func (s *Service) Open(id protocol.GameID) (*Game, error) {
	g, loaded, err := s.loadRegistered(id)
	if err != nil {
		return nil, err
	}
	if loaded {
		go g.run(nil)
	}
	if g.Outcome() == nil {
		if loaded {
			g.Close()
		}
		return nil, fmt.Errorf("protocol: game %s is not over: resume it", id)
	}
	return g, nil
}

// saved lists the games of the games directory that are over (done) or
// not.
func (s *Service) saved(done bool) ([]protocol.GameID, error) {
	if s.cfg.Dir == "" {
		return nil, nil
	}
	matches, err := filepath.Glob(filepath.Join(s.cfg.Dir, "*.record.json"))
	if err != nil {
		return nil, err
	}
	var ids []protocol.GameID
	var bad []error
	for _, path := range matches {
		tr, err := LoadTranscript(path)
		if errors.Is(err, protocol.ErrNoGame) {
			// The invitation never reached the disk whole, so it was
			// never sent: there is no game to resume.
			s.cfg.Logger.Info("record without a game", "path", path)
			continue
		}
		if err != nil {
			s.cfg.Logger.Warn("unreadable record", "path", path, "err", err)
			bad = append(bad, fmt.Errorf("%w: %v", ErrCorruptRecord, err))
			continue
		}
		m, err := replay(tr)
		if err != nil {
			s.cfg.Logger.Warn("record does not replay", "path", path, "err", err)
			bad = append(bad, fmt.Errorf("%w: %s: does not replay: %v", ErrCorruptRecord, path, err))
			continue
		}
		if (m.Phase == protocol.PhaseDone) == done {
			ids = append(ids, tr.Game)
		}
	}
	return ids, errors.Join(bad...)
}

// resumeDialTimeout bounds the first dial of a resumed game (NET-D21):
// past it the game waits for the other peer's redial.
const resumeDialTimeout = 15 * time.Second
