package memo

import "testing"

// TestKeyLengthPrefixed: moving a byte from one part to the next changes
// the key, as does the tag.
func TestKeyLengthPrefixed(t *testing.T) {
	a := Key("t", []byte("ab"), []byte("c"))
	if a == Key("t", []byte("a"), []byte("bc")) || a == Key("u", []byte("ab"), []byte("c")) || a != Key("t", []byte("ab"), []byte("c")) {
		t.Error("the key does not tell the parts apart, or is not a function of them")
	}
}

// TestCacheBound: the cache keeps at most Max units, forgets the oldest
// first, keeps the first value put under a key, and keeps no value over
// a quarter of Max.
func TestCacheBound(t *testing.T) {
	c := Cache[int]{Max: 8, Size: func(v int) int { return v }}
	k := func(i byte) [32]byte { return Key("", []byte{i}) }
	for i := byte(1); i <= 4; i++ {
		c.Put(k(i), 2)
	}
	c.Put(k(1), 1) // already kept: unchanged
	if v, ok := c.Get(k(1)); !ok || v != 2 {
		t.Fatalf("k1: %d %v, want the first value 2", v, ok)
	}
	c.Put(k(5), 2) // 10 > 8: the oldest, k1, goes
	if _, ok := c.Get(k(1)); ok {
		t.Error("the oldest value kept beyond the bound")
	}
	for i := byte(2); i <= 5; i++ {
		if _, ok := c.Get(k(i)); !ok {
			t.Errorf("k%d forgotten within the bound", i)
		}
	}
	c.Put(k(6), 3) // over a quarter of 8
	if _, ok := c.Get(k(6)); ok {
		t.Error("a value over a quarter of the bound kept")
	}
	c.Clear()
	if _, ok := c.Get(k(2)); ok {
		t.Error("a value kept after Clear")
	}
}
