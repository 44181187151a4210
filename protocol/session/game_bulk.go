package session

// Bulk frames: the attachments of a message, kept, made again and sent
// before it. Moved from game.go unchanged (issue 19).
//
// Locking (see Game): ownBulk is owned by the loop; these methods run in
// the loop, or in serveFinished after the loop has stopped. bulkOf reads
// the transcript and machine with mu held (locked) to make attachments
// again.

import (
	"github.com/kakure/kakure/protocol"

	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/network"
)

// bulkBody is implemented by message bodies with large attachments: each
// attachment travels as a bulk frame just before the signed message, whose
// body names the attachments' hashes (the variant's business).
type bulkBody interface{ Attachments() [][]byte }

// bulkReceiver is implemented by variant players that take attachments:
// checkBulk checks, before the message is applied, that the bulk frames
// that came before a message of the other peer are the attachments it
// signs (an error drops both, T-10); receiveBulk then gets the message,
// just applied, with them. An error of receiveBulk that carries a
// certificate (Violation.Evidence) is a violation by the sender.
type bulkReceiver interface {
	checkBulk(m *protocol.Machine, msg *protocol.Message, bulk [][]byte) error
	receiveBulk(m *protocol.Machine, me protocol.Role, msg *protocol.Message, bulk [][]byte) error
}

// bulkMaker is implemented by variant players whose own attachments are
// not stored (PN-D14): remakeBulk makes the attachments of the player's
// own message msg again, from its seed and secrets, checked against the
// digests msg signs.
type bulkMaker interface {
	remakeBulk(m *protocol.Machine, me protocol.Role, msg *protocol.Message) ([][]byte, error)
}

// maxPendingBulk caps what a peer may send as bulk frames before a
// message: a few attachments of the largest size.
const maxPendingBulk = 4 * protocol.MaxBulkSize

func (g *Game) bulkPath(seq uint64) string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, fmt.Sprintf("%s.bulk-%d", g.id, seq))
}

// keepBulk keeps the attachments of own message seq in memory until the
// other peer acknowledges it. They are not written to disk: after a
// restart the player makes them again from its seed and secrets
// (bulkMaker, PN-D14).
func (g *Game) keepBulk(seq uint64, att [][]byte) {
	if g.ownBulk == nil {
		g.ownBulk = map[uint64][][]byte{}
	}
	g.ownBulk[seq] = att
}

// bulkOf returns the attachments of own message seq: from memory, or
// made again by the player after a restart, or from the file an earlier
// version of this program kept them in.
func (g *Game) bulkOf(seq uint64) [][]byte {
	if att, ok := g.ownBulk[seq]; ok {
		return att
	}
	var att [][]byte
	if bm, ok := g.player.(bulkMaker); ok {
		err := g.locked(func() error {
			for i := range g.tr.Messages {
				if m := &g.tr.Messages[i]; m.From == g.role && m.Seq == seq {
					var err error
					att, err = bm.remakeBulk(g.m, g.role, m)
					return err
				}
			}
			return nil
		})
		if err != nil {
			g.svc.cfg.Logger.Warn("attachments not made again", "game", g.id, "seq", seq, "err", err)
			att = nil
		}
	}
	if att == nil {
		att = g.oldBulkFile(seq)
	}
	if att != nil {
		g.keepBulk(seq, att)
	}
	return att
}

// oldBulkFile reads the attachments of own message seq from the file an
// earlier version of this program wrote them to (GAMEID.bulk-SEQ, write,
// sync, rename), for a game it left unfinished; pruneBulk removes it.
func (g *Game) oldBulkFile(seq uint64) [][]byte {
	path := g.bulkPath(seq)
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var att [][]byte
	if json.Unmarshal(data, &att) != nil {
		return nil
	}
	return att
}

// pruneBulk forgets the attachments of own messages up to ack, which the
// other peer has received.
func (g *Game) pruneBulk(ack int64) {
	for seq := range g.ownBulk {
		if int64(seq) <= ack {
			delete(g.ownBulk, seq)
			if path := g.bulkPath(seq); path != "" {
				os.Remove(path)
			}
		}
	}
}

// writeBulk sends the attachments of own message seq, if any.
func (g *Game) writeBulk(st network.Stream, seq uint64) error {
	for _, a := range g.bulkOf(seq) {
		if err := protocol.WriteBulkFrame(st, a); err != nil {
			return err
		}
	}
	return nil
}
