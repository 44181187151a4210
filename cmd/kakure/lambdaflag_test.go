package main

import (
	"flag"
	"io"
	"testing"
)

// TestT8LambdaFlag (T-8(b)): --lambda sets Phantom Go's garblings per try,
// 4 by default; 1 means none (left out of the invitation), a value that
// is not a power of two up to 16 is refused, and so is --lambda for
// another variant, whose games are not computed.
func TestT8LambdaFlag(t *testing.T) {
	cases := []struct {
		args []string
		want int
		ok   bool
	}{
		{[]string{"--variant", "phantom"}, 4, true},
		{[]string{"--variant", "phantom", "--lambda", "8"}, 8, true},
		{[]string{"--variant", "phantom", "--lambda", "1"}, 0, true},
		{[]string{"--variant", "phantom", "--lambda", "3"}, 0, false},
		{[]string{"--variant", "phantom", "--lambda", "32"}, 0, false},
		{[]string{"--variant", "go"}, 0, true},
		{[]string{"--variant", "go", "--lambda", "4"}, 0, false},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var vf variantFlags
		vf.register(fs, "go")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		o, err := vf.options(fs)
		if (err == nil) != c.ok || (c.ok && o.Lambda != c.want) {
			t.Errorf("%v: λ = %d, err %v; want %d, ok %v", c.args, o.Lambda, err, c.want, c.ok)
		}
	}
}
