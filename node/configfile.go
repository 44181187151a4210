package node

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// ConfigFileName is the name of the optional configuration file in the
// home directory.
const ConfigFileName = "config.json"

// FileConfig is what the configuration file Home/config.json may say,
// for example:
//
//	{
//	  "relays": ["/ip4/203.0.113.7/udp/4747/quic-v1/p2p/12D3KooW..."],
//	  "listen": ["/ip4/0.0.0.0/udp/0/quic-v1", "/ip4/0.0.0.0/tcp/0"]
//	}
//
// New reads it for the fields its Config leaves nil. Unknown fields are
// errors, so that a misspelt key is not silently ignored.
type FileConfig struct {
	// Relays are kakure relays, multiaddrs ending in /p2p/<relay ID> as
	// `kakure relay` prints them.
	Relays []string `json:"relays,omitempty"`
	// Listen are the multiaddrs to listen on.
	Listen []string `json:"listen,omitempty"`
	// Bootstrap are the DHT's bootstrap peers, multiaddrs ending in
	// /p2p/<ID>; absent means the Amino DHT's, empty none (off the DHT).
	Bootstrap []string `json:"bootstrap,omitempty"`
	// DHT is "off" to stay off the DHT, "on" to join it even when
	// listening on loopback only; absent means on unless every listen
	// address is a loopback one.
	DHT string `json:"dht,omitempty"`
}

// LoadFileConfig reads home/config.json. A missing file is the zero
// FileConfig; a file that is not valid JSON, has unknown fields or names
// a relay address that is not a full peer address is an error naming the
// file.
func LoadFileConfig(home string) (FileConfig, error) {
	path := filepath.Join(home, ConfigFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return FileConfig{}, nil
	}
	if err != nil {
		return FileConfig{}, fmt.Errorf("node: configuration file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return FileConfig{}, fmt.Errorf("node: reading %s: %w", path, err)
	}
	var fc FileConfig
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return FileConfig{}, fmt.Errorf("node: configuration file %s: %w", path, err)
	}
	if dec.More() {
		return FileConfig{}, fmt.Errorf("node: configuration file %s: data after the JSON object", path)
	}
	if _, err := ParseRelayAddrs(fc.Relays); err != nil {
		return FileConfig{}, fmt.Errorf("node: configuration file %s: %w", path, err)
	}
	if _, err := ParsePeerAddrs(fc.Bootstrap); err != nil {
		return FileConfig{}, fmt.Errorf("node: configuration file %s: bootstrap peer: %w", path, err)
	}
	if fc.DHT != DHTDefault && fc.DHT != DHTOn && fc.DHT != DHTOff {
		return FileConfig{}, fmt.Errorf("node: configuration file %s: \"dht\" is %q: want \"on\" or \"off\"", path, fc.DHT)
	}
	for _, s := range fc.Listen {
		if _, err := ma.NewMultiaddr(s); err != nil {
			return FileConfig{}, fmt.Errorf("node: configuration file %s: listen address %q: %w", path, s, err)
		}
	}
	return fc, nil
}

// ParseRelayAddrs parses relay addresses (multiaddrs ending in /p2p/<ID>)
// and merges the addresses of the same relay. Errors wrap ErrBadAddress.
func ParseRelayAddrs(addrs []string) ([]peer.AddrInfo, error) {
	out, err := ParsePeerAddrs(addrs)
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	return out, nil
}
