package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/varianttest"
)

// TestVARD8SeventhVariantNotInvited: a variant whose descriptor is
// listed but whose rules and player are not (a seventh added piece by
// piece) is refused by name when a program invites to it, before any
// game starts, instead of a game that calls a player it has not got
// (VAR-D8, Playable). Not parallel: it adds a descriptor (varianttest).
func TestVARD8SeventhVariantNotInvited(t *testing.T) {
	varianttest.Add(t)
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: varianttest.Variant})
	if err == nil {
		g.Close()
		t.Fatal("an invitation to a variant without rules or a player went out")
	}
	if !strings.Contains(err.Error(), "seventh-test cannot be played over the network yet") {
		t.Fatalf("Invite: %v, want the variant named as not playable", err)
	}
}
