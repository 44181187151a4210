package protocol

import (
	"errors"
	"testing"
)

// TestT10SignatureVerifiedOnceIsNoPass: a signature verified once is not
// verified again (the memo verified), but only the very same sender,
// signed bytes and signature are let through: after the message verified,
// the same message with a byte of its signature, its body or its
// sequence number changed, or claimed by the other peer, is refused as a
// bad signature, every time.
func TestT10SignatureVerifiedOnceIsNoPass(t *testing.T) {
	tr, m := signedInvite(t, `{"version":"1.0.0","inviter":"INVITER","invitee":"INVITEE","options":{"variant":"go","size":9,"komi":0.5}}`)
	for range 2 {
		if err := m.VerifySignature(tr.Peers[Inviter]); err != nil {
			t.Fatalf("the signed invitation: %v", err)
		}
	}
	changes := []struct {
		name   string
		change func(m *Message)
		sender Role
	}{
		{"a byte of the signature", func(m *Message) { m.Sig = append([]byte(nil), m.Sig...); m.Sig[3] ^= 1 }, Inviter},
		{"a byte of the body", func(m *Message) { m.Body = append([]byte(nil), m.Body...); m.Body[len(m.Body)-3] ^= 1 }, Inviter},
		{"the sequence number", func(m *Message) { m.Seq++ }, Inviter},
		{"the other peer as sender", func(*Message) {}, Invitee},
	}
	for _, c := range changes {
		bad := m
		c.change(&bad)
		for range 2 {
			if err := bad.VerifySignature(tr.Peers[c.sender]); !errors.Is(err, ErrBadSignature) {
				t.Errorf("%s: %v, want a bad signature", c.name, err)
			}
		}
	}
	if err := m.VerifySignature(tr.Peers[Inviter]); err != nil {
		t.Errorf("the signed invitation after the bad ones: %v", err)
	}
}
