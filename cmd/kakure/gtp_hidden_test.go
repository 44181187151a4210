package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGTPCommandHiddenVariants runs `kakure gtp` for Phantom Go and Hidden
// Move Go with a script on standard input, as a controller would.
func TestGTPCommandHiddenVariants(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		script string
		want   string
	}{
		{"phantom kriegspiel announcements",
			[]string{"--variant", "phantom", "--rules", "kriegspiel", "--size", "5"},
			"1 play b B2\n2 play w A1\nplay b A2\nplay w E5\nkakure-try b B1\nkakure-announce w\nkakure-announce b\nquit\nplay b C3\n",
			"=1\n\n=2\n\n=\n\n=\n\n= legal captured=A1 atari-opponent=0 atari-self=0\n\n" +
				"= event=moved mover=black capture-count=1 captured=A1\n\n= event=moved mover=black point=B1 capture-count=1\n\n=\n\n"},
		{"phantom komi and final_score",
			[]string{"--variant", "phantom", "--size", "5", "--komi", "0.5"},
			"play b C3\nkakure-try w C3\nfinal_score\n",
			"=\n\n= illegal reason=occupied-opponent\n\n= B+24.5\n\n"},
		{"hmg with two cards",
			[]string{"--variant", "hmg", "--size", "9", "--cards", "2"},
			"kakure-cards b D4 D5\nkakure-cards w D4 E5\nplay b D4\nkakure-reveal w 1\nkakure-reveal b 1\nfinal_score\n",
			"=\n\n=\n\n=\n\n= revealed captured=- undo=1 restored=-\n\n? illegal reason=not-last-stone\n\n= W+89.5\n\n"},
		{"hmg with the default 19x19 board and three cards",
			[]string{"--variant", "hmg"},
			"kakure-cards b Q16 D4\nkakure-cards b Q16 D4 T19\nkakure-reveal b 3\nlist_stones b\n",
			"? 2 cards given, the game has 3 per player\n\n=\n\n= revealed captured=- undo=0 restored=-\n\n= T19\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := &environment{stdin: strings.NewReader(tt.script), stdout: &stdout, stderr: &stderr}
			if status := run(env, append([]string{"gtp"}, tt.args...)); status != 0 {
				t.Fatalf("status %d, stderr:\n%s", status, stderr.String())
			}
			if stdout.String() != tt.want {
				t.Errorf("output\n%q\nwant\n%q", stdout.String(), tt.want)
			}
		})
	}
}

func TestGTPCommandHiddenVariantErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown phantom rule set", []string{"--variant", "phantom", "--rules", "chess"}, "chess"},
		{"rules outside phantom", []string{"--variant", "hmg", "--rules", "hamburg"}, "phantom only"},
		{"too many cards", []string{"--variant", "hmg", "--cards", "10"}, "hidden cards"},
		{"cards outside hmg", []string{"--variant", "phantom", "--cards", "2"}, "hmg only"},
		{"board too small", []string{"--variant", "phantom", "--size", "4"}, "board size 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := &environment{stdin: strings.NewReader("name\n"), stdout: &stdout, stderr: &stderr}
			if status := run(env, append([]string{"gtp"}, tt.args...)); status != 2 {
				t.Errorf("status %d, want 2; stderr:\n%s", status, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) || stdout.Len() != 0 {
				t.Errorf("stderr %q does not mention %q, or stdout %q not empty", stderr.String(), tt.want, stdout.String())
			}
		})
	}
}
