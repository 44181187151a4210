package rendezvous

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
)

// CodeWords is the number of words in an invite code. With 256 words a
// code is one of 2^24 (about 16.7 million); a relay refuses a code that
// another peer holds, and the host then draws another.
const CodeWords = 3

// ErrBadCode means a typed invite code is not CodeWords words of the
// list, each given whole or by its first three letters or more.
var ErrBadCode = errors.New("rendezvous: bad invite code")

// NewCode draws an invite code from r (crypto/rand.Reader when r is nil):
// CodeWords words of the list joined by hyphens, such as
// "maple-otter-quail".
func NewCode(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	var b [CodeWords]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", fmt.Errorf("rendezvous: drawing an invite code: %w", err)
	}
	words := make([]string, CodeWords)
	for i, x := range b {
		words[i] = codeWords[x]
	}
	return strings.Join(words, "-"), nil
}

// ParseCode reads an invite code as a person types it and returns its
// canonical form (lower-case words joined by hyphens). Case does not
// matter, words may be separated by spaces, hyphens, dots, commas,
// slashes or underscores, and each word may be cut short to its first
// three letters or more ("map ott qua" is "maple-otter-quail"). Errors
// wrap ErrBadCode and name the word that is wrong.
func ParseCode(s string) (string, error) {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\r', '-', '.', ',', '/', '_':
			return true
		}
		return false
	})
	if len(fields) != CodeWords {
		return "", fmt.Errorf("%w %q: it has %d words, a code has %d", ErrBadCode, s, len(fields), CodeWords)
	}
	words := make([]string, len(fields))
	for i, f := range fields {
		w, ok := lookupWord(f)
		if !ok {
			return "", fmt.Errorf("%w %q: %q is not a word of invite codes", ErrBadCode, s, f)
		}
		words[i] = w
	}
	return strings.Join(words, "-"), nil
}

// wordByPrefix maps the first three letters of each word to the word.
var wordByPrefix = func() map[string]string {
	m := make(map[string]string, len(codeWords))
	for _, w := range codeWords {
		m[w[:3]] = w
	}
	return m
}()

// lookupWord returns the word of the list that f is, or begins, with at
// least three letters.
func lookupWord(f string) (string, bool) {
	if len(f) < 3 {
		return "", false
	}
	w, ok := wordByPrefix[f[:3]]
	if !ok || !strings.HasPrefix(w, f) {
		return "", false
	}
	return w, true
}
