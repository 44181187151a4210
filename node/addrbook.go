package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// The address book (NET-D40): the addresses a held peer was reached at
// are kept in the home (peer-addrs.json), so that a node started again
// redials the peer of a game it resumes even when the peer's program was
// restarted too. Before, the addresses lived in memory only: when both
// programs of a game were restarted, neither knew where the other
// listened, each waited for the other to dial ("no addresses"), and on a
// network without discovery (no LAN announcement, no DHT, no invite code
// to look up) the game never resumed. The book holds at most
// maxBookPeers peers (the least recently seen dropped first) and
// maxKeptAddrs addresses each; a peer's entry is written when it is held
// and when it is lost, and read when it is held and the node knows no
// address of it. What a peer announces there only tells this node where
// to dial it: the connection's security (the peer ID) is unchanged.

// addrBookFile is the address book's name in the home.
const addrBookFile = "peer-addrs.json"

// maxBookPeers bounds the peers of the address book.
const maxBookPeers = 256

// bookEntry is one peer's addresses in the book.
type bookEntry struct {
	Addrs []string  `json:"addrs"`
	Seen  time.Time `json:"seen"`
}

// addrBook is the address book of a home; the zero path keeps nothing.
type addrBook struct {
	path string
	mu   sync.Mutex
}

// load reads the book; a missing or unreadable file is an empty book.
func (b *addrBook) load() map[string]bookEntry {
	entries := map[string]bookEntry{}
	if b.path == "" {
		return entries
	}
	data, err := os.ReadFile(b.path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			connLog.Warn("address book unreadable; starting a new one", "path", b.path, "err", err)
		}
		return entries
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		connLog.Warn("address book malformed; starting a new one", "path", b.path, "err", err)
		return map[string]bookEntry{}
	}
	return entries
}

// addrsOf returns the addresses the book holds for p.
func (b *addrBook) addrsOf(p peer.ID) []ma.Multiaddr {
	b.mu.Lock()
	defer b.mu.Unlock()
	var addrs []ma.Multiaddr
	for _, s := range b.load()[p.String()].Addrs {
		if a, err := ma.NewMultiaddr(s); err == nil {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// note writes addrs (the latest last) as p's entry, seen at now.
func (b *addrBook) note(p peer.ID, addrs []ma.Multiaddr, now time.Time) error {
	if b.path == "" || len(addrs) == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	entries := b.load()
	var strs []string
	for _, a := range addrs {
		strs = append(slices.DeleteFunc(strs, func(s string) bool { return s == a.String() }), a.String())
	}
	if over := len(strs) - maxKeptAddrs; over > 0 {
		strs = strs[over:]
	}
	entries[p.String()] = bookEntry{Addrs: strs, Seen: now.UTC()}
	for len(entries) > maxBookPeers {
		oldest := ""
		for id, e := range entries {
			if oldest == "" || e.Seen.Before(entries[oldest].Seen) {
				oldest = id
			}
		}
		delete(entries, oldest)
	}
	data, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return fmt.Errorf("node: address book: %w", err)
	}
	tmp := b.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("node: address book: %w", err)
	}
	if err := os.Rename(tmp, b.path); err != nil {
		return fmt.Errorf("node: address book: %w", err)
	}
	return nil
}

// newAddrBook returns the address book of home.
func newAddrBook(home string) *addrBook {
	if home == "" {
		return &addrBook{}
	}
	return &addrBook{path: filepath.Join(home, addrBookFile)}
}
