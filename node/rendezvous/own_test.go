package rendezvous_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kakure/kakure/node/rendezvous"
)

// TestDHTKey (NET-D17): a code's DHT key depends on the code only, in any
// spelling the guest may type, and differs between codes.
func TestDHTKey(t *testing.T) {
	a, err := rendezvous.DHTKey("maple-otter-quail")
	if err != nil {
		t.Fatal(err)
	}
	typed, err := rendezvous.DHTKey("MAP ott. qua")
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equals(typed) {
		t.Errorf("the key of a code typed otherwise differs: %s, %s", a, typed)
	}
	b, err := rendezvous.DHTKey("maple-otter-quartz")
	if err == nil && a.Equals(b) {
		t.Errorf("two codes share the key %s", a)
	}
	if _, err := rendezvous.DHTKey("not a code"); !errors.Is(err, rendezvous.ErrBadCode) {
		t.Errorf("DHTKey of a bad code: %v", err)
	}
}

// TestServeOwnCodes (NET-D17): a host answers lookups of its own codes
// with its record, others with not-found, and refuses to register
// anyone's record.
func TestServeOwnCodes(t *testing.T) {
	host, guest := newHost(t), newHost(t)
	connect(t, guest, host)
	sr := sign(t, host, "maple-otter-quail", 30*time.Minute)
	rendezvous.ServeOwnCodes(host, func(code string) (rendezvous.SignedRecord, bool) {
		return sr, code == "maple-otter-quail"
	})
	_, info, err := rendezvous.Lookup(t.Context(), guest, host.ID(), "maple otter quail")
	if err != nil || info.ID != host.ID() {
		t.Fatalf("Lookup of the host's code: %v, %v", info, err)
	}
	if _, _, err := rendezvous.Lookup(t.Context(), guest, host.ID(), "acorn acorn acorn"); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("Lookup of another code: %v, want ErrNotFound", err)
	}
	if err := rendezvous.Register(t.Context(), guest, host.ID(), sign(t, guest, "acorn-acorn-acorn", time.Minute)); !errors.Is(err, rendezvous.ErrRefused) {
		t.Errorf("Register at a host: %v, want ErrRefused", err)
	}
}
