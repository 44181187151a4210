package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRECD21RecordCompletedFromTheSecrets checks completeRecord, which a
// resumed program runs before it reads its record (REC-D21): the lines
// the secrets carry and the record lacks are appended (after a torn last
// line is cut, and a closing line they follow); a record that holds them
// is left as it is; a record that holds other bytes where they go, or
// lacks lines before them, is refused, and so is a record without a head
// when the carry has none.
func TestRECD21RecordCompletedFromTheSecrets(t *testing.T) {
	head := `{"format":"kakure-record/1","game":"g","peers":["a","b"],"messages":[` + "\n"
	m := func(i int) string {
		sep := ","
		if i == 0 {
			sep = " "
		}
		return sep + `{"seq":` + string(rune('0'+i)) + "}\n"
	}
	lines := func(from, to int) [][]byte {
		var out [][]byte
		for i := from; i < to; i++ {
			out = append(out, []byte(m(i)))
		}
		return out
	}
	upTo := func(n int) string {
		s := head
		for i := range n {
			s += m(i)
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		file   *string // nil: no file
		carry  *recordCarry
		want   string // "" with err
		errHas string
	}{
		{"appended", ptr(upTo(2)), &recordCarry{From: 1, Lines: lines(1, 4)}, upTo(4), ""},
		{"torn line cut", ptr(upTo(2) + `,{"se`), &recordCarry{From: 2, Lines: lines(2, 4)}, upTo(4), ""},
		{"torn line, zeros", ptr(upTo(3) + "\x00\x00\x00"), &recordCarry{From: 2, Lines: lines(2, 4)}, upTo(4), ""},
		{"closing line cut", ptr(upTo(2) + "]}\n"), &recordCarry{From: 1, Lines: lines(1, 3)}, upTo(3), ""},
		{"already held", ptr(upTo(4)), &recordCarry{From: 1, Lines: lines(1, 3)}, upTo(4), ""},
		{"already held, closed", ptr(upTo(3) + "]}\n"), &recordCarry{From: 1, Lines: lines(1, 3)}, upTo(3) + "]}\n", ""},
		{"no carry", ptr(upTo(2) + `,{"se`), nil, upTo(2) + `,{"se`, ""},
		{"no file", nil, &recordCarry{From: 0, Head: []byte(head), Lines: lines(0, 2)}, upTo(2), ""},
		{"head torn", ptr(head[:10]), &recordCarry{From: 0, Head: []byte(head), Lines: lines(0, 1)}, upTo(1), ""},
		{"other bytes", ptr(upTo(2)), &recordCarry{From: 1, Lines: [][]byte{[]byte(`,{"seq":7}` + "\n"), []byte(m(2))}}, "", "differs"},
		{"lines before lacking", ptr(upTo(1)), &recordCarry{From: 2, Lines: lines(2, 3)}, "", "holds 1 messages"},
		{"no head", nil, &recordCarry{From: 1, Lines: lines(1, 2)}, "", "no head"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.record.json")
			if tc.file != nil {
				if err := os.WriteFile(path, []byte(*tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := completeRecord(path, tc.carry)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err %v, want one that says %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("the record is\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }
