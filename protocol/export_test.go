package protocol

import "github.com/libp2p/go-libp2p/core/crypto"

// SetTamper installs a hook that replaces each outgoing message by the
// frames it returns (nil: send the message as is). Tests use it to play a
// cheating peer.
func SetTamper(c *Config, f func(m *Message, key crypto.PrivKey) [][]byte) { c.tamper = f }

// SetRewrite installs a hook that changes this peer's own messages before
// they are signed and recorded; a message for which it returns cheat is
// sent even if this peer's own machine refuses it. Tests use it to play a
// cheating program whose record stays consistent with what it sent.
func SetRewrite(c *Config, f func(g *Game, kind Kind, body any) (Kind, any, bool)) { c.rewrite = f }

// FrameOf returns the frame that carries m.
func FrameOf(m *Message) []byte {
	raw, err := encodeFrame(frame{Msg: m})
	if err != nil {
		panic(err)
	}
	return raw
}

// EncodeBody is encodeBody for tests.
func EncodeBody(v any) []byte {
	b, err := encodeBody(v)
	if err != nil {
		panic(err)
	}
	return b
}
