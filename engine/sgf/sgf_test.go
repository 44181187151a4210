package sgf

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestNodeAddSetRemove(t *testing.T) {
	var n Node
	n.Add("AB", "aa")
	n.Add("C", TextValue("x]"))
	n.Add("AB", "bb", "cc")
	if got := n.Values("AB"); !reflect.DeepEqual(got, []Value{"aa", "bb", "cc"}) {
		t.Errorf("Add appends to the existing property: %q", got)
	}
	if len(n.Properties) != 2 || n.Properties[0].ID != "AB" || n.Properties[1].ID != "C" {
		t.Errorf("properties out of order: %#v", n.Properties)
	}
	if n.Text("C") != "x]" || n.Text("GN") != "" || n.SimpleText("C") != "x]" {
		t.Errorf("Text: %q %q", n.Text("C"), n.Text("GN"))
	}
	n.Set("AB", "dd")
	if got := n.Values("AB"); !reflect.DeepEqual(got, []Value{"dd"}) || n.Properties[0].ID != "AB" {
		t.Errorf("Set keeps the place and replaces the values: %#v", n.Properties)
	}
	n.Set("KO", "")
	if v, ok := n.Get("KO"); !ok || v != "" || n.Properties[2].ID != "KO" {
		t.Errorf("Set adds a new property at the end: %#v", n.Properties)
	}
	if !n.Remove("AB") || n.Remove("AB") || n.Has("AB") || len(n.Properties) != 2 {
		t.Errorf("Remove: %#v", n.Properties)
	}
	n.Add("GN")
	if n.Has("GN") {
		t.Errorf("Add without values created a property without a value")
	}
	n.Set("C")
	if n.Has("C") || len(n.Properties) != 1 {
		t.Errorf("Set without values did not remove the property: %#v", n.Properties)
	}
	if _, ok := n.Get("AB"); ok || n.Values("AB") != nil {
		t.Errorf("Get of a removed property")
	}
}

// TestNodeAddDoesNotShareValues checks that adding to a node copied from
// another (as MainLine copies) leaves the original alone.
func TestNodeAddDoesNotShareValues(t *testing.T) {
	vs := make([]Value, 1, 10)
	vs[0] = "aa"
	a := Node{Properties: []Property{{ID: "AB", Values: vs}}}
	b := Node{Properties: append([]Property(nil), a.Properties...)}
	b.Add("AB", "bb")
	c := Node{Properties: append([]Property(nil), a.Properties...)}
	c.Add("AB", "cc")
	if got := b.Values("AB"); !reflect.DeepEqual(got, []Value{"aa", "bb"}) {
		t.Errorf("b: %q", got)
	}
	if got := a.Values("AB"); !reflect.DeepEqual(got, []Value{"aa"}) {
		t.Errorf("a changed: %q", got)
	}
}

func TestGameTreeMainLine(t *testing.T) {
	c, err := Parse([]byte("(;SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range c[0].MainLine() {
		for _, p := range n.Properties {
			got = append(got, p.ID+"["+string(p.Values[0])+"]")
		}
	}
	want := []string{"SZ[9]", "B[aa]", "W[bb]", "B[cc]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MainLine = %v, want %v", got, want)
	}
	if (&GameTree{}).Root() != nil {
		t.Errorf("Root of an empty tree is not nil")
	}
	if r := c[0].Root(); r == nil || !r.Has("SZ") {
		t.Errorf("Root = %v", r)
	}
}
